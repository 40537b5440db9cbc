import { z } from 'zod';
import { isStopReason, type StopReason } from '../beat/stop-reasons.js';

/** Issue statuses as logged (`in progress` is logged `in_progress`). */
export const ISSUE_STATUSES = ['in_progress', 'completed', 'blocked', 'triaged', 'decomposed'] as const;

/** One of {@link ISSUE_STATUSES}. */
export type IssueStatus = (typeof ISSUE_STATUSES)[number];

/** One issue worked (reference §7). `duration_sec` is absent in pre-contract lines. */
export interface IssueLine {
  readonly heartbeat: number;
  readonly timestamp: string;
  readonly issue: string;
  readonly persona: string;
  readonly duration_sec?: number;
  readonly status: IssueStatus;
  readonly actions: readonly string[];
}

/** One recorded beat; appended last, exactly once per recorded beat. */
export interface BeatLine {
  readonly type: 'beat';
  readonly started_at: string;
  readonly ended_at: string;
  readonly beat_elapsed_sec: number;
  readonly issues_worked: number;
  readonly stop_reason: StopReason;
}

/** A line of the log. A line without `type` is an issue line. */
export type LogLine = IssueLine | BeatLine;

/** The log as read: well-formed lines in order, plus what was skipped and why. */
export interface ParsedLog {
  readonly lines: readonly LogLine[];
  /** True when the last line was cut off (a crash mid-append); it is ignored. */
  readonly tornTail: boolean;
  readonly warnings: readonly string[];
}

const issueLineSchema = z.object({
  heartbeat: z.number().int().nonnegative(),
  timestamp: z.string(),
  issue: z.string().regex(/^#\d+$/),
  persona: z.string(),
  duration_sec: z.number().nonnegative().optional(),
  status: z.enum(ISSUE_STATUSES),
  actions: z.array(z.string()).default([]),
});

const beatLineSchema = z.object({
  type: z.literal('beat'),
  started_at: z.string(),
  ended_at: z.string(),
  beat_elapsed_sec: z.number().nonnegative(),
  issues_worked: z.number().int().nonnegative(),
  stop_reason: z.string().refine(isStopReason),
});

/** True for a beat line. */
export function isBeatLine(line: LogLine): line is BeatLine {
  return 'type' in line;
}

/** One JSON line (with its newline) for `line`. Key order follows the reference. */
export function serializeLogLine(line: LogLine): string {
  return `${JSON.stringify(line)}\n`;
}

function parseLine(text: string): LogLine | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'not JSON';
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not a JSON object';
  if ('type' in value) {
    const beat = beatLineSchema.safeParse(value);
    return beat.success ? { ...beat.data, stop_reason: beat.data.stop_reason } : 'malformed beat line';
  }
  const issue = issueLineSchema.safeParse(value);
  if (!issue.success) return 'malformed issue line';
  const { duration_sec, ...rest } = issue.data;
  return duration_sec === undefined ? rest : { ...rest, duration_sec };
}

/**
 * Parses the JSONL text. A bad last line without a trailing newline is a torn append and is
 * dropped quietly; any other bad line is skipped with a warning. Never throws.
 */
export function parseLogText(text: string): ParsedLog {
  const rawLines = text.split('\n');
  const endsClean = text.length === 0 || text.endsWith('\n');
  const lines: LogLine[] = [];
  const warnings: string[] = [];
  let tornTail = false;
  rawLines.forEach((raw, index) => {
    if (raw.trim() === '') return;
    const parsed = parseLine(raw);
    if (typeof parsed !== 'string') {
      lines.push(parsed);
      return;
    }
    const isLast = index === rawLines.length - 1;
    if (isLast && !endsClean) {
      tornTail = true;
      warnings.push(`heartbeat-log.jsonl: ignored a torn last line (${parsed}).`);
    } else warnings.push(`heartbeat-log.jsonl: line ${index + 1} skipped (${parsed}).`);
  });
  return { lines, tornTail, warnings };
}

/** A beat reconstructed from the log: its beat line (if any) and the issue lines it closed. */
export interface BeatGroup {
  readonly beat?: BeatLine;
  readonly issues: readonly IssueLine[];
  /**
   * `died`: a trailing run of issue lines with `duration_sec` and no beat line (an incident);
   * `pre-contract`: issue lines with no `duration_sec` and no beat line (old history, no alarm);
   * `recorded`: closed by a beat line.
   */
  readonly kind: 'recorded' | 'died' | 'pre-contract';
}

/**
 * Groups the log backwards (reference §7): a beat line closes the run of issue lines above it;
 * issue lines beyond its `issues_worked` belong to an earlier beat that died.
 */
export function groupBeats(lines: readonly LogLine[]): BeatGroup[] {
  const groups: BeatGroup[] = [];
  let pending: IssueLine[] = [];
  const flushOrphans = (orphans: IssueLine[]): void => {
    if (orphans.length === 0) return;
    const died = orphans.some((line) => line.duration_sec !== undefined);
    groups.push({ issues: orphans, kind: died ? 'died' : 'pre-contract' });
  };
  for (const line of lines) {
    if (!isBeatLine(line)) {
      pending.push(line);
      continue;
    }
    const own = line.issues_worked > 0 ? pending.slice(-line.issues_worked) : [];
    flushOrphans(pending.slice(0, pending.length - own.length));
    groups.push({ beat: line, issues: own, kind: 'recorded' });
    pending = [];
  }
  flushOrphans(pending);
  return groups;
}

/** Issue numbers whose most recent issue line says `decomposed` (parents that wait below their children). */
export function decomposedParents(lines: readonly LogLine[]): ReadonlySet<number> {
  const latest = new Map<number, IssueStatus>();
  for (const line of lines) if (!isBeatLine(line)) latest.set(Number(line.issue.slice(1)), line.status);
  return new Set([...latest].filter(([, status]) => status === 'decomposed').map(([issue]) => issue));
}
