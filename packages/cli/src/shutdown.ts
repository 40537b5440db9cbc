// No runtime import: the bin loads this module before the command, and core's index (with zod)
// would then load while Node is still loading the command (docs/performance.md).
import type { CliIo } from './io.js';

/** The signals that ask heartbeat-kit to stop. */
export type StopSignalName = 'SIGINT' | 'SIGTERM';

/**
 * A stop in two steps: the first SIGINT/SIGTERM asks to stop and lets the scan in flight finish (a
 * shutdown never interrupts a scan mid-way: spec 000's shutdown protocol), the second stops now.
 */
export interface Shutdown {
  /** Aborts at the first SIGINT/SIGTERM, with the signal's name as its reason. */
  readonly shutdownSignal: AbortSignal;
  /** Aborts at the second, with that signal's name: tools still running are killed. */
  readonly cutOffSignal: AbortSignal;
  /** A SIGINT or SIGTERM arrived. */
  readonly receive: (name: StopSignalName) => void;
  /** Stops at once, with no signal to name: the reader of stdout went away, nothing can be delivered. */
  readonly stopNow: () => void;
}

/** The bin's {@link Shutdown}; the bin feeds it the process's signals. */
export function createShutdown(): Shutdown {
  const first = new AbortController();
  const second = new AbortController();
  return {
    shutdownSignal: first.signal,
    cutOffSignal: second.signal,
    receive: (name) => (first.signal.aborted ? second : first).abort(name),
    stopNow: () => {
      first.abort();
      second.abort();
    },
  };
}

/**
 * The io a command that drains (`cycle`, `loop`) hands to its adapters: their tools and deliveries
 * stop at the cut-off, not at the first signal, so the scan in flight finishes and its report goes
 * out. An io without a separate cut-off (in-process callers, embedders) keeps cutting off at once.
 */
export function drainingIo(io: CliIo): CliIo {
  return io.cutOffSignal === undefined ? io : { ...io, shutdownSignal: io.cutOffSignal };
}

/** The stderr line of a first signal: what still runs, for how long at most, and how to stop now. */
export function drainNotice(command: string, signal: StopSignalName, scanDeadlineMs: number): string {
  const again = signal === 'SIGINT' ? 'press Ctrl-C (or send SIGINT) again' : 'send SIGTERM again';
  return (
    `heartbeat-kit ${command}: ${signal}: finishing the scan in flight (at most ${Math.ceil(scanDeadlineMs / 1000)} s) ` +
    `and delivering its report, then stopping; ${again} to stop now (the scan is then cut off: partial).\n`
  );
}

/**
 * Says on stderr, at the first SIGINT/SIGTERM, that the scan in flight finishes (within
 * `scanDeadlineMs`) and how to stop now — only when `inFlight()` holds then (a loop between cycles
 * just stops) and the stop is a drain (an io whose first signal already cuts off finishes nothing).
 */
export function announceDrain(io: CliIo, command: string, scanDeadlineMs: number, inFlight: () => boolean): void {
  const cutOff = io.cutOffSignal;
  if (cutOff === undefined) return;
  const say = (): void => {
    const reason: unknown = io.shutdownSignal.reason;
    if (cutOff.aborted || !inFlight() || (reason !== 'SIGINT' && reason !== 'SIGTERM')) return;
    io.stderr(drainNotice(command, reason, scanDeadlineMs));
  };
  // The signal may have come while Node was still loading the command.
  if (io.shutdownSignal.aborted) say();
  else io.shutdownSignal.addEventListener('abort', say, { once: true });
}
