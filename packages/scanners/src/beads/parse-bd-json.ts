import { err, ok, type Result } from 'neverthrow';
import { z } from 'zod';
import type { BdParseError, Bead, BeadPriority } from './bead.js';

// bd omits optional fields rather than writing null, but a null must not fail the scan either.
const optionalString = z.string().nullish();

const bdIssueSchema = z.object({
  id: z.string().min(1),
  title: z.string(),
  priority: z.number().int().min(0).max(4),
  status: optionalString,
  assignee: optionalString,
  labels: z.array(z.string()).nullish(),
  issue_type: optionalString,
  created_at: optionalString,
  updated_at: optionalString,
  started_at: optionalString,
});

const bdErrorSchema = z.object({ error: z.string(), hint: z.string().optional() });

type BdIssue = z.infer<typeof bdIssueSchema>;

function toBead(issue: BdIssue): Bead {
  return {
    id: issue.id,
    title: issue.title,
    priority: issue.priority as BeadPriority,
    ...(issue.status == null ? {} : { status: issue.status }),
    ...(issue.assignee == null || issue.assignee === '' ? {} : { assignee: issue.assignee }),
    ...(issue.labels == null ? {} : { labels: issue.labels }),
    ...(issue.issue_type == null ? {} : { issueType: issue.issue_type }),
    ...(issue.created_at == null ? {} : { createdAt: issue.created_at }),
    ...(issue.updated_at == null ? {} : { updatedAt: issue.updated_at }),
    ...(issue.started_at == null ? {} : { startedAt: issue.started_at }),
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function payloadOf(value: unknown, depth: number): Result<unknown[], BdParseError> {
  if (Array.isArray(value)) return ok(value);
  if (!isRecord(value))
    return err({ kind: 'unexpected-shape', message: `expected an array or object, got ${value === null ? 'null' : typeof value}` });
  const error = bdErrorSchema.safeParse(value);
  if (error.success)
    return err({ kind: 'bd-error', message: error.data.error, ...(error.data.hint === undefined ? {} : { hint: error.data.hint }) });
  // BD_JSON_ENVELOPE=1 wraps any payload once as {schema_version, data}.
  if ('data' in value && depth === 0) return payloadOf(value.data, depth + 1);
  // --skip-labels turns the list into {issues, meta, schema_version}.
  if (Array.isArray(value.issues)) return ok(value.issues as unknown[]);
  return err({ kind: 'unexpected-shape', message: `object without issues or data (keys: ${Object.keys(value).slice(0, 8).join(', ')})` });
}

/**
 * Parses `bd ready --json` / `bd list --json` output: a bare array, an `{issues, meta,
 * schema_version}` object or a `{schema_version, data}` envelope; `{error}` objects become a
 * `bd-error`. Unknown keys are ignored; key order is never relied on.
 */
export function parseBdJson(stdout: string): Result<readonly Bead[], BdParseError> {
  let value: unknown;
  try {
    value = JSON.parse(stdout);
  } catch (error) {
    return err({ kind: 'invalid-json', message: error instanceof Error ? error.message : 'invalid JSON' });
  }
  return payloadOf(value, 0).andThen((items) => {
    const beads: Bead[] = [];
    for (const [index, item] of items.entries()) {
      const parsed = bdIssueSchema.safeParse(item);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const where = issue === undefined ? '' : ` at ${issue.path.join('.')}: ${issue.message}`;
        return err<readonly Bead[], BdParseError>({ kind: 'unexpected-shape', message: `issue #${index}${where}` });
      }
      beads.push(toBead(parsed.data));
    }
    return ok<readonly Bead[], BdParseError>(beads);
  });
}
