import { readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { isJudgeableHere, judgeHolder, type ProcessProbe } from '../lock/holder-liveness.js';
import type { HolderLiveness, LockRecord } from '../ports/lock-store.js';
import { errorCode } from './durable-fs.js';

/** Who this process is, as a lock records it. */
export interface ProcessIdentity {
  readonly pid: number;
  readonly host: string;
  /** See {@link processStartMark}; absent where the platform cannot tell. */
  readonly processStart?: string;
}

/**
 * The start time of process `pid` in clock ticks since boot (field 22 of `/proc/<pid>/stat`),
 * or undefined when there is no `/proc` (macOS) or no such process. A pid that comes back with
 * a different start mark belongs to another process: the original holder is dead.
 */
export async function processStartMark(pid: number): Promise<string | undefined> {
  return (await procStat(pid))?.start;
}

async function procStat(pid: number): Promise<{ readonly state: string; readonly start: string } | undefined> {
  let text: string;
  try {
    text = await readFile(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) may hold spaces and parentheses: count fields after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const [state, start] = [fields[0], fields[19]];
  return state !== undefined && start !== undefined && /^\d+$/.test(start) ? { state, start } : undefined;
}

/** This process's identity: pid, host name and start mark. */
export async function currentProcessIdentity(): Promise<ProcessIdentity> {
  const start = await processStartMark(process.pid);
  return { pid: process.pid, host: hostname(), ...(start === undefined ? {} : { processStart: start }) };
}

/**
 * Looks at process `pid` on this host: `kill(pid, 0)` and `/proc/<pid>/stat`. Sends no signal.
 */
async function probeProcess(pid: number): Promise<ProcessProbe> {
  let signal: ProcessProbe['signal'] = 'exists';
  try {
    process.kill(pid, 0);
  } catch (error) {
    const code = errorCode(error);
    signal = code === 'ESRCH' ? 'gone' : code === 'EPERM' ? 'other-user' : 'unknown';
  }
  if (signal === 'gone' || signal === 'unknown') return { signal };
  const stat = await procStat(pid);
  return stat === undefined ? { signal } : { signal, stat };
}

/**
 * Judges a lock holder from this host by the locks' one rule (`judgeHolder`, lock/holder-liveness.ts:
 * pid, host and process start time): another host, or a record without pid, is `unknown` and the caller falls back to the
 * lock's age; on this host a holder that no longer runs, or whose pid now belongs to a younger
 * process, is `dead`. Only a holder on this host is probed.
 */
export async function holderLiveness(record: LockRecord, self: ProcessIdentity): Promise<HolderLiveness> {
  if (!isJudgeableHere(record, self.host)) return 'unknown';
  return judgeHolder(record, self.host, await probeProcess(record.pid));
}

/**
 * Whether any process of group `pgid` still runs on this host (a runner's child leads its own
 * group, so its grandchildren count too). A leader that is a zombie counts as gone: nobody reaps
 * an orphan in some containers, and a zombie writes nothing.
 */
export async function processGroupAlive(pgid: number): Promise<boolean> {
  if (!groupSignalable(pgid)) return false;
  const leader = await procStat(pgid);
  // A zombie leader reaped between the two looks left no stat: ask the group again instead of
  // taking a vanished leader for a live one (a killed poller's spool then waited one cycle more).
  if (leader === undefined) return groupSignalable(pgid);
  return leader.state !== 'Z';
}

/** Whether signal 0 reaches group `pgid` (any member, zombies included); EPERM counts as there. */
function groupSignalable(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return errorCode(error) !== 'ESRCH';
  }
}
