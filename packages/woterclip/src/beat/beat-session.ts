import { ownsLock, type LockFact } from '@heartbeat-kit/core/host';
import { err, errAsync, ok, type Result, type ResultAsync } from 'neverthrow';
import type { WoterclipConfig } from '../config/woterclip-config.js';
import { heldReason, takeOverReason } from '../lock/lock-holder.js';
import type { IssueLine } from '../log/log-lines.js';
import type { LabelEdit, TrackerError } from '../ports/issue-tracker.js';
import { EXIT_BY_REASON, elapsedSeconds, isoSeconds, planHalt, type Halt } from './beat-plan.js';
import type { BeatDeps, BeatExit, BeatResult, LoadedPersona } from './beat-types.js';
import { foldNotes, type BeatSummary, type StepNotes } from './beat-summary.js';
import { STOP_REASON_TABLE, type StopReason } from './stop-reasons.js';
import { woterclipLabelStyle } from '../init/label-style.js';

// The I/O a beat's steps share: the lock's ownership rule, guarded GitHub mutations, the beat line
// and the ending results. State is passed in explicitly: the beat's summary so far (beat-summary.ts),
// and a `Beat` once it holds its lock. A dry run is the same code on read-only ports (dry-run-ports.ts).

/** A beat past step 1's lock (in a dry run: one that holds it on paper): what every later step reads. */
export interface Beat {
  readonly deps: BeatDeps;
  readonly config: WoterclipConfig;
  readonly personas: ReadonlyMap<string, LoadedPersona>;
  readonly beatId: string;
  readonly startedAtMs: number;
  /**
   * Whether step 2 cleans a stale working label. A dry run leaves it: cleaning it only on paper would
   * list the issue as free while GitHub still shows it taken. Chosen where the beat is wired.
   */
  readonly cleansStaleLabels: boolean;
}

/** How a beat ended: its result, and the summary its receipt and lock release read. */
export interface BeatEnd {
  readonly result: BeatResult;
  readonly summary: BeatSummary;
}

/** A beat that stops before its lock: one message, nothing worked. */
export function earlyStop(summary: BeatSummary, exit: BeatExit, message: string): BeatEnd {
  return { summary, result: { exit, messages: [message], warnings: summary.warnings, worked: [], suggestions: [] } };
}

const lockConflict = (summary: BeatSummary, why: string): BeatEnd => {
  const { result } = earlyStop(summary, 'lock-conflict', STOP_REASON_TABLE.lock_conflict.message);
  return { summary, result: { ...result, messages: [STOP_REASON_TABLE.lock_conflict.message, why], stopReason: 'lock_conflict' } };
};
const lockError = (summary: BeatSummary, message: string): BeatEnd =>
  earlyStop(summary, 'lock-error', `.woterclip/.heartbeat-lock: ${message}; remove the file if no heartbeat is running.`);

/** What {@link takeLock} needs. */
export interface LockRequest {
  readonly beatId: string;
  readonly startMs: number;
  /** `stale_lock_hours`: the age at which a lock whose holder this host cannot judge is stale. */
  readonly staleHours: number;
}

/** A lock taken: when the beat started (the lock's own start), and what taking it said. */
export interface LockTaken {
  readonly startedAtMs: number;
  readonly notes: StepNotes;
}

/** A lock not taken: the beat's early end, and what the slot planner is told (held, or unavailable). */
export type LockNotTaken = BeatEnd & { readonly fact: Exclude<LockFact, { kind: 'taken' }> };

/**
 * The detail of a beat's skip receipt: what it said (its messages), else its exit. Kept as the one
 * place the beat words a skipped slot.
 */
export function skipDetail(result: BeatResult): string {
  return (result.messages.join(' ') || result.exit).slice(0, 500);
}

/**
 * Step 1's lock: exclusive create, a stale lock taken over by the store (at once when its holder
 * no longer runs on this host, else after `stale_lock_hours`). Err: the beat's early end.
 */
export async function takeLock(deps: BeatDeps, request: LockRequest, summary: BeatSummary): Promise<Result<LockTaken, LockNotTaken>> {
  const staleAfterMs = request.staleHours * 3_600_000;
  const acquired = await deps.lock.acquire({ owner: request.beatId, nowMs: request.startMs, staleAfterMs });
  if (acquired.isErr()) {
    const e = acquired.error;
    if (e.kind === 'held') {
      const held = lockConflict(summary, heldReason(e.holder, e.liveness ?? 'unknown', request.staleHours));
      return err({
        ...held,
        fact: {
          kind: 'held',
          detail: skipDetail(held.result),
          holder: e.holder,
          ...(e.liveness === undefined ? {} : { liveness: e.liveness }),
        },
      });
    }
    const failed = lockError(summary, e.message);
    return err({ ...failed, fact: { kind: 'unavailable', detail: skipDetail(failed.result), error: e } });
  }
  const replaced = acquired.value.tookOverFrom;
  const notes: StepNotes =
    replaced === undefined
      ? {}
      : { messages: ['Cleaned stale lockfile.', takeOverReason(replaced, request.startMs, request.staleHours)], tookOverFrom: replaced };
  return ok({ startedAtMs: acquired.value.record.acquiredAtMs, notes });
}

/** Deletes the lock if it still carries this beat's id; run after the receipt is durable. Returns warnings. */
export async function releaseLock(deps: BeatDeps, summary: BeatSummary, beatId: string | undefined): Promise<readonly string[]> {
  if (!summary.releaseDue || beatId === undefined) return [];
  const released = await deps.lock.release(beatId);
  return released.isErr()
    ? [`.heartbeat-lock: not released (${released.error.kind === 'held' ? 'held by another beat' : released.error.message}).`]
    : [];
}

/** Whether the lock still carries this beat's id. */
export async function owns(beat: Beat): Promise<boolean> {
  const current = await beat.deps.lock.read();
  return current.isOk() && ownsLock(current.value, beat.beatId);
}

/** A tracker read, its failure as a halt. */
export async function read<T>(r: ResultAsync<T, TrackerError>): Promise<Result<T, Halt>> {
  return (await r).mapErr((e): Halt => ({ kind: 'gh-failed', message: e.message }));
}

/** Runs a GitHub mutation only while the lock is still ours. */
export async function mutate<T>(beat: Beat, op: () => ResultAsync<T, TrackerError>): Promise<Result<T, Halt>> {
  if (!(await owns(beat))) return err({ kind: 'superseded' });
  return (await op()).mapErr((e): Halt => ({ kind: 'gh-failed', message: e.message }));
}

/** One atomic label edit; a missing label is created and the same edit retried. */
export function editLabels(beat: Beat, issue: number, edit: LabelEdit): Promise<Result<void, Halt>> {
  const { tracker } = beat.deps;
  return mutate(beat, () => {
    const attempt = (tries: number): ResultAsync<void, TrackerError> =>
      tracker
        .editLabels(issue, edit)
        .orElse((e) =>
          e.kind === 'label-not-found' && tries > 0
            ? tracker.createLabel(e.label, woterclipLabelStyle(e.label, beat.config.labels)).andThen(() => attempt(tries - 1))
            : errAsync(e),
        );
    return attempt((edit.add ?? []).length);
  });
}

/** Appends an issue line; a failure is a warning (the beat line then counts one fewer). */
export async function appendIssueLine(beat: Beat, line: IssueLine): Promise<StepNotes> {
  const r = await beat.deps.log.append(line);
  return r.isErr()
    ? { warnings: [`heartbeat-log.jsonl: issue line for ${line.issue} not written (${r.error.message}).`] }
    : { recorded: 1 };
}

/** A superseded beat's end: silent, the lock is the successor's. */
function silent(beat: Beat, summary: BeatSummary): BeatEnd {
  return {
    summary,
    result: { exit: 'superseded', beatId: beat.beatId, messages: [], warnings: summary.warnings, worked: summary.worked, suggestions: [] },
  };
}

/**
 * Ends the beat with a stop reason: its beat line (unless superseded) and, by the ownership rule,
 * the lock's release after the receipt.
 */
export async function finish(
  beat: Beat,
  summary: BeatSummary,
  reason: Exclude<StopReason, 'lock_conflict'>,
  extra: readonly string[] = [],
): Promise<BeatEnd> {
  const { deps } = beat;
  if (!(await owns(beat))) return silent(beat, summary);
  const appended = await deps.log.append({
    type: 'beat',
    started_at: isoSeconds(beat.startedAtMs),
    ended_at: isoSeconds(deps.clock.now().getTime()),
    beat_elapsed_sec: elapsedSeconds(beat.startedAtMs, deps.clock.now().getTime()),
    issues_worked: summary.recorded,
    stop_reason: reason,
  });
  const ended = foldNotes(
    summary,
    appended.isErr() ? { warnings: [`heartbeat-log.jsonl: beat line not written (${appended.error.message}).`] } : {},
    { releaseDue: true },
  );
  return {
    summary: ended,
    result: {
      exit: EXIT_BY_REASON[reason],
      stopReason: reason,
      beatId: beat.beatId,
      messages: [...ended.messages, ...extra, STOP_REASON_TABLE[reason].message],
      warnings: ended.warnings,
      worked: ended.worked,
      suggestions: ended.suggestions,
    },
  };
}

/**
 * Ends a beat that halted mid-work as {@link planHalt} decides. The Board removed the working
 * label to stop the agent: nothing is posted on that issue; the beat still owns its lock, so the
 * ownership rule applies (the lock is deleted).
 */
export async function halt(beat: Beat, summary: BeatSummary, h: Halt): Promise<BeatEnd> {
  if (h.kind === 'withdrawn' && !(await owns(beat))) return silent(beat, summary);
  const plan = planHalt(h, {
    recorded: summary.recorded,
    workingLabel: beat.config.labels.working,
    staleHours: beat.config.heartbeat.stale_lock_hours,
  });
  switch (plan.kind) {
    case 'silent':
      return silent(beat, summary);
    case 'finish':
      return finish(beat, summary, plan.reason, plan.extra);
    case 'interrupted':
    case 'withdrawn': {
      // Released only if still this beat's (the ownership rule); no beat line either way.
      if (plan.kind === 'interrupted' && !(await owns(beat))) return silent(beat, summary);
      const ended = foldNotes(summary, { releaseDue: true });
      return {
        summary: ended,
        result: {
          exit: plan.kind,
          ...(h.kind === 'interrupted' && h.issue !== undefined ? { interruptedIssue: h.issue } : {}),
          beatId: beat.beatId,
          messages: [...ended.messages, plan.note],
          warnings: ended.warnings,
          worked: ended.worked,
          suggestions: [],
        },
      };
    }
  }
}
