import { readFileSync } from 'node:fs';

// Kept apart from process-liveness.ts (the locks' holder check): the spool names its writer
// synchronously, in the tick the child is spawned, so these read /proc without awaiting.

/**
 * The start mark of process `pid`: its start time in clock ticks since boot (field 22 of
 * `/proc/<pid>/stat`), read synchronously; undefined without `/proc` (macOS) or such a process.
 */
export function startMarkSync(pid: number): string | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) may hold spaces and parentheses: count fields after the last ')'.
  const start = text.slice(text.lastIndexOf(')') + 2).split(' ')[19];
  return start !== undefined && /^\d+$/.test(start) ? start : undefined;
}

// USER_HZ: the kernel reports process times to user space in these ticks on every architecture Linux runs on.
const TICKS_PER_SECOND = 100;
let bootSeconds: number | null | undefined;

/** When the process with start mark `mark` started (epoch ms), from the boot time in `/proc/stat`; undefined where unknown. */
export function startedAtMs(mark: string): number | undefined {
  if (bootSeconds === undefined) {
    try {
      const line = /^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'));
      bootSeconds = line?.[1] === undefined ? null : Number(line[1]);
    } catch {
      bootSeconds = null;
    }
  }
  return bootSeconds === null ? undefined : (bootSeconds + Number(mark) / TICKS_PER_SECOND) * 1000;
}

/** What is known of the process group a spool names as its writer, which is running. */
export interface RunningWriter {
  /** The start mark the spool's name records (absent in names written before marks were recorded). */
  readonly recordedStart?: string;
  /** The start mark of the process now holding the writer's pid (absent: the leader exited, or no `/proc`). */
  readonly currentStart?: string;
  /** When that process started (epoch ms), if known. */
  readonly currentStartedAtMs?: number;
  /** When the spool last changed (its ctime: the rename that named the writer, or the writer's last write). */
  readonly spoolChangedAtMs: number;
}

// The boot time is whole seconds and a start time 10 ms ticks: closer than this is "maybe the writer".
const CLOCK_SLACK_MS = 2000;

/**
 * Whether the running process group a spool names is still its writer, or a later process that
 * got the same pid. A pid is never reused while a group of that id exists, so a leader whose start
 * mark differs from the recorded one means the writer's group is gone: the spool can be read. A
 * name without a mark (an older version's) is judged by time: the spool was renamed after its
 * writer started and changes with every write, so a leader that started after the spool last
 * changed cannot be the writer. A group whose leader has exited still prints through its members.
 */
export function spoolWriterRuns(writer: RunningWriter): boolean {
  if (writer.currentStart === undefined) return true;
  if (writer.recordedStart !== undefined) return writer.currentStart === writer.recordedStart;
  if (writer.currentStartedAtMs === undefined) return true;
  return writer.currentStartedAtMs <= writer.spoolChangedAtMs + CLOCK_SLACK_MS;
}
