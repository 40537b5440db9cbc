import type { PriorityClass } from '../domain/categories.js';
import type { HeartbeatConfig } from '../config/heartbeat-config-schema.js';
import { checkCategoryOf } from '../config/check-schema.js';
import type { Finding } from '../domain/finding.js';

/** What the state remembers about a delivered fingerprint (change-aware repeats). */
export interface ReportMemory {
  /** When it was last delivered (epoch ms). */
  readonly atMs: number;
  /** Content hash at that delivery; absent for memory a state version 1 brought (treated as unchanged). */
  readonly hash?: string | undefined;
  /** Deliveries of this same content after the first: 0 after a new or changed report. */
  readonly repeats: number;
}

/**
 * Whether a confirmed finding is reported this cycle: `new` (never delivered, or forgotten),
 * `changed` (its content differs from the last delivery: reported at once, whatever the schedule),
 * `due` (unchanged, and its repeat interval has passed), or held back until `dueAtMs`.
 */
export type RepeatDecision =
  { readonly report: true; readonly reason: 'new' | 'changed' | 'due' } | { readonly report: false; readonly dueAtMs: number };

/**
 * The repeat schedule of a priority class: its own `Repeat <class>:` line, else `Repeat:`, else
 * the spec's single dedup window (`Dedup window`, 30 min), which repeats for as long as the finding lasts.
 */
export function repeatScheduleOf(config: HeartbeatConfig, priority: PriorityClass): readonly number[] {
  const own = config.repeat[priority === 'Immediate' ? 'immediate' : priority === 'Advisory' ? 'advisory' : 'normal'];
  return own ?? config.repeat.all ?? [config.dedupWindowMs];
}

/**
 * The repeat schedule of one finding: its check's own `repeat:` line when a check of HEARTBEAT.md's
 * `## Checks` reports under that category, else its priority class's (see {@link repeatScheduleOf}).
 */
export function repeatScheduleFor(config: HeartbeatConfig, finding: Pick<Finding, 'category' | 'priority'>): readonly number[] {
  const own = config.checks.find((check) => check.repeat !== undefined && checkCategoryOf(check) === finding.category)?.repeat;
  return own ?? repeatScheduleOf(config, finding.priority);
}

/**
 * How long an unchanged finding waits after its delivery number `repeats + 1`: the schedule's
 * entry at that position, the last entry once the schedule is used up (it then repeats at that pace).
 */
export function repeatIntervalMs(schedule: readonly number[], repeats: number): number {
  if (schedule.length === 0) return 0;
  return schedule[Math.min(Math.max(0, Math.floor(repeats)), schedule.length - 1)] ?? 0;
}

/**
 * Decides one finding against its memory. A clock set back before the last delivery does not
 * silence a finding (the memory's time is then not to be trusted), as the dedup window never did.
 */
export function decideRepeat(
  memory: ReportMemory | undefined,
  contentHash: string,
  nowMs: number,
  schedule: readonly number[],
): RepeatDecision {
  if (memory === undefined) return { report: true, reason: 'new' };
  if (memory.hash !== undefined && memory.hash !== contentHash) return { report: true, reason: 'changed' };
  if (nowMs < memory.atMs) return { report: true, reason: 'due' };
  const dueAtMs = memory.atMs + repeatIntervalMs(schedule, memory.repeats);
  return nowMs >= dueAtMs ? { report: true, reason: 'due' } : { report: false, dueAtMs };
}

/**
 * The memory after a confirmed delivery at `atMs`: the same content counts one more repeat (so
 * the next interval is the schedule's next one), new or changed content starts the schedule over.
 */
export function rememberDelivery(memory: ReportMemory | undefined, contentHash: string, atMs: number): ReportMemory {
  const same = memory !== undefined && (memory.hash === undefined || memory.hash === contentHash);
  return { atMs, hash: contentHash, repeats: same ? memory.repeats + 1 : 0 };
}

const DAY_MS = 86_400_000;

/** At most this many delivered fingerprints are remembered; the oldest deliveries go first. */
export const MAX_REPORT_MEMORY = 5_000;

/**
 * How long the memory of a finding that is no longer seen is kept: a day, or the longest
 * configured interval when that is longer. Long enough that a night outside active hours (when
 * most scanners do not run) or a failing scanner does not restart a decayed schedule.
 */
export function reportMemoryRetentionMs(config: HeartbeatConfig): number {
  const { all, immediate, advisory, normal } = config.repeat;
  return Math.max(
    DAY_MS,
    config.dedupWindowMs,
    ...(all ?? []),
    ...(immediate ?? []),
    ...(advisory ?? []),
    ...(normal ?? []),
    ...config.checks.flatMap((check) => check.repeat ?? []),
  );
}

/** The two state records change-aware repeats keep per delivered fingerprint. */
export interface ReportMemoryRecords {
  readonly reported: Readonly<Record<string, number>>;
  readonly reportedContent: Readonly<Record<string, { readonly hash: string; readonly repeats: number }>>;
}

/** The memory of one fingerprint from the state's records; undefined when it was never delivered (or is forgotten). */
export function reportMemoryOf(records: ReportMemoryRecords, fingerprint: string): ReportMemory | undefined {
  if (!Object.hasOwn(records.reported, fingerprint)) return undefined;
  const atMs = records.reported[fingerprint];
  if (atMs === undefined) return undefined;
  const content = Object.hasOwn(records.reportedContent, fingerprint) ? records.reportedContent[fingerprint] : undefined;
  return { atMs, hash: content?.hash, repeats: content?.repeats ?? 0 };
}

/**
 * Bounds the memory: a fingerprint seen this cycle is kept whatever its age (its schedule must
 * go on), one not seen is dropped after `retentionMs`, and at most {@link MAX_REPORT_MEMORY}
 * remain (newest deliveries first). Content entries follow their `reported` entry.
 */
export function pruneReportMemory(
  records: ReportMemoryRecords,
  present: ReadonlySet<string>,
  nowMs: number,
  retentionMs: number,
): { reported: Record<string, number>; reportedContent: Record<string, { hash: string; repeats: number }> } {
  let kept = Object.entries(records.reported).filter(([fingerprint, atMs]) => present.has(fingerprint) || nowMs - atMs < retentionMs);
  if (kept.length > MAX_REPORT_MEMORY) kept = kept.sort((a, b) => b[1] - a[1]).slice(0, MAX_REPORT_MEMORY);
  const content: [string, { hash: string; repeats: number }][] = [];
  for (const [fingerprint] of kept) {
    const entry = Object.hasOwn(records.reportedContent, fingerprint) ? records.reportedContent[fingerprint] : undefined;
    if (entry !== undefined) content.push([fingerprint, { hash: entry.hash, repeats: entry.repeats }]);
  }
  // fromEntries defines own properties: a `__proto__` fingerprint stays data.
  return { reported: Object.fromEntries(kept), reportedContent: Object.fromEntries(content) };
}
