import { type CommandOutput, type CommandRequest, type CommandRunner, sanitizeForMessage, type ScanResult } from '@heartbeat-kit/core';
import { describeCommandError, type ScannerName } from '@heartbeat-kit/core/host';

/** What running one tool gave, classified the way every scanner needs it (tools.md §1). */
export type ToolOutcome =
  | { readonly kind: 'output'; readonly output: CommandOutput }
  | { readonly kind: 'missing'; readonly reason: string }
  | { readonly kind: 'failed'; readonly reason: string };

/** Adds up the time a scan spent in child processes (pure code has no clock of its own). */
export interface DurationMeter {
  ms: number;
}

/**
 * One run per cycle of a call several scanners need (`bd list --status=in_progress`, tmux's
 * `list-sessions`, `git worktree list`): callers with the same key (from the cycle's `now`)
 * share the run, and every caller's meter gets the shared run's time, because each scanner that
 * waited on it spent that time. So `durationMs` stays honest per scanner, and the durations of a
 * cycle's scanners can add up to more than the cycle's wall time. A failure is shared like a result.
 */
export function oncePerCycle<T>(
  key: (cycle: Date) => unknown,
  run: (signal: AbortSignal, meter: DurationMeter) => Promise<T>,
): (cycle: Date, signal: AbortSignal, meter: DurationMeter) => Promise<T> {
  let memo: { readonly key: unknown; readonly result: Promise<{ readonly value: T; readonly ms: number }> } | undefined;
  return async (cycle, signal, meter) => {
    const k = key(cycle);
    if (memo === undefined || memo.key !== k) {
      const own: DurationMeter = { ms: 0 };
      memo = { key: k, result: run(signal, own).then((value) => ({ value, ms: own.ms })) };
    }
    const { value, ms } = await memo.result;
    meter.ms += ms;
    return value;
  };
}

/** Runs one command and classifies it: output (any exit code), tool missing, or failed to run. */
export async function runTool(
  runner: CommandRunner,
  request: CommandRequest,
  signal: AbortSignal,
  meter: DurationMeter,
): Promise<ToolOutcome> {
  const result = await runner.run(request, signal);
  if (result.isOk()) {
    meter.ms += result.value.durationMs;
    return { kind: 'output', output: result.value };
  }
  const reason = describeCommandError(result.error);
  return result.error.kind === 'not-found' ? { kind: 'missing', reason } : { kind: 'failed', reason };
}

/** The first meaningful stderr line, sanitised, for error reasons. */
export function firstStderrLine(stderr: string): string {
  const line = stderr.split('\n').find((l) => l.trim() !== '') ?? '';
  return sanitizeForMessage(line, { maxLength: 160 });
}

/** Runs a scan body so that nothing it throws can reject: a throw becomes an error result. */
export async function guardScan(name: ScannerName, meter: DurationMeter, body: () => Promise<ScanResult>): Promise<ScanResult> {
  try {
    return await body();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { scanner: name, status: 'error', error: sanitizeForMessage(message, { maxLength: 200 }), durationMs: meter.ms };
  }
}

/** A skipped result. */
export function skipped(name: ScannerName, reason: string, meter: DurationMeter): Extract<ScanResult, { status: 'skipped' }> {
  return { scanner: name, status: 'skipped', reason, durationMs: meter.ms };
}

/** An error result. */
export function failed(name: ScannerName, error: string, meter: DurationMeter): ScanResult {
  return { scanner: name, status: 'error', error, durationMs: meter.ms };
}

/** Escapes `text` for use as a literal inside a `RegExp` (bead ids and session names hold `.`). */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Formats a duration the way report lines read: `45m`, `2h 5m`, `3d 4h`. */
export function formatAge(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h ${minutes % 60}m`;
  return `${Math.floor(hours / 24)}d ${hours % 24}h`;
}

/** How many commands one scanner runs at once (per-worktree git calls, per-session captures). */
export const PER_SCANNER_CONCURRENCY = 8;

/**
 * Maps `items` through `fn` with at most `limit` calls in flight, keeping the input order, so a
 * scanner with fifty worktrees waits for the slowest batch instead of the sum of all calls.
 */
export async function mapConcurrent<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), items.length) }, worker));
  return results;
}
