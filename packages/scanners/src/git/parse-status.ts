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

/**
 * Parses `git status --porcelain=v1 -z`: `XY PATH\0`, and for a rename or copy an extra
 * `ORIG\0` field (no arrow, nothing quoted). Clean tree = empty output = no entries.
 */
export function parseStatusPorcelainZ(stdout: string): Result<readonly StatusEntry[], GitParseError> {
  const fields = stdout.split('\0');
  if (fields.at(-1) === '') fields.pop();
  const entries: StatusEntry[] = [];
  for (let i = 0; i < fields.length; i++) {
    const m = ENTRY.exec(fields[i] ?? '');
    if (m === null) return err({ kind: 'malformed-output', message: `unexpected status entry: ${(fields[i] ?? '').slice(0, 80)}` });
    const [, x = '', y = '', path = ''] = m;
    if (x === 'R' || x === 'C') {
      const origPath = fields[i + 1];
      if (origPath === undefined) return err({ kind: 'malformed-output', message: `rename without its source: ${path.slice(0, 80)}` });
      entries.push({ x, y, path, origPath });
      i++;
    } else {
      entries.push({ x, y, path });
    }
  }
  return ok(entries);
}
