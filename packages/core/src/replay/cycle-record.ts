import { err, ok, type Result } from 'neverthrow';
import { z } from 'zod';
import { heartbeatConfigSchema } from '../config/heartbeat-config-schema.js';
import { categoryTableFingerprint } from '../domain/category-fingerprint.js';
import { OPEN_CATEGORIES, type CategoryTable } from '../domain/category-table.js';
import type { JsonValue } from '../domain/json.js';
import type { ScanResult } from '../domain/scan-result.js';
import { evaluateCycle, type CycleContext, type CycleDecision } from '../cycle/evaluate-cycle.js';
import { decodeHeartbeatState, type HeartbeatState } from '../cycle/heartbeat-state.js';

/** One recorded cycle: the inputs of `evaluateCycle` and the decision it gave. */
export interface CycleRecord {
  readonly version: 1;
  readonly state: HeartbeatState;
  readonly scanResults: readonly ScanResult[];
  readonly context: {
    readonly now: string;
    readonly config: z.input<typeof heartbeatConfigSchema>;
    readonly timeZone: string;
    readonly insideActiveHours: boolean;
    readonly operatorLastActiveAt: string | null;
    /**
     * Fingerprint of the category table that decided (see `categoryTableFingerprint`); absent in
     * recordings made before tables were recorded, which replay as if the replay's table decided.
     */
    readonly categories?: string;
  };
  readonly decision: CycleDecision;
}

// A recording carries the host's config sections' keys too (gitStaleMs, …); only core's keys decide a cycle.
const recordedConfigSchema = heartbeatConfigSchema.loose();

const recordSchema = z.object({
  version: z.literal(1),
  // Decoded with the state's own reader below, so a recording made by an older version replays.
  state: z.looseObject({}),
  // Scan results are replayed as recorded; their shape is checked by evaluateCycle's use.
  scanResults: z.array(z.looseObject({ scanner: z.string(), status: z.enum(['ok', 'skipped', 'error', 'timeout']) })),
  context: z.object({
    now: z.iso.datetime(),
    config: recordedConfigSchema,
    timeZone: z.string(),
    insideActiveHours: z.boolean(),
    operatorLastActiveAt: z.iso.datetime().nullable(),
    categories: z
      .string()
      .regex(/^ct-[0-9a-f]{1,64}$/)
      .optional(),
  }),
  decision: z.looseObject({ cycle: z.number() }),
});

/** Builds the record of one evaluated cycle (one JSONL line once stringified). */
export function createCycleRecord(
  state: HeartbeatState,
  scanResults: readonly ScanResult[],
  context: CycleContext,
  decision: CycleDecision,
): CycleRecord {
  return {
    version: 1,
    state,
    scanResults,
    context: {
      now: context.now.toISOString(),
      config: context.config,
      timeZone: context.timeZone,
      insideActiveHours: context.insideActiveHours,
      operatorLastActiveAt: context.operatorLastActiveAt?.toISOString() ?? null,
      categories: categoryTableFingerprint(context.categories ?? OPEN_CATEGORIES),
    },
    decision,
  };
}

/** A recorded decision that replaying did not reproduce. */
export interface ReplayMismatch {
  /** 1-based line of the JSONL input. */
  readonly line: number;
  readonly cycle: number;
  /** JSON paths where the recorded and replayed decisions differ. */
  readonly paths: readonly string[];
}

/** A line that is not a valid record. */
export interface ReplayLineError {
  readonly line: number;
  readonly message: string;
}

/** Records a replay did not compare because another category table decided them. */
export interface ReplayOtherTable {
  /** How many records. */
  readonly count: number;
  /** 1-based line of the first one. */
  readonly firstLine: number;
  /** The fingerprints they recorded, each once. */
  readonly recorded: readonly string[];
  /** The fingerprint of the table this replay used. */
  readonly replayed: string;
}

/** The result of replaying a recording. */
export interface ReplayReport {
  /** Valid records, compared or not. */
  readonly total: number;
  readonly matched: number;
  readonly mismatches: readonly ReplayMismatch[];
  readonly errors: readonly ReplayLineError[];
  /**
   * Present when some records were decided by another category table than the replay's: those are
   * not compared (every difference would be the tables'), and are neither matched nor mismatched.
   */
  readonly otherTable?: ReplayOtherTable;
}

/** Options of {@link replayCycleRecords}. */
export interface ReplayOptions {
  /** The category table to replay with (the one the recording's runner used); default `OPEN_CATEGORIES`. */
  readonly categories?: CategoryTable;
}

function diffPaths(a: JsonValue | undefined, b: JsonValue | undefined, path: string, out: string[]): void {
  if (out.length >= 20) return;
  if (a === b) return;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) {
    out.push(path || '(root)');
    return;
  }
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) {
    diffPaths((a as Record<string, JsonValue>)[key], (b as Record<string, JsonValue>)[key], path ? `${path}.${key}` : key, out);
  }
}

function toJson(value: unknown): JsonValue {
  return JSON.parse(JSON.stringify(value)) as JsonValue;
}

/** Parses one JSONL line into a record, or says why it is not one. */
export function parseCycleRecord(line: string): Result<CycleRecord, string> {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch (error) {
    return err(`not JSON: ${(error as Error).message}`);
  }
  const parsed = recordSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return err(`not a cycle record: ${issue ? `${issue.path.join('.')}: ${issue.message}` : 'invalid'}`);
  }
  const state = decodeHeartbeatState(parsed.data.state as JsonValue);
  if (state.newerVersion !== undefined || state.damage !== undefined) return err(`not a cycle record: state: ${state.warnings.join('; ')}`);
  return ok({ ...(raw as CycleRecord), state: state.state });
}

/**
 * Re-runs every recorded cycle through `evaluateCycle` with `options.categories` and compares its
 * decision with the recorded one. A record that names another category table than the replay's is
 * counted in `otherTable`, not compared. Blank lines are skipped; a torn last line counts as an
 * error, not a crash.
 */
export function replayCycleRecords(jsonl: string, options: ReplayOptions = {}): ReplayReport {
  const table = options.categories ?? OPEN_CATEGORIES;
  const replayed = categoryTableFingerprint(table);
  const mismatches: ReplayMismatch[] = [];
  const errors: ReplayLineError[] = [];
  const otherTables = new Set<string>();
  let otherCount = 0;
  let otherFirstLine = 0;
  let total = 0;
  let matched = 0;
  jsonl.split('\n').forEach((text, index) => {
    if (text.trim() === '') return;
    const parsed = parseCycleRecord(text);
    if (parsed.isErr()) {
      errors.push({ line: index + 1, message: parsed.error });
      return;
    }
    total++;
    const record = parsed.value;
    const recordedTable = record.context.categories;
    if (recordedTable !== undefined && recordedTable !== replayed) {
      otherTables.add(recordedTable);
      if (otherCount++ === 0) otherFirstLine = index + 1;
      return;
    }
    const paths = replayDifferences(record, table);
    if (paths.length === 0) matched++;
    else mismatches.push({ line: index + 1, cycle: record.decision.cycle, paths });
  });
  return {
    total,
    matched,
    mismatches,
    errors,
    ...(otherCount === 0 ? {} : { otherTable: { count: otherCount, firstLine: otherFirstLine, recorded: [...otherTables], replayed } }),
  };
}

/** Re-evaluates one record under `table`; the JSON paths where the decision differs from the recorded one. */
function replayDifferences(record: CycleRecord, table: CategoryTable): string[] {
  const context: CycleContext = {
    now: new Date(record.context.now),
    config: recordedConfigSchema.parse(record.context.config),
    timeZone: record.context.timeZone,
    insideActiveHours: record.context.insideActiveHours,
    operatorLastActiveAt: record.context.operatorLastActiveAt === null ? undefined : new Date(record.context.operatorLastActiveAt),
    categories: table,
  };
  const { decision } = evaluateCycle(record.state, record.scanResults, context);
  const paths: string[] = [];
  diffPaths(toJson(record.decision), asRecorded(record.decision, decision), '', paths);
  return paths;
}

/**
 * The replayed decision as JSON, without what the recording's version did not put in a message:
 * a recording made before messages carried per-finding ids (`message.findings`) replays as a match.
 */
function asRecorded(recorded: CycleDecision, replayed: CycleDecision): JsonValue {
  // A recording is untrusted JSON: its message may be anything.
  const recordedMessage: unknown = recorded.message;
  if (replayed.message === null || typeof recordedMessage !== 'object' || recordedMessage === null || 'findings' in recordedMessage)
    return toJson(replayed);
  const { findings: _dropped, ...message } = replayed.message;
  return toJson({ ...replayed, message });
}
