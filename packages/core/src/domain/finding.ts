import { z } from 'zod';
import type { FindingCategory, PriorityClass } from './categories.js';
import type { JsonValue } from './json.js';
import { canonicalJson, stableHash } from '../text/stable-hash.js';

/**
 * Something a scanner found that may be worth a wake-up. Its identity is its fingerprint
 * (category + subject); a changed subject is a new finding.
 */
export interface Finding {
  readonly category: FindingCategory;
  readonly priority: PriorityClass;
  /** `CATEGORY:subject` — the dedup key. */
  readonly fingerprint: string;
  /** What the finding is about: bead id, session name, worktree path, `pipeline:stage`, … (raw, unsanitised). */
  readonly subject: string;
  /** One line for the Findings section, e.g. `CRASHED: orch-auth (bead beads-a3m9 still in_progress)`. */
  readonly line: string;
  /** One numbered step for the Recommended Action section. */
  readonly action: string;
  /** A few words for the summary line, e.g. `orch-auth crashed`. */
  readonly short: string;
  /** Structured facts for JSON output and custom renderers. */
  readonly details: Readonly<Record<string, JsonValue>>;
  /**
   * The facts whose change makes this a new situation worth reporting at once, inside the repeat
   * schedule (default: `details`). Leave out what changes by itself with time (ages, minutes idle),
   * or every cycle would look like a change.
   */
  readonly content?: JsonValue | undefined;
}

/** Input of {@link createFinding}: everything but the derived fields. */
export interface FindingInput {
  readonly category: FindingCategory;
  readonly subject: string;
  readonly line: string;
  readonly action: string;
  readonly short: string;
  readonly details?: Readonly<Record<string, JsonValue>>;
  /** See {@link Finding.content}; absent = `details`. */
  readonly content?: JsonValue;
  /** The finding's priority class (default Normal); a table's `createFinding` fills it from the table. */
  readonly priority?: PriorityClass;
}

/** Builds the fingerprint of a finding: its category and subject. */
export function fingerprintOf(category: FindingCategory, subject: string): string {
  return `${category}:${subject}`;
}

/**
 * Creates a finding and its fingerprint; its priority is the input's (default Normal). A table's
 * `createFinding` (see `defineCategories`) takes the priority from the table instead.
 *
 * @example
 * ```ts
 * import { createFinding } from '@heartbeat-kit/core';
 *
 * // The finding carries its own priority; a CategoryTable's createFinding takes it from the table.
 * const finding = createFinding({
 *   category: 'QUEUE_BACKLOG',
 *   priority: 'Advisory',
 *   subject: 'jobs',
 *   line: 'QUEUE BACKLOG: 42 jobs waiting',
 *   action: 'Start another worker',
 *   short: '42 jobs queued',
 * });
 * console.log(finding.fingerprint); // QUEUE_BACKLOG:jobs — the dedup key
 * ```
 */
export function createFinding(input: FindingInput): Finding {
  const priority = input.priority ?? 'Normal';
  return {
    category: input.category,
    priority,
    fingerprint: fingerprintOf(input.category, input.subject),
    subject: input.subject,
    line: input.line,
    action: input.action,
    short: input.short,
    details: input.details ?? {},
    ...(input.content === undefined ? {} : { content: input.content }),
  };
}

/**
 * Hash of what a finding says ({@link Finding.content}, else its details), independent of key
 * order: the same fingerprint with another hash is a changed finding, reported at once.
 */
export function findingContentHash(finding: Finding): string {
  return stableHash(canonicalJson(finding.content ?? finding.details));
}

/** Schema of a stored finding (state documents keep undelivered one-shot findings). */
export const findingSchema = z.object({
  category: z.string().min(1),
  priority: z.enum(['Immediate', 'Advisory', 'Normal']),
  fingerprint: z.string().min(1),
  subject: z.string(),
  line: z.string(),
  action: z.string(),
  short: z.string(),
  // Details are plain JSON written by this library; checked as an object, typed as the domain's JSON.
  details: z.custom<Readonly<Record<string, JsonValue>>>((v) => typeof v === 'object' && v !== null && !Array.isArray(v)),
  content: z.custom<JsonValue>((v) => v !== undefined).optional(),
});
