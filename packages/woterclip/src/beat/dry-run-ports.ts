import type { LockRecord, LockStore, ReceiptStore } from '@heartbeat-kit/core';
import { decideAcquire } from '@heartbeat-kit/core/host';
import { errAsync, okAsync, type ResultAsync } from 'neverthrow';
import { takeOverReason } from '../lock/lock-holder.js';
import type { BeatLog } from '../ports/beat-log.js';
import type { IssueTracker } from '../ports/issue-tracker.js';
import type { BeatDeps, BeatResult } from './beat-types.js';
import type { StopReason } from './stop-reasons.js';

// A dry run is the same beat on read-only ports, chosen once at wiring (runBeat): reads go through,
// writes are answered "ok" without being made. The steps do not know they rehearse.

/** Says what a real beat would have done at a write the rehearsal did not make. */
export type WouldSay = (line: string) => void;

/**
 * The tracker with its writes refused politely: reads go to GitHub, every label edit, comment,
 * close or new issue says what a real beat would do and answers ok without calling GitHub.
 */
export function readOnlyIssueTracker(tracker: IssueTracker, would: WouldSay): IssueTracker {
  const wrote = <T>(line: string, value: T): ResultAsync<T, never> => {
    would(`Dry run: a real beat would ${line}.`);
    return okAsync(value);
  };
  const labels = (edit: { readonly add?: readonly string[]; readonly remove?: readonly string[] }): string =>
    [...(edit.add ?? []).map((l) => `+${l}`), ...(edit.remove ?? []).map((l) => `-${l}`)].join(' ');
  return {
    authStatus: tracker.authStatus,
    listInbox: tracker.listInbox,
    viewIssue: tracker.viewIssue,
    viewLabels: tracker.viewLabels,
    listLabels: tracker.listLabels,
    listSubIssues: tracker.listSubIssues,
    issueId: tracker.issueId,
    editLabels: (issue, edit) => wrote(`edit the labels of #${issue} (${labels(edit)})`, undefined),
    createLabel: (name) => wrote(`create the label ${name}`, undefined),
    comment: (issue) => wrote(`comment on #${issue}`, {}),
    close: (issue) => wrote(`close #${issue}`, undefined),
    // No issue is created: number 0 names none, and nothing is attached to it.
    createIssue: (issue) => wrote(`create the issue "${issue.title}"`, { number: 0 }),
    addSubIssue: (parent) => wrote(`attach a sub-issue to #${parent}`, undefined),
  };
}

/**
 * The beat log, read as it is; its appends are made nowhere (the dry run's closing line, "nothing
 * was changed or recorded", says so once for every line).
 */
export function readOnlyBeatLog(log: BeatLog): BeatLog {
  return { read: log.read, append: () => okAsync(undefined) };
}

/** The receipts, listed as they are; a rehearsal leaves none. */
export function readOnlyReceiptStore(store: ReceiptStore): ReceiptStore {
  return { list: store.list, append: () => okAsync(undefined) };
}

/**
 * The lock, judged but never taken: `acquire` reads the holder (with its liveness when the store
 * can tell) and answers as the real store would — held, or taken (a stale holder is reported as
 * what a real beat would clean, not replaced). The rehearsal then holds the lock on paper: `read`
 * returns it until `release`, so the beat's ownership checks pass without a file being written.
 */
export function readOnlyLockStore(lock: LockStore, would: WouldSay): LockStore {
  let onPaper: LockRecord | undefined;
  const inspect = (): ResultAsync<{ readonly holder: LockRecord; readonly liveness: 'alive' | 'dead' | 'unknown' } | undefined, string> => {
    const message = (e: { readonly kind: string; readonly message?: string }): string =>
      e.kind === 'held' ? 'held by another beat' : (e.message ?? e.kind);
    if (lock.inspect !== undefined) return lock.inspect().mapErr(message);
    return lock
      .read()
      .map((holder) => (holder === undefined ? undefined : { holder, liveness: 'unknown' as const }))
      .mapErr(message);
  };
  return {
    ...(lock.inspect === undefined ? {} : { inspect: lock.inspect }),
    read: () => (onPaper === undefined ? lock.read() : okAsync(onPaper)),
    acquire: (request) =>
      inspect()
        .mapErr((message) => ({ kind: 'io' as const, message }))
        .andThen((current) => {
          if (current !== undefined) {
            const { holder, liveness } = current;
            if (decideAcquire(holder, request, liveness) !== 'take-over') return errAsync({ kind: 'held' as const, holder, liveness });
            would(
              `Dry run: a real beat would clean the stale lockfile. ${takeOverReason(holder, request.nowMs, request.staleAfterMs / 3_600_000)}`,
            );
          }
          onPaper = { owner: request.owner, acquiredAtMs: request.nowMs };
          return okAsync({ kind: 'acquired' as const, record: onPaper });
        }),
    release: (owner) => {
      const mine = onPaper?.owner === owner;
      if (mine) onPaper = undefined;
      return okAsync(mine ? ('released' as const) : ('not-owner' as const));
    },
  };
}

/** A beat's ports for a dry run, and the lines its refused writes said. */
export interface Rehearsal {
  readonly deps: BeatDeps;
  /** What a real beat would have done, in order (read after the beat). */
  readonly said: readonly string[];
}

/** The read-only ports of a dry run, chosen once where the beat is wired. */
export function rehearsal(deps: BeatDeps): Rehearsal {
  const said: string[] = [];
  const would: WouldSay = (line) => said.push(line);
  return {
    deps: {
      ...deps,
      tracker: readOnlyIssueTracker(deps.tracker, would),
      lock: readOnlyLockStore(deps.lock, would),
      log: readOnlyBeatLog(deps.log),
      ...(deps.receipts === undefined ? {} : { receipts: readOnlyReceiptStore(deps.receipts) }),
    },
    said,
  };
}

/**
 * A dry run's result as the operator reads it: what a real beat would have done first, and a beat
 * that ended with a stop reason says that nothing was changed or recorded (it has no beat id: it
 * took no lock).
 */
export function rehearsedResult(result: BeatResult, said: readonly string[]): BeatResult {
  const messages = [...said, ...result.messages];
  const reason: StopReason | undefined = result.stopReason;
  if (reason === undefined || reason === 'lock_conflict') return { ...result, messages };
  const { beatId: _tookNoLock, ...rest } = result;
  return { ...rest, messages: [...messages, 'Dry run: nothing was changed or recorded.'] };
}
