import { sanitizeForMessage, type BreakerSettings, type Clock, type LockStore, type Receipt, type ReceiptStore } from '@heartbeat-kit/core';
import { err, ok, type Result } from 'neverthrow';
import {
  DEFAULT_DISPATCH_BREAKER,
  dispatchBreakerSettings,
  parsePersonaConfig,
  parseWoterclipConfig,
  type PersonaConfig,
  type WoterclipConfig,
} from '../config/woterclip-config.js';
import { buildInbox, renderDryRun, type InboxEntry } from '../inbox/inbox.js';
import { decomposedParents, type IssueStatus } from '../log/log-lines.js';
import type { BeatLog } from '../ports/beat-log.js';
import type { Dispatcher } from '../ports/dispatcher.js';
import type { IssueSummary, IssueTracker } from '../ports/issue-tracker.js';
import type { ToolProbe, WorkspaceFiles } from '../ports/workspace.js';
import { commentsSinceLastAgent, renderStaleCleanupComment } from '../report/comments.js';
import { closingSuggestions, elapsedSeconds, isStaleWorking, planQueueEnd, type Halt } from './beat-plan.js';
import { priorBeatState } from './beat-receipts.js';
import { planBeatRecord } from './beat-record.js';
import {
  earlyStop,
  editLabels,
  finish,
  halt,
  mutate,
  newTally,
  read,
  releaseLock,
  takeLock,
  type Beat,
  type Tally,
} from './beat-session.js';
import { dispatchHeldBack } from './dispatch-breaker.js';
import { decideNextStep } from './next-step.js';
import { isQuietTime } from './quiet-hours.js';
import type { StopReason } from './stop-reasons.js';
import { workIssue, type WorkingBeat } from './work-issue.js';

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
  /**
   * Ctrl-C or SIGTERM (the CLI's shutdown signal; abort it with the signal's name). Once aborted,
   * a failure is the interruption's, not GitHub's or the agent's: the beat ends `interrupted` at its
   * next step, writes no beat line (the closed set of stop reasons has none for it), does not count
   * the cut-off dispatch in the breaker and releases its lock.
   */
  readonly signal?: AbortSignal;
}

/** Flags of one beat. */
export interface BeatOptions {
  readonly dryRun?: boolean;
  readonly persona?: string;
  /**
   * An operator pause with `--except-critical` (see `decideBeatPause`): the beat runs as in quiet
   * hours with behavior triage-only, and this line says why.
   */
  readonly triageOnly?: string;
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
  | 'breaker-open'
  | 'interrupted';

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
  /** The issue in hand when a signal interrupted the beat (exit `interrupted`). */
  readonly interruptedIssue?: number;
  /** This beat's number (beats that reached the inbox or were held back), when receipts are kept. */
  readonly beatNumber?: number;
  /** The dispatch breaker's advisory, recovery or held-back line of this beat. */
  readonly breakerLine?: string;
  /** The receipt this beat left (absent without a receipt store, or when it could not be written). */
  readonly receipt?: Receipt;
}

/** A persona with its validated config and its SOUL.md / TOOLS.md text. */
export interface LoadedPersona {
  readonly name: string;
  readonly label: string | null;
  readonly config: PersonaConfig;
  readonly soul: string;
  readonly tools: string;
}

const clean = (text: string, max = 300): string => sanitizeForMessage(text, { maxLength: max });

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
  const dryRun = options.dryRun === true;
  const kept = await listBeatReceipts(deps.receipts);
  const prior = priorBeatState(kept.receipts);
  const beat = prior.n + 1;
  // Without a receipt store there is nowhere to keep the breaker, so it never holds a beat back.
  const heldBack = (settings: BreakerSettings): string | undefined =>
    dryRun || deps.receipts === undefined ? undefined : dispatchHeldBack(prior.breaker, beat, settings);
  const tally = newTally(deps.dispatchBreaker ?? DEFAULT_DISPATCH_BREAKER);
  const steps = await beatSteps(deps, options, heldBack, tally);
  const result: BeatResult = {
    ...steps,
    ...(tally.reportNotPosted === undefined ? {} : { reportNotPosted: tally.reportNotPosted }),
    warnings: [...kept.warnings, ...steps.warnings],
  };
  if (deps.receipts === undefined) {
    const released = await releaseLock(deps, tally, result.beatId);
    return released.length === 0 ? result : { ...result, warnings: [...result.warnings, ...released] };
  }
  const plan = planBeatRecord({
    result,
    prior,
    beat,
    verdicts: tally.verdicts,
    settings: tally.settings,
    dryRun,
    startMs,
    now: deps.clock.now(),
    ...(tally.tookOverFrom === undefined ? {} : { tookOverFrom: tally.tookOverFrom }),
    existing: kept.receipts,
  });
  const receiptWarnings: string[] = [];
  let written: Receipt | undefined;
  for (const receipt of plan.receipts) {
    const appended = await deps.receipts.append(receipt);
    if (appended.isErr())
      receiptWarnings.push(`receipts: the receipt of slot ${receipt.slot} was not written (${appended.error.message}).`);
    else if (receipt === plan.own) written = receipt;
  }
  // The lock goes only after the receipt is durable: a kill at any instant leaves the receipt or
  // the lock, and the beat that takes a stale lock over records the slot as abandoned.
  const released = await releaseLock(deps, tally, result.beatId);
  return {
    ...plan.result,
    warnings: [...plan.result.warnings, ...receiptWarnings, ...released],
    ...(plan.counted ? { beatNumber: beat } : {}),
    ...(plan.breakerLine === undefined ? {} : { breakerLine: plan.breakerLine }),
    ...(written === undefined ? {} : { receipt: written }),
  };
}

/** The WoterClip receipts kept so far; a store that cannot be read is a warning (the beat runs as the first). */
async function listBeatReceipts(
  store: ReceiptStore | undefined,
): Promise<{ readonly receipts: readonly Receipt[]; readonly warnings: readonly string[] }> {
  if (store === undefined) return { receipts: [], warnings: [] };
  const listed = await store.list();
  if (listed.isErr()) return { receipts: [], warnings: [`receipts: ${listed.error.message}`] };
  return { receipts: listed.value.receipts.filter((r) => r.source === 'woterclip'), warnings: listed.value.warnings };
}

/** Step 1 (config, the dispatch breaker, the lock), then the beat's work. */
async function beatSteps(
  deps: BeatDeps,
  options: BeatOptions,
  heldBack: (settings: BreakerSettings) => string | undefined,
  tally: Tally,
): Promise<BeatResult> {
  // A dry run changes nothing and records nothing on every path: it reads the lock instead of
  // taking it, writes no log line and makes no GitHub mutation.
  const dryRun = options.dryRun === true;

  // Step 1: config. A missing or invalid config records nothing: no lock has been taken.
  const loaded = await loadWoterclipConfig(deps.files);
  if (loaded.isErr()) return earlyStop(tally, loaded.error.kind === 'io' ? 'lock-error' : loaded.error.kind, loaded.error.message);
  const { config, personas } = loaded.value;
  if (options.persona !== undefined && !personas.has(options.persona)) {
    return earlyStop(
      tally,
      'usage',
      `--persona ${clean(options.persona, 60)}: no such persona in .woterclip/config.yaml; use one of: ${[...personas.keys()].join(', ')}.`,
    );
  }

  // The dispatch breaker is open and this is not a retry beat: no lock, no GitHub call, no dispatch.
  tally.settings = deps.dispatchBreaker ?? dispatchBreakerSettings(config);
  const held = heldBack(tally.settings);
  if (held !== undefined) return earlyStop(tally, 'breaker-open', held);

  // Step 1: the lock. Exclusive create; a stale lock is taken over by the store.
  const startMs = deps.clock.now().getTime();
  const beatId = `${Math.floor(startMs / 1000)}-${deps.pid}`;
  const locked = await takeLock(deps, { dryRun, beatId, startMs, staleHours: config.heartbeat.stale_lock_hours }, tally);
  if (locked.isErr()) return locked.error;
  return workBeat({ deps, dryRun, config, personas, beatId, startedAtMs: locked.value, tally }, options.persona, options.triageOnly);
}

/** Step 1's quiet hours, step 2's inbox, then the dry-run listing or the queue. */
async function workBeat(beat: Beat, personaFlag: string | undefined, pausedTriageOnly?: string): Promise<BeatResult> {
  const { deps, config, tally } = beat;
  const quiet = isQuietTime(deps.clock.now(), config.heartbeat.quiet_hours);
  if (quiet && config.heartbeat.quiet_hours.behavior === 'skip') return finish(beat, 'quiet_hours');
  const quietTriage = quiet && config.heartbeat.quiet_hours.behavior === 'triage-only';
  const triageOnly = quietTriage || pausedTriageOnly !== undefined;
  if (quietTriage) tally.messages.push('Quiet hours (triage-only): only the default persona works.');
  else if (pausedTriageOnly !== undefined)
    tally.messages.push(`Operator pause (triage-only): ${pausedTriageOnly}; only the default persona works.`);

  const inbox = await readInbox(beat);
  if (inbox.isErr()) return halt(beat, interrupted(deps) ? { kind: 'interrupted' } : inbox.error);
  const { issues, unblockedByHuman, decomposed } = inbox.value;

  // Step 3: pick.
  const queue = buildInbox(issues, {
    config,
    ...(personaFlag === undefined ? {} : { persona: personaFlag }),
    triageOnly,
    unblockedByHuman,
    decomposed,
  });
  if (beat.dryRun) {
    const listing = renderDryRun(queue, (t) => clean(t, 120));
    return {
      exit: 'dry-run',
      messages: [...tally.messages, listing],
      warnings: tally.warnings,
      worked: tally.worked,
      suggestions: [],
      dryRun: listing,
    };
  }
  // Todo work for any persona: the inbox without the triage-only and --persona filters. Issues
  // for worker personas that wait out triage-only quiet hours still count as work to come.
  const anyPersona = buildInbox(issues, { config, triageOnly: false, unblockedByHuman, decomposed });
  const blocked = issues.filter((i) => i.labels.includes(config.labels.blocked)).map((i) => i.number);
  return workQueue({ ...beat, login: inbox.value.login, decomposed }, queue, { anyPersona, blocked });
}

/** Step 2's reading: who the beat is on GitHub, its inbox (stale working labels cleaned), and what the log says. */
interface InboxRead {
  readonly login: string;
  readonly issues: readonly IssueSummary[];
  readonly unblockedByHuman: ReadonlySet<number>;
  readonly decomposed: ReadonlySet<number>;
}

/** Step 2: the inbox. The authenticated login tells agent comments from human ones. */
async function readInbox(beat: Beat): Promise<Result<InboxRead, Halt>> {
  const { deps, tally } = beat;
  const auth = await read(deps.tracker.authStatus());
  if (auth.isErr()) return err(auth.error);
  const login = auth.value.login;
  const listed = await read(deps.tracker.listInbox());
  if (listed.isErr()) return err(listed.error);
  const logRead = await deps.log.read();
  if (logRead.isErr()) tally.warnings.push(`heartbeat-log.jsonl: ${logRead.error.message}`);
  else tally.warnings.push(...logRead.value.warnings);
  const decomposed = logRead.isOk() ? decomposedParents(logRead.value.lines) : new Set<number>();

  const issues: IssueSummary[] = [];
  const unblockedByHuman = new Set<number>();
  for (const issue of listed.value) {
    const reviewed = await reviewIssue(beat, login, issue);
    if (reviewed.isErr()) return err(reviewed.error);
    if (reviewed.value.unblockedByHuman) unblockedByHuman.add(issue.number);
    issues.push({ ...issue, labels: reviewed.value.labels });
  }
  return ok({ login, issues, unblockedByHuman, decomposed });
}

/**
 * Step 2 for one issue with the working or blocked label: a stale working label is cleaned (not
 * in a dry run); a blocked issue with a human comment after the last agent comment is unblocked
 * (reference Q4: the footer marks agent comments).
 */
async function reviewIssue(
  beat: Beat,
  login: string,
  issue: IssueSummary,
): Promise<Result<{ readonly labels: readonly string[]; readonly unblockedByHuman: boolean }, Halt>> {
  const { deps, config } = beat;
  const { working, blocked } = config.labels;
  let labels = issue.labels;
  if (!labels.includes(working) && !labels.includes(blocked)) return ok({ labels, unblockedByHuman: false });
  const detail = await read(deps.tracker.viewIssue(issue.number));
  if (detail.isErr()) return err(detail.error);
  const comments = detail.value.comments;
  const staleMs = config.heartbeat.stale_lock_hours * 3_600_000;
  if (labels.includes(working) && !beat.dryRun && isStaleWorking(comments, login, deps.clock.now().getTime(), staleMs)) {
    const removed = await editLabels(beat, issue.number, { remove: [working] });
    if (removed.isErr()) return err(removed.error);
    const posted = await mutate(beat, () =>
      deps.tracker.comment(issue.number, renderStaleCleanupComment(working, config.heartbeat.stale_lock_hours)),
    );
    if (posted.isErr()) return err(posted.error);
    beat.tally.messages.push(`Cleaned stale ${working} on #${issue.number}.`);
    labels = labels.filter((l) => l !== working);
  }
  return ok({ labels, unblockedByHuman: labels.includes(blocked) && commentsSinceLastAgent(comments, login).length > 0 });
}

/** Ctrl-C or SIGTERM arrived (a function, so a check after an `await` is never narrowed away). */
function interrupted(deps: BeatDeps): boolean {
  return deps.signal?.aborted === true;
}

/** Steps 4–11: work the queue in order until it is empty or step 11 says stop; the closing suggestions. */
async function workQueue(
  beat: WorkingBeat,
  queue: readonly InboxEntry[],
  closing: { readonly anyPersona: readonly InboxEntry[]; readonly blocked: readonly number[] },
): Promise<BeatResult> {
  const { deps, config, tally } = beat;
  const remaining = [...queue];
  const blockedNow = new Set(closing.blocked);
  const stop = (reason: Exclude<StopReason, 'lock_conflict'>, extra: readonly string[] = []): Promise<BeatResult> => {
    tally.suggestions.push(...closingSuggestions({ anyPersona: closing.anyPersona, worked: tally.worked, blockedCount: blockedNow.size }));
    return finish(beat, reason, extra);
  };
  for (;;) {
    if (interrupted(deps)) return halt(beat, { kind: 'interrupted' });
    const entry = remaining.shift();
    if (entry === undefined) {
      const end = planQueueEnd(tally.worked.length);
      return stop(end.reason, end.extra);
    }
    const persona = beat.personas.get(entry.persona);
    if (persona === undefined) return finish(beat, 'blocked_exit', [`persona ${entry.persona} is not loaded`]);
    const result = await workIssue(beat, entry, persona);
    if (result.isErr()) return halt(beat, interrupted(deps) ? { kind: 'interrupted', issue: entry.issue.number } : result.error);
    tally.worked.push(result.value);
    if (result.value.status === 'blocked') blockedNow.add(entry.issue.number);
    else blockedNow.delete(entry.issue.number);
    // Step 11.
    const next = decideNextStep({
      elapsedSec: elapsedSeconds(beat.startedAtMs, deps.clock.now().getTime()),
      ceilingSec: config.heartbeat.time_ceiling_sec,
      worked: tally.worked.length,
      maxIssues: config.heartbeat.max_issues_per_heartbeat,
      remaining: remaining.length,
    });
    if (next.kind === 'stop') return stop(next.reason);
  }
}
