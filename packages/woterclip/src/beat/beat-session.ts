import { type LockError, type LockRecord } from '@heartbeat-kit/core';
import { decideAcquire, ownsLock, type BreakerSettings, type HolderLiveness } from '@heartbeat-kit/core/host';
import { err, errAsync, ok, type Result, type ResultAsync } from 'neverthrow';
import type { WoterclipConfig } from '../config/woterclip-config.js';
import { heldReason, takeOverReason } from '../lock/lock-holder.js';
import type { IssueLine } from '../log/log-lines.js';
import type { LabelEdit, TrackerError } from '../ports/issue-tracker.js';
import { EXIT_BY_REASON, elapsedSeconds, isoSeconds, planHalt, type Halt } from './beat-plan.js';
import type { DispatchVerdict } from './dispatch-breaker.js';
import type { BeatDeps, BeatExit, BeatResult, LoadedPersona, WorkedIssue } from './beat-types.js';
import { STOP_REASON_TABLE, type StopReason } from './stop-reasons.js';

// The I/O a beat's steps share: the lock's ownership rule, guarded GitHub mutations, the beat line
// and the ending results. State is passed in explicitly: a `Tally` of what the beat did so far,
// and a `Beat` once it holds its lock.

/** What a beat has done so far: its steps add to it, its result and its receipt read it. */
export interface Tally {
  readonly warnings: string[];
  readonly messages: string[];
  readonly worked: WorkedIssue[];
  readonly suggestions: string[];
  readonly verdicts: DispatchVerdict[];
  /**
   * Issue lines this beat wrote: the beat line's `issues_worked` counts what the beat recorded, so
   * the log never shows a died beat when GitHub failed after an issue line was written.
   */
  recorded: number;
  /** The beat owns the lock at its exit: the ownership rule deletes it after the receipt. */
  releaseDue: boolean;
  reportNotPosted?: number;
  tookOverFrom?: LockRecord;
  /** The dispatch breaker's settings: the deps' override, else the config's. */
  settings: BreakerSettings;
}

/** A beat past step 1's lock (in a dry run: one that found no live lock): what every later step reads. */
export interface Beat {
  readonly deps: BeatDeps;
  /** A dry run changes nothing and records nothing on every path. */
  readonly dryRun: boolean;
  readonly config: WoterclipConfig;
  readonly personas: ReadonlyMap<string, LoadedPersona>;
  readonly beatId: string;
  readonly startedAtMs: number;
  readonly tally: Tally;
}

/** A fresh tally. */
export function newTally(settings: BreakerSettings): Tally {
  return { warnings: [], messages: [], worked: [], suggestions: [], verdicts: [], recorded: 0, releaseDue: false, settings };
}

/** A beat that stops before its lock: one message, nothing worked. */
export function earlyStop(tally: Tally, exit: BeatExit, message: string): BeatResult {
  return { exit, messages: [message], warnings: tally.warnings, worked: [], suggestions: [] };
}

const lockConflict = (tally: Tally, why: string): BeatResult => ({
  ...earlyStop(tally, 'lock-conflict', STOP_REASON_TABLE.lock_conflict.message),
  messages: [STOP_REASON_TABLE.lock_conflict.message, why],
  stopReason: 'lock_conflict',
});
const lockError = (tally: Tally, message: string): BeatResult =>
  earlyStop(tally, 'lock-error', `.woterclip/.heartbeat-lock: ${message}; remove the file if no heartbeat is running.`);

/** What {@link takeLock} needs. */
export interface LockRequest {
  readonly dryRun: boolean;
  readonly beatId: string;
  readonly startMs: number;
  /** `stale_lock_hours`: the age at which a lock whose holder this host cannot judge is stale. */
  readonly staleHours: number;
}

/** What a dry run sees: the holder and its liveness (a store without `inspect`: unknown, the age decides). */
async function inspectLock(
  deps: BeatDeps,
): Promise<Result<{ readonly holder: LockRecord; readonly liveness: HolderLiveness } | undefined, string>> {
  const message = (e: LockError): string => (e.kind === 'held' ? 'held by another beat' : e.message);
  if (deps.lock.inspect !== undefined) return (await deps.lock.inspect()).mapErr(message);
  const read = await deps.lock.read();
  return read.map((holder) => (holder === undefined ? undefined : { holder, liveness: 'unknown' as const })).mapErr(message);
}

/**
 * Step 1's lock: exclusive create, a stale lock taken over by the store (at once when its holder
 * no longer runs on this host, else after `stale_lock_hours`). A dry run only reads it, judging
 * the holder as a real beat would. Ok: when the beat started (the lock's own start); err: the
 * beat's early end.
 */
export async function takeLock(deps: BeatDeps, request: LockRequest, tally: Tally): Promise<Result<number, BeatResult>> {
  const staleAfterMs = request.staleHours * 3_600_000;
  if (request.dryRun) {
    const current = await inspectLock(deps);
    if (current.isErr()) return err(lockError(tally, current.error));
    if (current.value !== undefined) {
      const { holder, liveness } = current.value;
      if (decideAcquire(holder, { owner: request.beatId, nowMs: request.startMs, staleAfterMs }, liveness) !== 'take-over')
        return err(lockConflict(tally, heldReason(holder, liveness, request.staleHours)));
      tally.messages.push(
        `Dry run: a real beat would clean the stale lockfile. ${takeOverReason(holder, request.startMs, request.staleHours)}`,
      );
    }
    return ok(request.startMs);
  }
  const acquired = await deps.lock.acquire({ owner: request.beatId, nowMs: request.startMs, staleAfterMs });
  if (acquired.isErr()) {
    const e = acquired.error;
    return err(
      e.kind === 'held'
        ? lockConflict(tally, heldReason(e.holder, e.liveness ?? 'unknown', request.staleHours))
        : lockError(tally, e.message),
    );
  }
  const replaced = acquired.value.tookOverFrom;
  if (replaced !== undefined) {
    tally.messages.push('Cleaned stale lockfile.', takeOverReason(replaced, request.startMs, request.staleHours));
    tally.tookOverFrom = replaced;
  }
  return ok(acquired.value.record.acquiredAtMs);
}

/** Deletes the lock if it still carries this beat's id; run after the receipt is durable. Returns warnings. */
export async function releaseLock(deps: BeatDeps, tally: Tally, beatId: string | undefined): Promise<readonly string[]> {
  if (!tally.releaseDue || beatId === undefined) return [];
  const released = await deps.lock.release(beatId);
  return released.isErr()
    ? [`.heartbeat-lock: not released (${released.error.kind === 'held' ? 'held by another beat' : released.error.message}).`]
    : [];
}

/** Whether the lock still carries this beat's id (always, in a dry run, which took none). */
export async function owns(beat: Beat): Promise<boolean> {
  if (beat.dryRun) return true;
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
          e.kind === 'label-not-found' && tries > 0 ? tracker.createLabel(e.label).andThen(() => attempt(tries - 1)) : errAsync(e),
        );
    return attempt((edit.add ?? []).length);
  });
}

/** Appends an issue line; a failure is a warning (the beat line then counts one fewer). */
export async function appendIssueLine(beat: Beat, line: IssueLine): Promise<void> {
  const r = await beat.deps.log.append(line);
  if (r.isErr()) beat.tally.warnings.push(`heartbeat-log.jsonl: issue line for ${line.issue} not written (${r.error.message}).`);
  else beat.tally.recorded += 1;
}

/** A superseded beat's end: silent, the lock is the successor's. */
function silent(beat: Beat): BeatResult {
  return {
    exit: 'superseded',
    beatId: beat.beatId,
    messages: [],
    warnings: beat.tally.warnings,
    worked: beat.tally.worked,
    suggestions: [],
  };
}

/** The ownership rule: delete the lock only while it still carries this beat's id (done after the receipt). */
function releaseOwnLock(beat: Beat): void {
  if (!beat.dryRun) beat.tally.releaseDue = true;
}

/**
 * Ends the beat with a stop reason: its beat line (unless superseded or a dry run) and the lock's
 * release after the receipt.
 */
export async function finish(beat: Beat, reason: Exclude<StopReason, 'lock_conflict'>, extra: readonly string[] = []): Promise<BeatResult> {
  const { deps, tally } = beat;
  const info = STOP_REASON_TABLE[reason];
  if (beat.dryRun)
    return {
      exit: EXIT_BY_REASON[reason],
      stopReason: reason,
      messages: [...tally.messages, ...extra, info.message, 'Dry run: nothing was changed or recorded.'],
      warnings: tally.warnings,
      worked: tally.worked,
      suggestions: tally.suggestions,
    };
  if (!(await owns(beat))) return silent(beat);
  const appended = await deps.log.append({
    type: 'beat',
    started_at: isoSeconds(beat.startedAtMs),
    ended_at: isoSeconds(deps.clock.now().getTime()),
    beat_elapsed_sec: elapsedSeconds(beat.startedAtMs, deps.clock.now().getTime()),
    issues_worked: tally.recorded,
    stop_reason: reason,
  });
  if (appended.isErr()) tally.warnings.push(`heartbeat-log.jsonl: beat line not written (${appended.error.message}).`);
  releaseOwnLock(beat);
  return {
    exit: EXIT_BY_REASON[reason],
    stopReason: reason,
    beatId: beat.beatId,
    messages: [...tally.messages, ...extra, info.message],
    warnings: tally.warnings,
    worked: tally.worked,
    suggestions: tally.suggestions,
  };
}

/**
 * Ends a beat that halted mid-work as {@link planHalt} decides. The Board removed the working
 * label to stop the agent: nothing is posted on that issue; the beat still owns its lock, so the
 * ownership rule applies (the lock is deleted).
 */
export async function halt(beat: Beat, h: Halt): Promise<BeatResult> {
  if (h.kind === 'withdrawn' && !(await owns(beat))) return silent(beat);
  const plan = planHalt(h, {
    recorded: beat.tally.recorded,
    workingLabel: beat.config.labels.working,
    staleHours: beat.config.heartbeat.stale_lock_hours,
  });
  switch (plan.kind) {
    case 'silent':
      return silent(beat);
    case 'finish':
      return finish(beat, plan.reason, plan.extra);
    case 'interrupted':
    case 'withdrawn': {
      // Released only if still this beat's (the ownership rule); no beat line either way.
      if (plan.kind === 'interrupted' && !(await owns(beat))) return silent(beat);
      releaseOwnLock(beat);
      const { tally } = beat;
      return {
        exit: plan.kind,
        ...(h.kind === 'interrupted' && h.issue !== undefined ? { interruptedIssue: h.issue } : {}),
        beatId: beat.beatId,
        messages: [...tally.messages, plan.note],
        warnings: tally.warnings,
        worked: tally.worked,
        suggestions: [],
      };
    }
  }
}
