import { z } from 'zod';
import type { JsonValue } from '../domain/json.js';
import type { ScanResult, ScanWarning } from '../domain/scan-result.js';
import type { ScanContext, Scanner, ScannerSliceSpec } from '../ports/scanner.js';

/** A scanner's slice as the state document keeps it: the scanner's own schema version and its data. */
export interface StoredSlice {
  readonly version: number;
  readonly data: JsonValue;
}

/** Default bound of one slice once serialised (64 KiB): memory across cycles must not grow without limit. */
export const DEFAULT_MAX_SLICE_BYTES = 64 * 1024;

/** At most this many scanners keep a slice (the state document stays bounded whatever an embedder passes). */
export const MAX_SCANNER_SLICES = 64;

/** Warning code of a stored slice that did not fit its scanner's schema (the scanner started afresh). */
export const SLICE_SET_ASIDE_CODE = 'SCANNER_SLICE_SET_ASIDE';
/** Warning code of a next slice a scanner returned that does not fit its own schema or bound (not kept). */
export const SLICE_REJECTED_CODE = 'SCANNER_SLICE_REJECTED';

const jsonValueSchema: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(jsonValueSchema), z.record(z.string(), jsonValueSchema)]),
);

/** Schema of one stored slice; the data itself is checked by the scanner's schema when the scanner runs. */
export const storedSliceSchema = z.object({ version: z.number().int().positive(), data: jsonValueSchema });

function problem(error: z.ZodError): string {
  const issue = error.issues[0];
  if (issue === undefined) return 'invalid';
  return `${issue.message}${issue.path.length === 0 ? '' : ` at ${issue.path.join('.')}`}`;
}

function bytesOf(value: unknown): number | undefined {
  const text = JSON.stringify(value) as string | undefined;
  return text === undefined ? undefined : new TextEncoder().encode(text).length;
}

/** The previous slice a scanner runs with, and why a stored one was set aside. */
export interface LoadedSlice {
  readonly value: unknown;
  readonly warning?: ScanWarning;
}

/**
 * Reads a scanner's stored slice with the scanner's own schema. An older version goes through the
 * scanner's `migrate`; one that still does not fit (or a newer version, or no migration) is set
 * aside: the scanner starts from its initial slice and the warning names it, the cycle goes on.
 */
export function loadSlice(scanner: string, spec: ScannerSliceSpec<unknown>, stored: StoredSlice | undefined): LoadedSlice {
  if (stored === undefined) return { value: spec.initial() };
  const setAside = (why: string): LoadedSlice => ({
    value: spec.initial(),
    warning: {
      code: SLICE_SET_ASIDE_CODE,
      message: `scanner ${scanner}: its saved state (version ${stored.version}) ${why}; it was set aside and the scanner started afresh`,
      fix: `nothing to do if this follows an upgrade or downgrade of ${scanner}; otherwise report it with the state file`,
    },
  });
  let data: unknown = stored.data;
  if (stored.version !== spec.version) {
    if (stored.version > spec.version || spec.migrate === undefined)
      return setAside(`is version ${stored.version} and this scanner reads version ${spec.version}`);
    data = spec.migrate(stored.version, stored.data);
  }
  const parsed = spec.schema.safeParse(data);
  if (!parsed.success) return setAside(`does not fit its schema (${problem(parsed.error)})`);
  return { value: parsed.data };
}

/**
 * Checks the next slice a scanner returned against its own schema and size bound. A slice that
 * does not fit is not kept (the previous one stays) and the warning says so; its findings still count.
 */
export function checkNextSlice(
  scanner: string,
  spec: ScannerSliceSpec<unknown>,
  next: StoredSlice,
): { readonly slice?: StoredSlice; readonly warning?: ScanWarning } {
  const reject = (why: string): { warning: ScanWarning } => ({
    warning: { code: SLICE_REJECTED_CODE, message: `scanner ${scanner}: its next state ${why}; the previous state was kept` },
  });
  if (next.version !== spec.version) return reject(`has version ${next.version}, not its declared ${spec.version}`);
  const parsed = spec.schema.safeParse(next.data);
  if (!parsed.success) return reject(`does not fit its schema (${problem(parsed.error)})`);
  const bytes = bytesOf(parsed.data);
  const max = spec.maxBytes ?? DEFAULT_MAX_SLICE_BYTES;
  if (bytes === undefined) return reject('is not JSON');
  if (bytes > max) return reject(`is ${bytes} bytes, more than its bound of ${max}`);
  return { slice: { version: spec.version, data: JSON.parse(JSON.stringify(parsed.data)) as JsonValue } };
}

/**
 * The slices to keep after a cycle: a scanner that ran (status ok) keeps what it returned; one that
 * was skipped, failed or timed out keeps its previous slice; a scanner no longer in the cycle loses
 * its slice. Bounded to {@link MAX_SCANNER_SLICES} entries.
 */
export function nextSlices(
  previous: Readonly<Record<string, StoredSlice>> | undefined,
  results: readonly ScanResult[],
): Record<string, StoredSlice> {
  const kept: [string, StoredSlice][] = [];
  for (const result of results) {
    if (kept.length >= MAX_SCANNER_SLICES) break;
    const slice =
      result.status === 'ok' && result.slice !== undefined
        ? result.slice
        : previous !== undefined && Object.hasOwn(previous, result.scanner)
          ? previous[result.scanner]
          : undefined;
    if (slice !== undefined) kept.push([result.scanner, slice]);
  }
  // fromEntries defines keys as own properties: a scanner named `__proto__` stays data.
  return Object.fromEntries(kept);
}

/** What a stateful scanner's `scan` gives back: its result and, when it ran, its next slice. */
export interface StatefulScan<S> {
  readonly result: ScanResult;
  /** The slice for the next cycle; absent keeps the previous one. Kept only with an ok result. */
  readonly next?: S;
}

/** A scanner that keeps its own typed slice of the heartbeat state across cycles. */
export interface StatefulScannerDefinition<S> {
  readonly name: Scanner['name'];
  readonly runsOutsideActiveHours: boolean;
  readonly slice: ScannerSliceSpec<S>;
  /** Like `Scanner.scan` (never rejects), with the previous slice, already validated. */
  readonly scan: (context: ScanContext, previous: S) => Promise<StatefulScan<S>>;
}

/**
 * Builds a `Scanner` with its own slice of the persisted state, typed by the zod schema it declares:
 * the cycle hands it its previous slice (validated, migrated, or its initial one) and keeps the next
 * one it returns, so a scanner can see transitions and "unchanged for N minutes" by itself.
 *
 * @example
 * ```ts
 * import { defineStatefulScanner, scanOk } from '@heartbeat-kit/core';
 * import { z } from 'zod';
 *
 * // Counts the cycles it has run; a real scanner compares what it sees with what it saw last time.
 * const counter = defineStatefulScanner({
 *   name: 'counter',
 *   runsOutsideActiveHours: false,
 *   slice: { version: 1, schema: z.object({ runs: z.number() }), initial: () => ({ runs: 0 }) },
 *   scan: (_context, previous) => Promise.resolve({ result: scanOk('counter', {}), next: { runs: previous.runs + 1 } }),
 * });
 * ```
 */
export function defineStatefulScanner<S>(definition: StatefulScannerDefinition<S>): Scanner {
  const { slice } = definition;
  return {
    name: definition.name,
    runsOutsideActiveHours: definition.runsOutsideActiveHours,
    slice,
    scan: async (context) => {
      // runScanners passes a validated slice; a direct caller (a test) may pass none or anything.
      const parsed = slice.schema.safeParse(context.slice);
      const previous = parsed.success ? parsed.data : slice.initial();
      const { result, next } = await definition.scan(context, previous);
      if (result.status !== 'ok' || next === undefined) return result;
      return { ...result, slice: { version: slice.version, data: next as unknown as JsonValue } };
    },
  };
}
