import { z } from 'zod';
import type { JsonValue } from '../domain/json.js';
import { findingSchema } from '../domain/finding.js';
import { MAX_BREAKERS, scannerBreakerSchema } from './scanner-breaker.js';
import { MAX_SCANNER_SLICES, storedSliceSchema } from './scanner-slice.js';
import { sinkBreakerSchema } from './sink-breaker.js';
import { recoveryMemorySchema } from './recovery-notices.js';
import { MAX_ACK_MEMORY, ackMemoryEntrySchema } from '../operator/ack-decision.js';

/**
 * The state document version this library writes. Older versions are migrated on load
 * ({@link decodeHeartbeatState}); 2 added `reportedContent` (change-aware repeats); 3 moved the
 * pane hashes, stage history and in-progress count into their scanners' slices (`scannerSlices`).
 */
export const HEARTBEAT_STATE_VERSION = 3;

// One schema per field, so a damaged document can be salvaged field by field (and entry by entry).
const count = z.number().int().nonnegative();
const RECORD_ENTRIES = {
  reported: z.number(),
  reportedContent: z.object({ hash: z.string().regex(/^[0-9a-f]{1,64}$/), repeats: count }),
  seen: z.number().int().positive(),
} as const;

/**
 * Schema of the cross-cycle memory (one versioned JSON document behind `StateStore`).
 * Times are epoch milliseconds.
 */
export const heartbeatStateSchema = z.object({
  version: z.literal(HEARTBEAT_STATE_VERSION),
  /** Number of the last evaluated cycle. */
  cycle: count,
  /** Report messages delivered so far. */
  reportsSent: count,
  /** Fingerprint → when it was last delivered. */
  reported: z.record(z.string(), RECORD_ENTRIES.reported),
  /**
   * Fingerprint → content hash at its last delivery and how many times that same content was
   * delivered again since (change-aware repeats). A fingerprint in `reported` without an entry
   * here (memory from version 1) counts as unchanged.
   */
  reportedContent: z.record(z.string(), RECORD_ENTRIES.reportedContent),
  /** Fingerprint → consecutive cycles it has been seen (hysteresis). */
  seen: z.record(z.string(), RECORD_ENTRIES.seen),
  /**
   * Scanner → its own slice (version and data), checked against the scanner's schema when it runs
   * (bounded: one per scanner, at most {@link MAX_SCANNER_SLICES}).
   */
  scannerSlices: z
    .record(z.string(), storedSliceSchema)
    .refine((value) => Object.keys(value).length <= MAX_SCANNER_SLICES, `at most ${MAX_SCANNER_SLICES} scanner slices`)
    .optional(),
  /** One-shot findings (GChat replies, pipeline finalization) not yet delivered: offered again next cycle. */
  undelivered: z.array(findingSchema).optional(),
  /** Scanner → its circuit breaker, only while it fails (bounded: one per scanner, at most {@link MAX_BREAKERS}). */
  breakers: z
    .record(z.string(), scannerBreakerSchema)
    .refine((value) => Object.keys(value).length <= MAX_BREAKERS, `at most ${MAX_BREAKERS} breakers`)
    .optional(),
  /** The sink's circuit breaker, only while deliveries fail (sink-breaker.ts). */
  sinkBreaker: sinkBreakerSchema.optional(),
  /** Per route (`--route`, `## Delivery`): its own sink breaker, only while its deliveries fail (at most one per route). */
  routeBreakers: z
    .record(z.string(), sinkBreakerSchema)
    .refine((value) => Object.keys(value).length <= 8, 'at most 8 route breakers')
    .optional(),
  /** Delivered findings watched for their recovery, and `RESOLVED:` notices not yet delivered (recovery-notices.ts). */
  recovery: recoveryMemorySchema.optional(),
  /** Fingerprint → the operator's ack that held it (operator/ack-decision.ts), only while one does. */
  acked: z
    .record(z.string(), ackMemoryEntrySchema)
    .refine((value) => Object.keys(value).length <= MAX_ACK_MEMORY, `at most ${MAX_ACK_MEMORY} acked findings`)
    .optional(),
});

/** The heartbeat's cross-cycle memory. */
export type HeartbeatState = z.infer<typeof heartbeatStateSchema>;

/** The memory of a heartbeat that has never run. */
export function initialHeartbeatState(): HeartbeatState {
  return {
    version: HEARTBEAT_STATE_VERSION,
    cycle: 0,
    reportsSent: 0,
    reported: {},
    reportedContent: {},
    seen: {},
  };
}

/**
 * What {@link decodeHeartbeatState} made of a stored document. `damage` lists what did not fit
 * (the caller keeps a copy of the original before saving over it); `newerVersion` means a newer
 * heartbeat-kit wrote it and it must not be touched (state is then the initial one, unused).
 */
export interface DecodedHeartbeatState {
  readonly state: HeartbeatState;
  readonly warnings: string[];
  /** What did not fit the schema (`field: problem`); absent when the document fitted or was absent. */
  readonly damage?: readonly string[];
  /** Set when the document's version is newer than {@link HEARTBEAT_STATE_VERSION}. */
  readonly newerVersion?: number;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function problem(error: z.ZodError): string {
  const issue = error.issues[0];
  if (issue === undefined) return 'invalid';
  const at = issue.path.length === 0 ? '' : ` at ${issue.path.join('.')}`;
  return `${issue.message}${at}`;
}

const short = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
};

type MutableState = { -readonly [K in keyof HeartbeatState]: HeartbeatState[K] };

/** The counters and the three fingerprint records, entry by entry. */
function salvageCounts(document: Record<string, unknown>, state: MutableState, damage: string[]): void {
  for (const key of ['cycle', 'reportsSent'] as const) {
    const parsed = count.safeParse(document[key]);
    if (parsed.success) state[key] = parsed.data;
    else damage.push(`${key}: ${problem(parsed.error)}`);
  }
  for (const key of Object.keys(RECORD_ENTRIES) as (keyof typeof RECORD_ENTRIES)[]) {
    const value = document[key];
    if (!isPlainObject(value)) {
      damage.push(`${key}: expected an object, got ${short(value)}`);
      continue;
    }
    const kept: [string, unknown][] = [];
    for (const [entry, item] of Object.entries(value)) {
      if (entry === '__proto__') continue; // zod's record parse drops it too: same state either way
      const parsed = RECORD_ENTRIES[key].safeParse(item);
      if (parsed.success) kept.push([entry, parsed.data]);
      else damage.push(`${key}[${short(entry)}]: ${problem(parsed.error)}`);
    }
    // fromEntries defines keys as own properties: a `__proto__` key stays data, never a prototype.
    (state as Record<string, unknown>)[key] = Object.fromEntries(kept);
  }
}

function salvageUndelivered(value: unknown, state: MutableState, damage: string[]): void {
  if (value === undefined) return;
  if (!Array.isArray(value)) {
    damage.push(`undelivered: expected an array, got ${short(value)}`);
    return;
  }
  const kept = [];
  for (const [index, item] of value.entries()) {
    const parsed = findingSchema.safeParse(item);
    if (parsed.success) kept.push(parsed.data);
    else damage.push(`undelivered.${index}: ${problem(parsed.error)}`);
  }
  if (kept.length > 0) state.undelivered = kept;
}

/** A bounded record (breakers, scanner slices, acked findings), entry by entry, at most `max` kept. */
const BOUNDED_RECORDS = {
  breakers: { schema: scannerBreakerSchema, max: MAX_BREAKERS, what: 'breakers' },
  scannerSlices: { schema: storedSliceSchema, max: MAX_SCANNER_SLICES, what: 'slices' },
  acked: { schema: ackMemoryEntrySchema, max: MAX_ACK_MEMORY, what: 'entries' },
} as const;

function salvageBounded(key: keyof typeof BOUNDED_RECORDS, value: unknown, state: MutableState, damage: string[]): void {
  if (value === undefined) return;
  if (!isPlainObject(value)) {
    damage.push(`${key}: expected an object, got ${short(value)}`);
    return;
  }
  const { schema, max, what } = BOUNDED_RECORDS[key];
  const kept: [string, unknown][] = [];
  for (const [entry, item] of Object.entries(value)) {
    if (entry === '__proto__') continue;
    const parsed = schema.safeParse(item);
    if (!parsed.success) damage.push(`${key}[${short(entry)}]: ${problem(parsed.error)}`);
    else if (kept.length >= max) damage.push(`${key}[${short(entry)}]: more than ${max} ${what}`);
    else kept.push([entry, parsed.data]);
  }
  (state as Record<string, unknown>)[key] = Object.fromEntries(kept);
}

/**
 * Keeps every field (and every record entry and undelivered finding) that fits, drops what does
 * not: one bad field must not cost the cycle counter, the dedup memory or an undelivered reply.
 */
function salvage(document: Record<string, unknown>): { state: HeartbeatState; damage: string[] } {
  const damage: string[] = [];
  const state: MutableState = initialHeartbeatState();
  if (document.version !== HEARTBEAT_STATE_VERSION)
    damage.push(`version: expected ${HEARTBEAT_STATE_VERSION}, got ${short(document.version)}`);
  salvageCounts(document, state, damage);
  salvageUndelivered(document.undelivered, state, damage);
  for (const key of ['breakers', 'scannerSlices', 'acked'] as const) salvageBounded(key, document[key], state, damage);
  if (document.sinkBreaker !== undefined) {
    const parsed = sinkBreakerSchema.safeParse(document.sinkBreaker);
    if (parsed.success) state.sinkBreaker = parsed.data;
    else damage.push(`sinkBreaker: ${problem(parsed.error)}`);
  }
  // Whole or nothing: a damaged watch loses at most recovery notices, never a report.
  for (const key of ['routeBreakers', 'recovery'] as const) {
    if (document[key] === undefined) continue;
    const parsed = heartbeatStateSchema.shape[key].safeParse(document[key]);
    if (parsed.success) (state as Record<string, unknown>)[key] = parsed.data;
    else damage.push(`${key}: ${problem(parsed.error)}`);
  }
  return { state, damage };
}

/**
 * Version 2 → 3: the memory core kept for three built-in scanners becomes their slices, in the
 * shape each scanner's schema (version 1) reads, so an upgrade loses no idle spell and re-reports
 * no finalized pipeline. The data is checked by the scanner's schema when it runs.
 */
function toScannerSlices(document: Record<string, unknown>): Record<string, unknown> {
  const { panes, pipelines, inProgressCount, ...rest } = document;
  const slices: Record<string, unknown> = isPlainObject(rest.scannerSlices) ? { ...rest.scannerSlices } : {};
  // Empty memory makes no slice. Anything else moves as it is, damaged or not: the scanner's schema
  // judges it when the scanner runs, and sets a bad one aside with a warning naming the scanner.
  const move = (scanner: string, value: unknown, data: Record<string, unknown>): void => {
    if (value === undefined || (isPlainObject(value) && Object.keys(value).length === 0) || Object.hasOwn(slices, scanner)) return;
    slices[scanner] = { version: 1, data };
  };
  // The scanner names are the built-in ones that owned this memory in version 2.
  move('idle-orchestrators', panes, { panes });
  move('pipelines', pipelines, { stages: pipelines });
  move('orchestrators', inProgressCount, { inProgressCount });
  return { ...rest, version: 3, ...(Object.keys(slices).length > 0 ? { scannerSlices: slices } : {}) };
}

/**
 * Each older version's step to the next one, applied in order on load. Version 1 → 2: no content
 * hashes yet, so every remembered delivery counts as unchanged (an upgrade re-reports nothing).
 */
const MIGRATIONS: Readonly<Record<number, (document: Record<string, unknown>) => Record<string, unknown>>> = {
  1: (document) => ({ ...document, version: 2, reportedContent: {} }),
  2: toScannerSlices,
};

function migrate(document: Record<string, unknown>): Record<string, unknown> {
  let current = document;
  for (;;) {
    const { version } = current;
    const step = typeof version === 'number' && Object.hasOwn(MIGRATIONS, version) ? MIGRATIONS[version] : undefined;
    if (step === undefined) return current;
    current = step(current);
  }
}

/**
 * Reads a stored document as heartbeat state. An older version is migrated first (version 1 gains
 * an empty `reportedContent`; version 2's pane hashes, stage history and in-progress count become
 * scanner slices). A document that fits is used as is. A newer version is flagged
 * (`newerVersion`), never downgraded. Anything else is salvaged field by
 * field, entry by entry, and its `damage` listed, so the caller can keep a copy of the original
 * before saving over it; it never fails the cycle.
 */
export function decodeHeartbeatState(stored: JsonValue | undefined): DecodedHeartbeatState {
  if (stored === undefined) return { state: initialHeartbeatState(), warnings: [] };
  if (!isPlainObject(stored)) {
    const damage = [`(root): expected an object, got ${short(stored)}`];
    return { state: initialHeartbeatState(), warnings: [`heartbeat state is not a JSON object; starting with fresh state`], damage };
  }
  const document = migrate(stored);
  const parsed = heartbeatStateSchema.safeParse(document);
  if (parsed.success) return { state: parsed.data, warnings: [] };
  const { version } = document;
  if (typeof version === 'number' && Number.isSafeInteger(version) && version > HEARTBEAT_STATE_VERSION) {
    return {
      state: initialHeartbeatState(),
      warnings: [`heartbeat state has version ${version}, newer than the version ${HEARTBEAT_STATE_VERSION} this heartbeat-kit reads`],
      newerVersion: version,
    };
  }
  const salvaged = salvage(document);
  const shown = salvaged.damage.slice(0, 3).join('; ') + (salvaged.damage.length > 3 ? `; and ${salvaged.damage.length - 3} more` : '');
  return {
    state: salvaged.state,
    warnings: [`heartbeat state does not match schema version ${HEARTBEAT_STATE_VERSION} (${shown}); kept every other field`],
    damage: salvaged.damage,
  };
}

/** The state as a plain JSON document for a `StateStore`. */
export function encodeHeartbeatState(state: HeartbeatState): JsonValue {
  return JSON.parse(JSON.stringify(state)) as JsonValue;
}
