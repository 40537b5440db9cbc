import type { HeartbeatConfig } from '../config/heartbeat-config-schema.js';
import { OUTSIDE_ACTIVE_HOURS_REASON, type ScanResult, type ScanWarning, type ScannerName } from '../domain/scan-result.js';
import type { Clock, Sleep } from '../ports/clock.js';
import type { Scanner } from '../ports/scanner.js';
import { checkNextSlice, loadSlice, type StoredSlice } from './scanner-slice.js';

/** Options of {@link runScanners}. */
export interface RunScannersOptions {
  readonly clock: Clock;
  readonly sleep: Sleep;
  readonly now: Date;
  readonly config: HeartbeatConfig;
  readonly insideActiveHours: boolean;
  /** Scanners running at once (default 8: all seven built-in ones). */
  readonly concurrency?: number;
  /** A scanner still running after this long is abandoned as `timeout` (default {@link DEFAULT_SCANNER_TIMEOUT_MS}). */
  readonly timeoutMs?: number;
  /** Scanners not to run this cycle (the circuit breaker's), with the result to report instead. */
  readonly skip?: ReadonlyMap<ScannerName, ScanResult>;
  /** The previous state's scanner slices (`HeartbeatState.scannerSlices`): each stateful scanner gets its own. */
  readonly slices?: Readonly<Record<string, StoredSlice>>;
}

/**
 * How long a scanner may run before it is abandoned as `timeout`. With the default concurrency the
 * seven built-in scanners all run at once, so it bounds a whole scan too: what a shutdown that lets
 * the scan in flight finish (a shutdown never interrupts a scan mid-way; spec 000) waits for at most.
 */
export const DEFAULT_SCANNER_TIMEOUT_MS = 30_000;

const SCAN_SETTLED = 'scan settled';

type Outcome =
  | { readonly kind: 'done'; readonly result: ScanResult }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'threw'; readonly error: unknown };

async function runOne(scanner: Scanner, options: RunScannersOptions, timeoutMs: number): Promise<ScanResult> {
  const started = options.clock.now().getTime();
  const elapsed = (): number => Math.max(0, options.clock.now().getTime() - started);
  if (!options.insideActiveHours && !scanner.runsOutsideActiveHours) {
    return { scanner: scanner.name, status: 'skipped', reason: OUTSIDE_ACTIVE_HOURS_REASON, durationMs: 0 };
  }
  const skipped = options.skip?.get(scanner.name);
  if (skipped !== undefined) return skipped;
  const controller = new AbortController();
  const timer = new AbortController();
  const stored = options.slices !== undefined && Object.hasOwn(options.slices, scanner.name) ? options.slices[scanner.name] : undefined;
  const loaded = scanner.slice === undefined ? undefined : loadSlice(scanner.name, scanner.slice, stored);
  const context = { now: options.now, config: options.config, insideActiveHours: options.insideActiveHours, signal: controller.signal };
  const scan: Promise<Outcome> = Promise.resolve()
    .then(() => scanner.scan(loaded === undefined ? context : { ...context, slice: loaded.value }))
    .then(
      (result): Outcome => ({ kind: 'done', result }),
      (error: unknown): Outcome => ({ kind: 'threw', error }),
    );
  const deadline: Promise<Outcome> = options.sleep.sleep(timeoutMs, timer.signal).then((): Outcome => ({ kind: 'timeout' }));
  const outcome = await Promise.race([scan, deadline]);
  // With a reason: a bare abort() builds a DOMException with a stack trace, ≈ 1.5 ms each in a
  // one-shot cycle's cold code (10 ms of its CPU for seven scanners); nothing reads this reason.
  timer.abort(SCAN_SETTLED);
  switch (outcome.kind) {
    case 'done':
      return withCheckedSlice(scanner, loaded?.warning, {
        ...outcome.result,
        scanner: scanner.name,
        durationMs: elapsed() || outcome.result.durationMs,
      });
    case 'threw':
      // The Scanner contract says scan never rejects; a buggy one must still not fail the cycle.
      return {
        scanner: scanner.name,
        status: 'error',
        error: outcome.error instanceof Error ? outcome.error.message : String(outcome.error),
        durationMs: elapsed(),
      };
    case 'timeout':
      controller.abort();
      return { scanner: scanner.name, status: 'timeout', timeoutMs, durationMs: elapsed() };
  }
}

/**
 * Keeps a returned slice only when it fits the scanner's own schema and bound, and says on the
 * result when the stored slice was set aside. A failed scan keeps the stored slice for the next run,
 * which will say it again: a set-aside is never silent.
 */
function withCheckedSlice(scanner: Scanner, setAside: ScanWarning | undefined, result: ScanResult): ScanResult {
  if (result.status !== 'ok') return result;
  const { slice, ...rest } = result;
  const warnings: ScanWarning[] = setAside === undefined ? [] : [setAside];
  let kept: StoredSlice | undefined;
  if (slice !== undefined && scanner.slice !== undefined) {
    const checked = checkNextSlice(scanner.name, scanner.slice, slice);
    if (checked.warning !== undefined) warnings.push(checked.warning);
    kept = checked.slice;
  }
  return { ...rest, warnings: [...rest.warnings, ...warnings], ...(kept === undefined ? {} : { slice: kept }) };
}

/**
 * Runs scanners concurrently with a bounded pool and a per-scanner timeout. Results come back
 * in the scanners' order; a scanner that throws, hangs or is not allowed outside active hours
 * yields an error, timeout or skipped result — never a failed cycle.
 */
export async function runScanners(scanners: readonly Scanner[], options: RunScannersOptions): Promise<ScanResult[]> {
  const concurrency = Math.max(1, options.concurrency ?? 8);
  const timeoutMs = options.timeoutMs ?? DEFAULT_SCANNER_TIMEOUT_MS;
  const results: ScanResult[] = new Array<ScanResult>(scanners.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < scanners.length) {
      const index = next++;
      results[index] = await runOne(scanners[index]!, options, timeoutMs);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, scanners.length) }, worker));
  return results;
}
