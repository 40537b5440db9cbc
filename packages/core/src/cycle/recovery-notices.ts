import { z } from 'zod';
import type { FindingCategory } from '../domain/categories.js';
import type { CategoryTable } from '../domain/category-table.js';
import type { Finding } from '../domain/finding.js';
import type { ScanResult } from '../domain/scan-result.js';

/** At most this many delivered findings are watched for a recovery; the oldest beyond it are dropped. */
export const MAX_WATCHED_RECOVERIES = 500;

const priority = z.enum(['Immediate', 'Advisory', 'Normal']);

/** A recovery decided but not yet delivered: offered with every message until one carries it. */
export const resolvedNoticeSchema = z.object({
  fingerprint: z.string().min(1),
  category: z.string().min(1),
  priority,
  /** The finding's line at its last delivery (what the operator was told). */
  line: z.string(),
});

/** One `RESOLVED:` line owed to the operator: a delivered finding that cleared. */
export type ResolvedNotice = z.infer<typeof resolvedNoticeSchema>;

const watchedSchema = z.object({
  category: z.string().min(1),
  priority,
  line: z.string(),
  /** The scanner that reported it ('' = unknown: the cycle's other scanners decide nothing about it). */
  scanner: z.string(),
  /** Consecutive looked-at cycles it was absent. */
  missing: z.number().int().nonnegative(),
  deliveredAtMs: z.number().int().nonnegative(),
});

/** A delivered finding watched for its recovery. */
export type WatchedFinding = z.infer<typeof watchedSchema>;

/** Schema of the recovery memory in the state: delivered findings watched, recoveries not yet delivered. */
export const recoveryMemorySchema = z.object({
  watched: z.record(z.string(), watchedSchema),
  pending: z.array(resolvedNoticeSchema).max(MAX_WATCHED_RECOVERIES),
});

/** The recovery memory kept across cycles. */
export type RecoveryMemory = z.infer<typeof recoveryMemorySchema>;

/** A finding left out because a source it depends on failed this cycle (inhibition). */
export interface InhibitedFinding {
  readonly finding: Finding;
  /** The failing source named in the category's `inhibitedBy`. */
  readonly by: string;
}

/**
 * The sources that failed this cycle, as `inhibitedBy` names them: scanners that errored or timed
 * out, warning codes any scanner raised, and categories with a finding this cycle.
 */
export function failingSources(results: readonly ScanResult[], candidates: readonly Finding[]): ReadonlySet<string> {
  const sources = new Set<string>();
  for (const result of results) {
    if (result.status === 'error' || result.status === 'timeout') sources.add(result.scanner);
    if (result.status === 'ok') for (const warning of result.warnings) sources.add(warning.code);
  }
  for (const finding of candidates) sources.add(finding.category);
  return sources;
}

/** The source that inhibits a category this cycle, if any (a category never inhibits itself). */
export function inhibitorOf(table: CategoryTable, category: FindingCategory, sources: ReadonlySet<string>): string | undefined {
  return table.info(category)?.inhibitedBy?.find((source) => source !== category && sources.has(source));
}

/** Splits candidates into those kept and those a failing source inhibits. */
export function applyInhibition(
  table: CategoryTable,
  candidates: readonly Finding[],
  sources: ReadonlySet<string>,
): { kept: Finding[]; inhibited: InhibitedFinding[] } {
  const kept: Finding[] = [];
  const inhibited: InhibitedFinding[] = [];
  for (const finding of candidates) {
    const by = inhibitorOf(table, finding.category, sources);
    if (by === undefined) kept.push(finding);
    else inhibited.push({ finding, by });
  }
  return { kept, inhibited };
}

/** What {@link stepRecoveries} needs to know about the cycle. */
export interface RecoveryCycle {
  readonly table: CategoryTable;
  /** Fingerprints seen this cycle, inhibited ones included (still there, only hidden). */
  readonly seen: ReadonlySet<string>;
  readonly results: readonly ScanResult[];
  readonly sources: ReadonlySet<string>;
}

/**
 * True when the cycle looked where the watched finding comes from and could have seen it: its
 * scanner ran fully (ok, no warning: a warning means it looked only in part) and no source of its
 * category failed. Whatever was not looked at does not clear.
 */
function lookedAt(entry: WatchedFinding, cycle: RecoveryCycle): boolean {
  if (inhibitorOf(cycle.table, entry.category, cycle.sources) !== undefined) return false;
  if (entry.scanner === '') return false;
  const result = cycle.results.find((r) => r.scanner === entry.scanner);
  return result !== undefined && result.status === 'ok' && result.warnings.length === 0;
}

/**
 * Steps the watch of delivered findings by one cycle: one seen again starts over; one absent from a
 * cycle that looked where it comes from counts a missing cycle, and after its category's confirm
 * cycles (the hysteresis) it becomes one pending {@link ResolvedNotice} and is no longer watched
 * (so one clear makes at most one notice). A pending notice whose finding came back is dropped.
 */
export function stepRecoveries(memory: RecoveryMemory | undefined, cycle: RecoveryCycle): RecoveryMemory {
  const watched: Record<string, WatchedFinding> = {};
  const pending = (memory?.pending ?? []).filter((notice) => !cycle.seen.has(notice.fingerprint));
  for (const [fingerprint, entry] of Object.entries(memory?.watched ?? {})) {
    if (cycle.seen.has(fingerprint)) {
      watched[fingerprint] = entry.missing === 0 ? entry : { ...entry, missing: 0 };
      continue;
    }
    if (!lookedAt(entry, cycle)) {
      watched[fingerprint] = entry;
      continue;
    }
    const missing = entry.missing + 1;
    const needed = cycle.table.info(entry.category)?.confirmCycles ?? 1;
    if (missing < needed) watched[fingerprint] = { ...entry, missing };
    else pending.push({ fingerprint, category: entry.category, priority: entry.priority, line: entry.line });
  }
  return { watched, pending: pending.slice(-MAX_WATCHED_RECOVERIES) };
}

/**
 * Records a delivery: the delivered findings whose category sends recovery notices are watched
 * (`watch` maps their fingerprint to the scanner that reported them), and the delivered notices
 * leave the pending list.
 */
export function settleRecoveries(
  memory: RecoveryMemory | undefined,
  delivered: {
    readonly findings: readonly Finding[];
    readonly watch: Readonly<Record<string, string>>;
    readonly notices: readonly ResolvedNotice[];
  },
  deliveredAtMs: number,
): RecoveryMemory {
  const watched: Record<string, WatchedFinding> = { ...(memory?.watched ?? {}) };
  for (const finding of delivered.findings) {
    if (!Object.hasOwn(delivered.watch, finding.fingerprint)) continue;
    watched[finding.fingerprint] = {
      category: finding.category,
      priority: finding.priority,
      line: finding.line,
      scanner: delivered.watch[finding.fingerprint] ?? '',
      missing: 0,
      deliveredAtMs: Math.max(0, Math.floor(deliveredAtMs)),
    };
  }
  const sent = new Set(delivered.notices.map((n) => n.fingerprint));
  const pending = (memory?.pending ?? []).filter((n) => !sent.has(n.fingerprint));
  const entries = Object.entries(watched);
  const kept =
    entries.length <= MAX_WATCHED_RECOVERIES
      ? watched
      : Object.fromEntries(entries.sort((a, b) => b[1].deliveredAtMs - a[1].deliveredAtMs).slice(0, MAX_WATCHED_RECOVERIES));
  return { watched: kept, pending };
}

/** True when the memory holds nothing (so the state can leave it out). */
export function isEmptyRecoveryMemory(memory: RecoveryMemory): boolean {
  return memory.pending.length === 0 && Object.keys(memory.watched).length === 0;
}
