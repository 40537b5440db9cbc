import type { HolderLiveness, LockRecord } from '../ports/lock-store.js';

/**
 * What this host says about the process a lock names: the answer of `kill(pid, 0)` and, where
 * there is a `/proc`, the process's state letter and start time (field 22 of `/proc/<pid>/stat`).
 */
export interface ProcessProbe {
  /** `exists`: delivered; `gone`: ESRCH; `other-user`: EPERM (it exists, owned by someone else); `unknown`: any other failure. */
  readonly signal: 'exists' | 'gone' | 'other-user' | 'unknown';
  /** Absent without `/proc` (macOS) or when the process vanished between the two looks. */
  readonly stat?: { readonly state: string; readonly start: string };
}

/** Whether a holder's process can be judged from this host: it recorded a pid and this host's name. */
export function isJudgeableHere(record: LockRecord, selfHost: string): record is LockRecord & { readonly pid: number } {
  return record.pid !== undefined && record.host !== undefined && record.host === selfHost;
}

/**
 * The one rule for "is this lock holder alive", shared by every lock of the kit (the cycle lock,
 * WoterClip's `.heartbeat-lock`, take-over guards). Another host, or a record without pid, is
 * `unknown` (the caller falls back to the lock's age). On this host: no such process, or a zombie,
 * is `dead`; a process whose start time differs from the recorded one is another process that got
 * the pid after the holder died (pid_max is often 32768): `dead`. A live pid whose start cannot be
 * compared (no recorded start, no `/proc`) is `unknown`, so pid reuse can never pin a lock forever.
 */
export function judgeHolder(record: LockRecord, selfHost: string, probe: ProcessProbe): HolderLiveness {
  if (!isJudgeableHere(record, selfHost)) return 'unknown';
  if (probe.signal === 'gone') return 'dead';
  if (probe.signal === 'unknown') return 'unknown';
  // A zombie (killed, not yet reaped by its parent) holds nothing any more.
  if (probe.stat?.state === 'Z') return 'dead';
  if (record.processStart === undefined || probe.stat === undefined) return 'unknown';
  return probe.stat.start === record.processStart ? 'alive' : 'dead';
}
