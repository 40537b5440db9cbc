import { readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
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
 * Judges a lock holder from this host. Another host, or a record without pid, is `unknown` (the
 * caller falls back to the lock's age). `kill(pid, 0)` failing with ESRCH is `dead`; EPERM means
 * the process exists under another user. A recorded start mark that no longer matches means the
 * pid was reused: `dead`. A live pid without a start mark to compare is `unknown`, so pid reuse
 * on a platform without `/proc` can never pin a lock forever.
 */
export async function holderLiveness(record: LockRecord, self: ProcessIdentity): Promise<HolderLiveness> {
  if (record.pid === undefined || record.host === undefined || record.host !== self.host) return 'unknown';
  try {
    process.kill(record.pid, 0);
  } catch (error) {
    if (errorCode(error) === 'ESRCH') return 'dead';
    if (errorCode(error) !== 'EPERM') return 'unknown';
  }
  const now = await procStat(record.pid);
  // A zombie (killed, not yet reaped by its parent) holds nothing any more.
  if (now?.state === 'Z') return 'dead';
  if (record.processStart === undefined || now === undefined) return 'unknown';
  return now.start === record.processStart ? 'alive' : 'dead';
}

/**
 * Whether any process of group `pgid` still runs on this host (a runner's child leads its own
 * group, so its grandchildren count too). A leader that is a zombie counts as gone: nobody reaps
 * an orphan in some containers, and a zombie writes nothing.
 */
export async function processGroupAlive(pgid: number): Promise<boolean> {
  try {
    process.kill(-pgid, 0);
  } catch (error) {
    return errorCode(error) !== 'ESRCH';
  }
  return (await procStat(pgid))?.state !== 'Z';
}
