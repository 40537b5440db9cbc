import {
  isLockStale,
  ownsLock,
  sanitizeForMessage,
  type BreakerSettings,
  type Clock,
  type LockRecord,
  type LockStore,
  type Receipt,
  type ReceiptStore,
} from '@heartbeat-kit/core';
import { err, errAsync, ok, type Result, type ResultAsync } from 'neverthrow';
import {
  DEFAULT_DISPATCH_BREAKER,
  dispatchBreakerSettings,
  parsePersonaConfig,
  parseWoterclipConfig,
  type PersonaConfig,
  type WoterclipConfig,
} from '../config/woterclip-config.js';
import { composePrompt, parentReference } from '../dispatch/prompt.js';
import type { Outcome } from '../dispatch/outcome.js';
import { buildInbox, renderDryRun, type InboxEntry } from '../inbox/inbox.js';
import { decomposedParents, type IssueLine, type IssueStatus } from '../log/log-lines.js';
import type { BeatLog } from '../ports/beat-log.js';
import type { Dispatcher } from '../ports/dispatcher.js';
import type { IssueDetail, IssueSummary, IssueTracker, LabelEdit, TrackerError } from '../ports/issue-tracker.js';
import type { ToolProbe, WorkspaceFiles } from '../ports/workspace.js';
import { commentsSinceLastAgent, lastHeartbeatComment, renderStaleCleanupComment } from '../report/comments.js';
import { dispatchActions, renderIssueReport, renderMissingToolsReport } from '../report/issue-report.js';
import { decompose, type ChildSpec } from '../subissues/sub-issues.js';
import { abandonedReceipt, beatSlotMs, priorBeatState, receiptForBeat } from './beat-receipts.js';
import { dispatchHeldBack, updateDispatchBreaker, type DispatchVerdict } from './dispatch-breaker.js';
import { planLabelTransition, planParentClose, planPickUp } from './label-plan.js';
import { decideNextStep } from './next-step.js';
import { STOP_REASON_TABLE, type StopReason } from './stop-reasons.js';
import { isQuietTime } from './quiet-hours.js';

/** The ports a beat runs on. The CLI picks the concrete adapters; tests pass fakes. */
export interface BeatDeps {
  readonly tracker: IssueTracker;
  readonly dispatcher: Dispatcher;
  /** The `.woterclip/.heartbeat-lock` store (core's file lock store with the WoterClip codec). */
  readonly lock: LockStore;
  readonly log: BeatLog;
  /** Reads files relative to `.woterclip/`. */
  readonly files: WorkspaceFiles;
  readonly tools: ToolProbe;
  readonly clock: Clock;
  /** Second half of the beat id `<epoch>-<pid>`. */
  readonly pid: number;
  /**
   * Where every beat leaves exactly one receipt (`ran` or `skipped` with its reason); the last
   * one also carries the beat count and the dispatch breaker. Without it nothing is recorded
   * and the dispatch breaker never trips.
   */
  readonly receipts?: ReceiptStore;
  /** Overrides the dispatch circuit breaker's settings of `.woterclip/config.yaml` (`dispatch.breaker`; default after 3 beats, back-off cap 8). */
  readonly dispatchBreaker?: BreakerSettings;
}

/** Flags of one beat. */
export interface BeatOptions {
  readonly dryRun?: boolean;
  readonly persona?: string;
}

/** How a beat ended: one entry per row of the reference's exit table, plus usage and I/O errors. */
export type BeatExit =
  | 'config-missing'
  | 'config-invalid'
  | 'usage'
  | 'lock-conflict'
  | 'lock-error'
  | 'quiet-hours'
  | 'dry-run'
  | 'queue-empty'
  | 'complete'
  | 'blocked-exit'
  | 'superseded'
  | 'withdrawn'
  | 'time-ceiling'
  | 'issue-budget'
  | 'breaker-open';

/** One issue worked this beat. */
export interface WorkedIssue {
  readonly issue: number;
  readonly persona: string;
  readonly status: IssueStatus;
  readonly heartbeat: number;
}

/** What a beat did. `messages` are for the operator; the CLI maps `exit` to its exit code. */
export interface BeatResult {
  readonly exit: BeatExit;
  readonly stopReason?: StopReason;
  readonly beatId?: string;
  readonly messages: readonly string[];
  readonly warnings: readonly string[];
  readonly worked: readonly WorkedIssue[];
  readonly suggestions: readonly string[];
  /** The dry-run listing, when `dryRun`. */
  readonly dryRun?: string;
  /** An issue whose report comment could not be posted (GitHub failed), when one could not. */
  readonly reportNotPosted?: number;
  /** This beat's number (beats that reached the inbox or were held back), when receipts are kept. */
  readonly beatNumber?: number;
  /** The dispatch breaker's advisory, recovery or held-back line of this beat. */
  readonly breakerLine?: string;
  /** The receipt this beat left (absent without a receipt store, or when it could not be written). */
  readonly receipt?: Receipt;
}

/** What the session hands to {@link runBeat} besides the result: what the receipt and the breaker need. */
interface Session {
  readonly result: BeatResult;
  readonly verdicts: readonly DispatchVerdict[];
  readonly tookOverFrom?: LockRecord;
  /** The dispatch breaker's settings: the deps' override, else the config's (defaults when the config was not read). */
  readonly settings: BreakerSettings;
  /** Deletes the lock if it still carries this beat's id; run after the receipt is durable. */
  readonly release: () => Promise<readonly string[]>;
}

const EXIT_BY_REASON = {
  complete: 'complete',
  queue_empty: 'queue-empty',
  issue_budget: 'issue-budget',
  time_ceiling: 'time-ceiling',
  blocked_exit: 'blocked-exit',
  quiet_hours: 'quiet-hours',
  lock_conflict: 'lock-conflict',
} as const satisfies Record<StopReason, BeatExit>;

/** A persona with its validated config and its SOUL.md / TOOLS.md text. */
export interface LoadedPersona {
  readonly name: string;
  readonly label: string | null;
  readonly config: PersonaConfig;
  readonly soul: string;
  readonly tools: string;
}

/**
 * Why the beat stops mid-work: it lost its lock (silent, the lock is the successor's), the Board
 * removed the working label from the issue in hand (silent on the issue, the lock is released), or
 * GitHub is failing (`blocked_exit`).
 */
type Halt =
  | { readonly kind: 'superseded' }
  | { readonly kind: 'withdrawn'; readonly issue: number }
  | { readonly kind: 'gh-failed'; readonly message: string };

const clean = (text: string, max = 300): string => sanitizeForMessage(text, { maxLength: max });
const isoSeconds = (ms: number): string => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Loads and validates the repo config and every persona; errors name the file, key and fix. */
export async function loadWoterclipConfig(
  files: WorkspaceFiles,
): Promise<
  Result<
    { config: WoterclipConfig; personas: Map<string, LoadedPersona> },
    { readonly kind: 'config-missing' | 'config-invalid' | 'io'; readonly message: string }
  >
> {
  const text = await files.readText('config.yaml');
  if (text.isErr())
    return err({ kind: text.error.kind === 'io' ? 'io' : 'config-invalid', message: `.woterclip/config.yaml: ${text.error.message}` });
  const config = parseWoterclipConfig(text.value);
  if (config.isErr()) return err({ kind: config.error.kind, message: config.error.message });
  const personas = new Map<string, LoadedPersona>();
  for (const [name, ref] of Object.entries(config.value.personas)) {
    const base = ref.path.replace(/\/+$/, '');
    // A persona file that resolves outside the repository is the user's to fix (exit 2), not an I/O failure.
    const read = async (file: string): Promise<Result<string | undefined, { kind: 'io' | 'config-invalid'; message: string }>> =>
      (await files.readText(`${base}/${file}`)).mapErr((e) => ({
        kind: e.kind === 'io' ? 'io' : 'config-invalid',
        message: `.woterclip/${base}/${file}: ${e.message}`,
      }));
    const [yamlText, soul, tools] = await Promise.all([read('config.yaml'), read('SOUL.md'), read('TOOLS.md')]);
    if (yamlText.isErr()) return err(yamlText.error);
    if (soul.isErr()) return err(soul.error);
    if (tools.isErr()) return err(tools.error);
    const parsed = parsePersonaConfig(yamlText.value, `.woterclip/${base}/config.yaml`);
    if (parsed.isErr()) return err({ kind: 'config-invalid', message: parsed.error.message });
    personas.set(name, { name, label: ref.label, config: parsed.value, soul: soul.value ?? '', tools: tools.value ?? '' });
  }
  return ok({ config: config.value, personas });
}

/**
 * Runs one WoterClip beat (spec 002, steps 1–11). Every exit after taking the lock applies the
 * ownership rule; every GitHub mutation and the report are preceded by a check that the lock
 * still carries this beat's id, and a superseded beat exits silently: no comment, no beat line,
 * no lock deletion.
 *
 * @example
 * ```ts
 * import { createMemoryLockStore, createFakeClock } from '@heartbeat-kit/core/testing';
 * import { runBeat } from '@heartbeat-kit/woterclip';
 * import { createFakeToolProbe, createMemoryBeatLog, createMemoryIssueTracker, createMemoryWorkspace, createScriptedDispatcher } from '@heartbeat-kit/woterclip/testing';
 *
 * // With the real adapters instead: createGhIssueTracker, createCommandDispatcher, createFileLockStore
 * // (woterclipLockCodec), createFileBeatLog and createDirectoryWorkspace — see `heartbeat-kit woterclip beat`.
 * const result = await runBeat({
 *   tracker: createMemoryIssueTracker({ issues: [] }),
 *   dispatcher: createScriptedDispatcher([]),
 *   lock: createMemoryLockStore(),
 *   log: createMemoryBeatLog(),
 *   files: createMemoryWorkspace({ 'config.yaml': 'version: 2\ngithub: { board_user: octocat, repo: o/r }\npersonas:\n  dev: { path: personas/dev, is_default: true }\n', 'personas/dev/config.yaml': 'name: dev\n' }),
 *   tools: createFakeToolProbe(['gh']),
 *   clock: createFakeClock(new Date('2026-02-19T10:00:00Z')),
 *   pid: 4242,
 * });
 * console.log(result.exit, result.stopReason); // 'queue-empty' 'queue_empty'
 * ```
 */
export async function runBeat(deps: BeatDeps, options: BeatOptions = {}): Promise<BeatResult> {
  const startMs = deps.clock.now().getTime();
  const warnings: string[] = [];
  let woterclipReceipts: readonly Receipt[] = [];
  if (deps.receipts !== undefined) {
    const listed = await deps.receipts.list();
    if (listed.isErr()) warnings.push(`receipts: ${listed.error.message}`);
    else {
      woterclipReceipts = listed.value.receipts.filter((r) => r.source === 'woterclip');
      warnings.push(...listed.value.warnings);
    }
  }
  const prior = priorBeatState(woterclipReceipts);
  const beat = prior.n + 1;
  // Without a receipt store there is nowhere to keep the breaker, so it never holds a beat back.
  const heldBack = (settings: BreakerSettings): string | undefined =>
    options.dryRun === true || deps.receipts === undefined ? undefined : dispatchHeldBack(prior.breaker, beat, settings);
  const session = await beatSession(deps, options, heldBack);
  const settings = session.settings;
  let result: BeatResult = { ...session.result, warnings: [...warnings, ...session.result.warnings] };
  if (deps.receipts === undefined) {
    const released = await session.release();
    return released.length === 0 ? result : { ...result, warnings: [...result.warnings, ...released] };
  }
  const counted =
    result.exit === 'breaker-open' || receiptForBeat(result, { slotMs: 0, atMs: 0, dryRun: options.dryRun === true })?.kind === 'ran';
  let breakerState = prior.breaker;
  let breakerLine: string | undefined;
  if (result.exit === 'breaker-open') breakerLine = result.messages[0];
  else if (counted) {
    const blocked = session.verdicts.flatMap((v) => (v.ok ? [] : [v.issue]));
    const update = updateDispatchBreaker(prior.breaker, session.verdicts, { beat, now: deps.clock.now(), settings, blocked });
    breakerState = update.breaker;
    breakerLine = update.line;
    if (update.line !== undefined) {
      if (update.event === 'recovered') result = { ...result, messages: [...result.messages, update.line] };
      else result = { ...result, warnings: [...result.warnings, update.line] };
    }
  }
  const atMs = deps.clock.now().getTime();
  const toAppend: Receipt[] = [];
  if (session.tookOverFrom !== undefined) {
    const gap = abandonedReceipt(session.tookOverFrom, atMs, woterclipReceipts);
    if (gap !== undefined) toAppend.push(gap);
  }
  const own = receiptForBeat(result, {
    slotMs: beatSlotMs(startMs, result.beatId),
    atMs,
    dryRun: options.dryRun === true,
    ...(counted ? { beat: { n: beat, breaker: breakerState, line: breakerLine } } : {}),
  });
  if (own !== undefined) toAppend.push(own);
  const receiptWarnings: string[] = [];
  let written: Receipt | undefined;
  for (const receipt of toAppend) {
    const appended = await deps.receipts.append(receipt);
    if (appended.isErr())
      receiptWarnings.push(`receipts: the receipt of slot ${receipt.slot} was not written (${appended.error.message}).`);
    else if (receipt === own) written = receipt;
  }
  // The lock goes only after the receipt is durable: a kill at any instant leaves the receipt or
  // the lock, and the beat that takes a stale lock over records the slot as abandoned.
  const released = await session.release();
  return {
    ...result,
    warnings: [...result.warnings, ...receiptWarnings, ...released],
    ...(counted ? { beatNumber: beat } : {}),
    ...(breakerLine === undefined ? {} : { breakerLine }),
    ...(written === undefined ? {} : { receipt: written }),
  };
}

/** What the steps of a beat note for the receipt, the breaker and the release. */
interface Track {
  readonly verdicts: DispatchVerdict[];
  tookOverFrom?: LockRecord;
  /** The beat owns the lock at its exit: the ownership rule deletes it after the receipt. */
  releaseDue: boolean;
  reportNotPosted?: number;
  settings: BreakerSettings;
}

/** One beat's steps, and the release of its lock as a separate, later step. */
async function beatSession(
  deps: BeatDeps,
  options: BeatOptions,
  heldBack: (settings: BreakerSettings) => string | undefined,
): Promise<Session> {
  const track: Track = { verdicts: [], releaseDue: false, settings: deps.dispatchBreaker ?? DEFAULT_DISPATCH_BREAKER };
  const steps = await beatSteps(deps, options, heldBack, track);
  const result = track.reportNotPosted === undefined ? steps : { ...steps, reportNotPosted: track.reportNotPosted };
  const beatId = result.beatId;
  return {
    result,
    verdicts: track.verdicts,
    settings: track.settings,
    ...(track.tookOverFrom === undefined ? {} : { tookOverFrom: track.tookOverFrom }),
    release: async () => {
      if (!track.releaseDue || beatId === undefined) return [];
      const released = await deps.lock.release(beatId);
      return released.isErr()
        ? [`.heartbeat-lock: not released (${released.error.kind === 'held' ? 'held by another beat' : released.error.message}).`]
        : [];
    },
  };
}

/** Steps 1–11 of one beat. */
async function beatSteps(
  deps: BeatDeps,
  options: BeatOptions,
  heldBack: (settings: BreakerSettings) => string | undefined,
  track: Track,
): Promise<BeatResult> {
  const warnings: string[] = [];
  // A dry run changes nothing and records nothing on every path: it reads the lock instead of
  // taking it, writes no log line and makes no GitHub mutation.
  const dryRun = options.dryRun === true;
  const base = { warnings, worked: [] as WorkedIssue[], suggestions: [] as string[] };
  const stopEarly = (exit: BeatExit, message: string): BeatResult => ({ ...base, exit, messages: [message] });

  // Step 1: config. A missing or invalid config records nothing: no lock has been taken.
  const loaded = await loadWoterclipConfig(deps.files);
  if (loaded.isErr()) {
    const e = loaded.error;
    return stopEarly(e.kind === 'io' ? 'lock-error' : e.kind, e.message);
  }
  const { config, personas } = loaded.value;
  if (options.persona !== undefined && !personas.has(options.persona)) {
    return stopEarly(
      'usage',
      `--persona ${clean(options.persona, 60)}: no such persona in .woterclip/config.yaml; use one of: ${[...personas.keys()].join(', ')}.`,
    );
  }

  // The dispatch breaker is open and this is not a retry beat: no lock, no GitHub call, no dispatch.
  track.settings = deps.dispatchBreaker ?? dispatchBreakerSettings(config);
  const held = heldBack(track.settings);
  if (held !== undefined) return stopEarly('breaker-open', held);

  // Step 1: the lock. Exclusive create; a stale lock is taken over by the store.
  const startMs = deps.clock.now().getTime();
  const beatId = `${Math.floor(startMs / 1000)}-${deps.pid}`;
  const staleAfterMs = config.heartbeat.stale_lock_hours * 3_600_000;
  const lockConflict = (): BeatResult => ({
    ...stopEarly('lock-conflict', STOP_REASON_TABLE.lock_conflict.message),
    stopReason: 'lock_conflict',
  });
  const messages: string[] = [];
  let startedAtMs = startMs;
  if (dryRun) {
    const current = await deps.lock.read();
    if (current.isErr()) {
      const e = current.error;
      return e.kind === 'held'
        ? lockConflict()
        : stopEarly('lock-error', `.woterclip/.heartbeat-lock: ${e.message}; remove the file if no heartbeat is running.`);
    }
    if (current.value !== undefined) {
      if (!isLockStale(current.value, startMs, staleAfterMs)) return lockConflict();
      messages.push('Dry run: a real beat would clean the stale lockfile.');
    }
  } else {
    const acquired = await deps.lock.acquire({ owner: beatId, nowMs: startMs, staleAfterMs });
    if (acquired.isErr()) {
      const e = acquired.error;
      if (e.kind === 'held') return lockConflict();
      return stopEarly('lock-error', `.woterclip/.heartbeat-lock: ${e.message}; remove the file if no heartbeat is running.`);
    }
    if (acquired.value.tookOverFrom !== undefined) {
      messages.push('Cleaned stale lockfile.');
      track.tookOverFrom = acquired.value.tookOverFrom;
    }
    startedAtMs = acquired.value.record.acquiredAtMs;
  }
  const worked: WorkedIssue[] = [];
  // Issue lines this beat wrote: the beat line's `issues_worked` counts what the beat recorded, so
  // the log never shows a died beat when GitHub failed after an issue line was written.
  let recorded = 0;
  const suggestions: string[] = [];
  const elapsedSec = (): number => Math.max(0, Math.floor((deps.clock.now().getTime() - startedAtMs) / 1000));

  const owns = async (): Promise<boolean> => {
    if (dryRun) return true;
    const current = await deps.lock.read();
    return current.isOk() && ownsLock(current.value, beatId);
  };
  const silent = (): BeatResult => ({ exit: 'superseded', beatId, messages: [], warnings, worked, suggestions: [] });
  /** The ownership rule: delete the lock only while it still carries this beat's id (done by the session after the receipt). */
  const releaseOwnLock = (): Promise<void> => {
    if (!dryRun) track.releaseDue = true;
    return Promise.resolve();
  };

  const finish = async (reason: Exclude<StopReason, 'lock_conflict'>, extra: readonly string[] = []): Promise<BeatResult> => {
    const info = STOP_REASON_TABLE[reason];
    if (dryRun)
      return {
        exit: EXIT_BY_REASON[reason],
        stopReason: reason,
        messages: [...messages, ...extra, info.message, 'Dry run: nothing was changed or recorded.'],
        warnings,
        worked,
        suggestions,
      };
    if (!(await owns())) return silent();
    const appended = await deps.log.append({
      type: 'beat',
      started_at: isoSeconds(startedAtMs),
      ended_at: isoSeconds(deps.clock.now().getTime()),
      beat_elapsed_sec: elapsedSec(),
      issues_worked: recorded,
      stop_reason: reason,
    });
    if (appended.isErr()) warnings.push(`heartbeat-log.jsonl: beat line not written (${appended.error.message}).`);
    await releaseOwnLock();
    return {
      exit: EXIT_BY_REASON[reason],
      stopReason: reason,
      beatId,
      messages: [...messages, ...extra, info.message],
      warnings,
      worked,
      suggestions,
    };
  };
  /**
   * The Board removed the working label to stop the agent: nothing is posted on that issue and the
   * beat ends. It still owns its lock, so the ownership rule applies (the lock is deleted). A beat
   * line is written only when the beat already recorded issue lines, so they are not read as a
   * beat that died; otherwise the exit records nothing, like the reference's silent exit.
   */
  const withdrawn = async (issue: number): Promise<BeatResult> => {
    if (!(await owns())) return silent();
    const note = `#${issue}: ${config.labels.working} was removed while the agent worked; nothing posted, beat stopped.`;
    if (recorded > 0) return finish('complete', [note]);
    await releaseOwnLock();
    return { exit: 'withdrawn', beatId, messages: [...messages, note], warnings, worked, suggestions: [] };
  };
  const halt = (h: Halt): Promise<BeatResult> => {
    if (h.kind === 'superseded') return Promise.resolve(silent());
    if (h.kind === 'withdrawn') return withdrawn(h.issue);
    return finish('blocked_exit', [`GitHub failed: ${clean(h.message)}`]);
  };

  /** Runs a GitHub mutation only while the lock is still ours. */
  const mutate = async <T>(op: () => ResultAsync<T, TrackerError>): Promise<Result<T, Halt>> => {
    if (!(await owns())) return err({ kind: 'superseded' });
    return (await op()).mapErr((e): Halt => ({ kind: 'gh-failed', message: e.message }));
  };
  /** One atomic label edit; a missing label is created and the same edit retried. */
  const editLabels = (issue: number, edit: LabelEdit): Promise<Result<void, Halt>> =>
    mutate(() => {
      const attempt = (tries: number): ResultAsync<void, TrackerError> =>
        deps.tracker
          .editLabels(issue, edit)
          .orElse((e) =>
            e.kind === 'label-not-found' && tries > 0 ? deps.tracker.createLabel(e.label).andThen(() => attempt(tries - 1)) : errAsync(e),
          );
      return attempt((edit.add ?? []).length);
    });
  const read = async <T>(r: ResultAsync<T, TrackerError>): Promise<Result<T, Halt>> =>
    (await r).mapErr((e): Halt => ({ kind: 'gh-failed', message: e.message }));

  // Step 1: quiet hours.
  const quiet = isQuietTime(deps.clock.now(), config.heartbeat.quiet_hours);
  if (quiet && config.heartbeat.quiet_hours.behavior === 'skip') return finish('quiet_hours');
  const triageOnly = quiet && config.heartbeat.quiet_hours.behavior === 'triage-only';
  if (triageOnly) messages.push('Quiet hours (triage-only): only the default persona works.');

  // Step 2: inbox. The authenticated login tells agent comments from human ones.
  const auth = await read(deps.tracker.authStatus());
  if (auth.isErr()) return halt(auth.error);
  const login = auth.value.login;
  const listed = await read(deps.tracker.listInbox());
  if (listed.isErr()) return halt(listed.error);
  const logRead = await deps.log.read();
  if (logRead.isErr()) warnings.push(`heartbeat-log.jsonl: ${logRead.error.message}`);
  else warnings.push(...logRead.value.warnings);
  const decomposed = logRead.isOk() ? decomposedParents(logRead.value.lines) : new Set<number>();

  const working = config.labels.working;
  const blockedLabel = config.labels.blocked;
  const staleMs = config.heartbeat.stale_lock_hours * 3_600_000;
  const issues: IssueSummary[] = [];
  const unblockedByHuman = new Set<number>();
  for (const issue of listed.value) {
    let labels = issue.labels;
    if (labels.includes(working) || labels.includes(blockedLabel)) {
      const detail = await read(deps.tracker.viewIssue(issue.number));
      if (detail.isErr()) return halt(detail.error);
      const comments = detail.value.comments;
      if (labels.includes(working) && options.dryRun !== true) {
        const last = lastHeartbeatComment(comments, login);
        const lastMs = last === undefined ? Number.NEGATIVE_INFINITY : Date.parse(last.comment.createdAt);
        if (!(deps.clock.now().getTime() - lastMs < staleMs)) {
          const removed = await editLabels(issue.number, { remove: [working] });
          if (removed.isErr()) return halt(removed.error);
          const posted = await mutate(() =>
            deps.tracker.comment(issue.number, renderStaleCleanupComment(working, config.heartbeat.stale_lock_hours)),
          );
          if (posted.isErr()) return halt(posted.error);
          messages.push(`Cleaned stale ${working} on #${issue.number}.`);
          labels = labels.filter((l) => l !== working);
        }
      }
      // Every comment after the last agent comment is a human's (reference Q4: the footer marks agent comments).
      if (labels.includes(blockedLabel) && commentsSinceLastAgent(comments, login).length > 0) {
        unblockedByHuman.add(issue.number);
      }
    }
    issues.push({ ...issue, labels });
  }

  // Step 3: pick.
  const inbox = buildInbox(issues, {
    config,
    ...(options.persona === undefined ? {} : { persona: options.persona }),
    triageOnly,
    unblockedByHuman,
    decomposed,
  });
  if (dryRun) {
    const listing = renderDryRun(inbox, (t) => clean(t, 120));
    return { exit: 'dry-run', messages: [...messages, listing], warnings, worked, suggestions: [], dryRun: listing };
  }

  const remaining = [...inbox];
  // Todo work for any persona: the inbox without the triage-only and --persona filters. Issues
  // for worker personas that wait out triage-only quiet hours still count as work to come.
  const anyPersona = buildInbox(issues, { config, triageOnly: false, unblockedByHuman, decomposed });
  const blockedNow = new Set(issues.filter((i) => i.labels.includes(blockedLabel)).map((i) => i.number));
  const closingSuggestions = (): void => {
    const done = new Set(worked.filter((w) => w.status === 'completed' || w.status === 'blocked').map((w) => w.issue));
    const workedNumbers = new Set(worked.map((w) => w.issue));
    // An issue worked this beat still waits when it stayed in progress, or was triaged or
    // decomposed into work for a persona; completed and blocked ones do not.
    const todoLeft = anyPersona.filter((e) => !workedNumbers.has(e.issue.number)).length + worked.filter((w) => !done.has(w.issue)).length;
    if (todoLeft === 0) suggestions.push('No todo issues remain: consider pausing the heartbeat schedule.');
    if (blockedNow.size >= 3)
      suggestions.push(`${blockedNow.size} issues are blocked: the Board's attention is needed more than further heartbeats.`);
  };

  for (;;) {
    const entry = remaining.shift();
    if (entry === undefined) {
      closingSuggestions();
      return worked.length === 0 ? finish('queue_empty', ['No issues in queue.']) : finish('complete');
    }
    const persona = personas.get(entry.persona);
    if (persona === undefined) return finish('blocked_exit', [`persona ${entry.persona} is not loaded`]);
    const result = await workIssue(entry, persona);
    if (result.isErr()) return halt(result.error);
    worked.push(result.value);
    if (result.value.status === 'blocked') blockedNow.add(entry.issue.number);
    else blockedNow.delete(entry.issue.number);
    // Step 11.
    const next = decideNextStep({
      elapsedSec: elapsedSec(),
      ceilingSec: config.heartbeat.time_ceiling_sec,
      worked: worked.length,
      maxIssues: config.heartbeat.max_issues_per_heartbeat,
      remaining: remaining.length,
    });
    if (next.kind === 'stop') {
      closingSuggestions();
      return finish(next.reason);
    }
  }

  async function appendIssueLine(line: IssueLine): Promise<void> {
    const r = await deps.log.append(line);
    if (r.isErr()) warnings.push(`heartbeat-log.jsonl: issue line for ${line.issue} not written (${r.error.message}).`);
    else recorded += 1;
  }

  async function workIssue(entry: InboxEntry, persona: LoadedPersona): Promise<Result<WorkedIssue, Halt>> {
    const n = entry.issue.number;
    // Step 5: required tools.
    const missing: string[] = [];
    for (const tool of persona.config.required_tools) {
      if (tool === 'gh') {
        const ok = await read(deps.tracker.authStatus());
        if (ok.isErr()) return err(ok.error);
      } else if (tool.startsWith('mcp__')) {
        if (!config.dispatch.mcp_tools.some((t) => t.startsWith(tool))) missing.push(tool);
      } else {
        const found = await deps.tools.hasExecutable(tool);
        if (!found.isOk() || !found.value) missing.push(tool);
      }
    }
    const issueStartMs = deps.clock.now().getTime();
    if (missing.length > 0) {
      const detail = await read(deps.tracker.viewIssue(n));
      if (detail.isErr()) return err(detail.error);
      const previous = lastHeartbeatComment(detail.value.comments, login);
      const heartbeat = (previous?.n ?? 0) + 1;
      const body = renderMissingToolsReport({
        heartbeat,
        at: deps.clock.now(),
        persona: persona.name,
        issue: n,
        boardUser: config.github.board_user,
        missing,
      });
      const posted = await mutate(() => deps.tracker.comment(n, body));
      if (posted.isErr()) return err(posted.error);
      const edited = await editLabels(n, { add: [blockedLabel], remove: [working] });
      if (edited.isErr()) return err(edited.error);
      await appendIssueLine({
        heartbeat,
        timestamp: isoSeconds(deps.clock.now().getTime()),
        issue: `#${n}`,
        persona: persona.name,
        duration_sec: 0,
        status: 'blocked',
        actions: [`missing tools: ${missing.join(', ')}`],
      });
      return ok({ issue: n, persona: persona.name, status: 'blocked', heartbeat });
    }

    // Step 6: lock the issue; picking up a blocked issue drops agent-blocked in the same edit.
    const labels = await read(deps.tracker.viewLabels(n));
    if (labels.isErr()) return err(labels.error);
    const pickUp = planPickUp(labels.value, { working, blocked: blockedLabel });
    if (pickUp !== undefined) {
      const edited = await editLabels(n, pickUp);
      if (edited.isErr()) return err(edited.error);
    }

    // Step 7: context.
    const detail = await read(deps.tracker.viewIssue(n));
    if (detail.isErr()) return err(detail.error);
    const issue = detail.value;
    const parentNumber = parentReference(issue.body);
    let parent: IssueDetail | undefined;
    if (parentNumber !== undefined && parentNumber !== n) {
      const p = await deps.tracker.viewIssue(parentNumber);
      if (p.isOk()) parent = p.value;
      else warnings.push(`#${n}: parent #${parentNumber} could not be read (${clean(p.error.message)}).`);
    }
    const previous = lastHeartbeatComment(issue.comments, login);
    const heartbeat = (previous?.n ?? 0) + 1;
    const newComments = new Set(commentsSinceLastAgent(issue.comments, login));

    // Step 8: dispatch.
    const prompt = composePrompt({
      soul: persona.soul,
      tools: persona.tools,
      issue,
      newComments,
      ...(parent === undefined ? {} : { parent }),
      persona: persona.config,
      repo: config.github.repo,
      boardUser: config.github.board_user,
    });
    const dispatched = await deps.dispatcher.dispatch({
      persona: persona.name,
      model: persona.config.runtime.model,
      thinkingEffort: persona.config.runtime.thinking_effort,
      maxTurns: persona.config.runtime.max_turns,
      prompt,
    });
    track.verdicts.push(
      dispatched.isOk() ? { ok: true } : { ok: false, kind: dispatched.error.kind, message: dispatched.error.message, issue: n },
    );

    // Children the persona asked the loop to create (decomposition), before the report lists them.
    const createdLines: string[] = [];
    const actions: string[] = [];
    if (dispatched.isOk()) {
      const outcome = dispatched.value.outcome;
      for (const s of outcome.subIssues)
        if (s.number !== undefined) createdLines.push(`#${s.number} — ${clean(s.title, 200)} (${clean(s.persona, 40)})`);
      const toCreate: ChildSpec[] = outcome.subIssues
        .filter((s) => s.number === undefined)
        .map((s) => ({
          title: s.title,
          persona: s.persona,
          personaLabel: config.personas[s.persona]?.label ?? null,
          ...(s.body === undefined ? {} : { body: s.body }),
          ...(s.blocking === undefined ? {} : { blocking: s.blocking }),
        }));
      if (toCreate.length > 0) {
        const made = await decompose(deps.tracker, { number: n, labels: labels.value }, toCreate, owns);
        if (made.isErr())
          return err(made.error.kind === 'superseded' ? { kind: 'superseded' } : { kind: 'gh-failed', message: made.error.error.message });
        for (const c of made.value.created) {
          createdLines.push(`#${c.number} — ${clean(c.title, 200)} (${c.persona})${c.attached ? '' : ' — unattached'}`);
          actions.push(`created #${c.number}`);
        }
      }
    }

    // Step 9: re-check ownership and agent-working before writing anything.
    if (!(await owns())) return err({ kind: 'superseded' });
    const current = await read(deps.tracker.viewLabels(n));
    if (current.isErr()) return err(current.error);
    if (!current.value.includes(working)) return err({ kind: 'withdrawn', issue: n });

    const now = deps.clock.now();
    const durationSec = Math.max(0, Math.floor((now.getTime() - issueStartMs) / 1000));
    const { body, status } = renderIssueReport(dispatched, {
      heartbeat,
      at: now,
      durationSec,
      persona: persona.name,
      issue: n,
      repo: config.github.repo,
      boardUser: config.github.board_user,
      blockedLabel,
      createdLines,
      ...(previous === undefined ? {} : { previousUrl: previous.comment.url }),
    });
    const posted = await mutate(() => deps.tracker.comment(n, body));
    if (posted.isErr()) {
      if (posted.error.kind === 'gh-failed') track.reportNotPosted = n;
      return err(posted.error);
    }
    actions.push(...dispatchActions(dispatched));
    await appendIssueLine({
      heartbeat,
      timestamp: isoSeconds(now.getTime()),
      issue: `#${n}`,
      persona: persona.name,
      duration_sec: durationSec,
      status,
      actions,
    });

    // Step 10: labels and state.
    const transitioned = await transition(n, status, dispatched.isOk() ? dispatched.value.outcome : undefined, persona, current.value);
    if (transitioned.isErr()) return err(transitioned.error);
    return ok({ issue: n, persona: persona.name, status, heartbeat });
  }

  /** Step 10: the planned label edit, then (completed, no PR) the close its sub-issues allow. */
  async function transition(
    n: number,
    status: IssueStatus,
    outcome: Outcome | undefined,
    persona: LoadedPersona,
    labels: readonly string[],
  ): Promise<Result<void, Halt>> {
    const target = outcome?.escalationTarget;
    const targetLabel = target === undefined ? undefined : config.personas[target]?.label;
    const plan = planLabelTransition({
      status,
      labels,
      names: { working, blocked: blockedLabel },
      openedPullRequest: (outcome?.prs.length ?? 0) > 0,
      personaLabel: persona.label,
      ...(targetLabel === undefined ? {} : { escalationLabel: targetLabel }),
    });
    if (plan.edit !== undefined) {
      const edited = await editLabels(n, plan.edit);
      if (edited.isErr() || !plan.close) return edited;
    }
    if (!plan.close) return ok(undefined);
    const subs = await read(deps.tracker.listSubIssues(n));
    if (subs.isErr()) return subs.map(() => undefined);
    const decision = planParentClose(subs.value, decomposed.has(n));
    if (decision.kind === 'leave-open') {
      warnings.push(`#${n}: left open — ${decision.reason}.`);
      return ok(undefined);
    }
    return mutate(() => deps.tracker.close(n));
  }
}
