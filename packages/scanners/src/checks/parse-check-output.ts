import { z } from 'zod';
import type { JsonValue, PriorityClass } from '@heartbeat-kit/core';

/** Longest line of a check's stdout that is read (64 KiB): a longer JSON line is a scanner problem, not a finding. */
export const MAX_CHECK_LINE_BYTES = 64 * 1024;

/** At most this many findings from one run; the rest are said in a warning, never silently dropped. */
export const MAX_CHECK_FINDINGS = 50;

const jsonValue: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(jsonValue), z.record(z.string(), jsonValue)]),
);

/**
 * One finding as a check prints it, one JSON object per line (docs/schemas/check-finding.schema.json).
 * `content` is what change-aware repeats compare (default: the line).
 */
export const checkFindingLineSchema = z
  .object({
    subject: z.string().min(1).max(500).describe('What the finding is about (with the check’s category, its dedup key).'),
    line: z.string().min(1).max(2000).describe('The line of the report.'),
    action: z.string().min(1).max(2000).optional().describe('One step for the Recommended Action section.'),
    short: z.string().min(1).max(200).optional().describe('A few words for the summary line.'),
    priority: z.enum(['Immediate', 'Advisory', 'Normal']).optional().describe('Overrides the check’s priority for this finding.'),
    content: jsonValue.optional().describe('What a repeat compares: a change reports at once; default the line.'),
  })
  .strict()
  .describe('One finding of a HEARTBEAT.md check: a JSON object on one line of its stdout.');

/** A finding line as read, before sanitising. */
export interface CheckFindingLine {
  readonly subject: string;
  readonly line: string;
  readonly action?: string | undefined;
  readonly short?: string | undefined;
  readonly priority?: PriorityClass | undefined;
  readonly content?: JsonValue | undefined;
}

/** What an exit-0 stdout says: nothing, findings, or output the contract does not allow. */
export type CheckOutput =
  | { readonly kind: 'quiet' }
  | {
      readonly kind: 'findings';
      readonly form: 'json-lines' | 'text';
      readonly findings: readonly CheckFindingLine[];
      readonly dropped: number;
    }
  | { readonly kind: 'malformed'; readonly reason: string };

function bytes(text: string): number {
  return new TextEncoder().encode(text).length;
}

/**
 * Reads an exit-0 stdout by the check contract: blank = quiet; a first line starting with `{` =
 * JSON lines, every non-blank line one finding object (one bad line makes the whole output
 * malformed: half a report is not passed for the whole); anything else = one finding whose line is
 * the first line. Never throws.
 */
export function parseCheckOutput(stdout: string, checkName: string): CheckOutput {
  const lines = stdout.split(/\r?\n/);
  const filled = lines.map((text, index) => ({ text, number: index + 1 })).filter((l) => l.text.trim() !== '');
  const first = filled[0];
  if (first === undefined) return { kind: 'quiet' };
  const long = filled.find((l) => bytes(l.text) > MAX_CHECK_LINE_BYTES);
  if (long !== undefined)
    return {
      kind: 'malformed',
      reason: `line ${long.number} is ${bytes(long.text)} bytes, over the ${MAX_CHECK_LINE_BYTES / 1024} KiB a line may have`,
    };
  if (!first.text.trimStart().startsWith('{')) {
    return { kind: 'findings', form: 'text', findings: [{ subject: checkName, line: first.text.trim() }], dropped: 0 };
  }
  const findings: CheckFindingLine[] = [];
  for (const { text, number } of filled) {
    let json: unknown;
    try {
      json = JSON.parse(text) as unknown;
    } catch {
      return { kind: 'malformed', reason: `line ${number} is not JSON (JSON-lines output needs one object per line)` };
    }
    const parsed = checkFindingLineSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue === undefined || issue.path.length === 0 ? '' : ` at "${issue.path.join('.')}"`;
      return { kind: 'malformed', reason: `line ${number} is not a finding: ${issue?.message ?? 'invalid'}${where}` };
    }
    findings.push(parsed.data);
  }
  const kept = findings.slice(0, MAX_CHECK_FINDINGS);
  return { kind: 'findings', form: 'json-lines', findings: kept, dropped: findings.length - kept.length };
}
