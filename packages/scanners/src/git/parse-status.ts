import { err, ok, type Result } from 'neverthrow';
import type { GitParseError } from './parse-worktrees.js';

/** One entry of `git status --porcelain=v1 -z`. */
export interface StatusEntry {
  /** Index status (` MADRCUT?!`). */
  readonly x: string;
  /** Worktree status. */
  readonly y: string;
  readonly path: string;
  /** Source of a rename or copy. */
  readonly origPath?: string;
}

const ENTRY = /^([ MADRCUT?!])([ MADRCUT?!]) (.+)$/s;

/** Reads the entry starting at `fields[i]`; `next` is the index after it (a rename takes two fields). */
function entryAt(fields: readonly string[], i: number): Result<{ readonly entry: StatusEntry; readonly next: number }, GitParseError> {
  const m = ENTRY.exec(fields[i] ?? '');
  if (m === null) return err({ kind: 'malformed-output', message: `unexpected status entry: ${(fields[i] ?? '').slice(0, 80)}` });
  const [, x = '', y = '', path = ''] = m;
  if (x !== 'R' && x !== 'C') return ok({ entry: { x, y, path }, next: i + 1 });
  const origPath = fields[i + 1];
  if (origPath === undefined) return err({ kind: 'malformed-output', message: `rename without its source: ${path.slice(0, 80)}` });
  return ok({ entry: { x, y, path, origPath }, next: i + 2 });
}

function fieldsOf(stdout: string): string[] {
  const fields = stdout.split('\0');
  if (fields.at(-1) === '') fields.pop();
  return fields;
}

/**
 * Parses `git status --porcelain=v1 -z`: `XY PATH\0`, and for a rename or copy an extra
 * `ORIG\0` field (no arrow, nothing quoted). Clean tree = empty output = no entries.
 */
export function parseStatusPorcelainZ(stdout: string): Result<readonly StatusEntry[], GitParseError> {
  const fields = fieldsOf(stdout);
  const entries: StatusEntry[] = [];
  for (let i = 0; i < fields.length;) {
    const read = entryAt(fields, i);
    if (read.isErr()) return err(read.error);
    entries.push(read.value.entry);
    i = read.value.next;
  }
  return ok(entries);
}

/**
 * Parses the statuses of several worktrees printed one after the other by
 * `git status --porcelain=v1 -z --branch` each (as `git for-each-repo` runs them): every
 * worktree's block opens with its `## …` branch field. No entry can pass for one — an entry
 * opens with two status letters, `#` is none, and a rename's source field is consumed with its
 * entry — so the blocks split exactly. One array of entries per block, in output order.
 */
export function parseStatusBlocksZ(stdout: string): Result<readonly (readonly StatusEntry[])[], GitParseError> {
  const fields = fieldsOf(stdout);
  const blocks: StatusEntry[][] = [];
  for (let i = 0; i < fields.length;) {
    if (fields[i]!.startsWith('## ')) {
      blocks.push([]);
      i += 1;
      continue;
    }
    const block = blocks.at(-1);
    if (block === undefined) return err({ kind: 'malformed-output', message: 'status entry before the first ## branch field' });
    const read = entryAt(fields, i);
    if (read.isErr()) return err(read.error);
    block.push(read.value.entry);
    i = read.value.next;
  }
  return ok(blocks);
}
