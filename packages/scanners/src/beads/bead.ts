/** bd priority: 0 (critical) … 4 (backlog). */
export type BeadPriority = 0 | 1 | 2 | 3 | 4;

/**
 * The fields of a bd issue the scanners use. JSON gives all that bd stores; a human text format
 * gives fewer, and what it lacks is absent (never guessed).
 */
export interface Bead {
  /** `<prefix>-<hash>[.N…]`; the prefix may contain hyphens. */
  readonly id: string;
  readonly title: string;
  readonly priority?: BeadPriority;
  /** `open`, `in_progress`, `blocked`, `deferred`, `closed`, … or a custom status. */
  readonly status?: string;
  readonly assignee?: string;
  readonly labels?: readonly string[];
  readonly issueType?: string;
  /** RFC 3339 instants as bd printed them. */
  readonly createdAt?: string;
  readonly updatedAt?: string;
  /** Set when the bead entered in_progress. */
  readonly startedAt?: string;
}

/** Why bd output could not be read as a list of beads. */
export type BdParseError =
  | { readonly kind: 'invalid-json'; readonly message: string }
  | { readonly kind: 'bd-error'; readonly message: string; readonly hint?: string }
  | { readonly kind: 'unexpected-shape'; readonly message: string }
  | { readonly kind: 'unrecognised-line'; readonly line: number; readonly text: string };

/** A bd id: `<prefix>-<hash>` with optional `.N` children; the prefix may contain hyphens (tools.md §2.1). */
export const BEAD_ID_PATTERN = /^[a-z0-9][a-z0-9_-]*-[a-z0-9]+(?:\.\d+)*$/;

/** True when `value` looks like a bd id. */
export function isBeadId(value: string): boolean {
  return BEAD_ID_PATTERN.test(value);
}

/** Type guard for bd's priority range. */
export function isBeadPriority(value: number): value is BeadPriority {
  return value === 0 || value === 1 || value === 2 || value === 3 || value === 4;
}
