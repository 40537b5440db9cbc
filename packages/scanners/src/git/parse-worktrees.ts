import { err, ok, type Result } from 'neverthrow';

/** One entry of `git worktree list --porcelain -z`. */
export interface Worktree {
  /** Absolute path, exactly as git stored it (may hold spaces, quotes, newlines). */
  readonly path: string;
  /** Commit id; all zeros on an unborn branch; absent for a bare entry. */
  readonly head: string | undefined;
  /** Short branch name (without `refs/heads/`); absent when detached or bare. */
  readonly branch: string | undefined;
  readonly detached: boolean;
  readonly bare: boolean;
  /** Lock reason (`''` when locked without one); absent when not locked. */
  readonly locked: string | undefined;
  /** Why git would prune it (its directory is gone); absent when healthy. */
  readonly prunable: string | undefined;
  /** HEAD is `000…0`: the branch has no commits yet. */
  readonly unborn: boolean;
}

/** Why git output could not be read. */
export type GitParseError = { readonly kind: 'malformed-output'; readonly message: string };

const ZERO_OID = /^0+$/;

/**
 * Parses `git worktree list --porcelain -z`: NUL-terminated `label value` fields, records ended
 * by an extra NUL. Unknown labels are ignored (newer gits add some); nothing is unquoted because
 * `-z` never quotes.
 */
export function parseWorktreeList(stdout: string): Result<readonly Worktree[], GitParseError> {
  const worktrees: Worktree[] = [];
  const fields = stdout.split('\0');
  let record: { -readonly [K in keyof Worktree]: Worktree[K] } | undefined;
  const flush = (): void => {
    if (record !== undefined) worktrees.push({ ...record });
    record = undefined;
  };
  for (const field of fields) {
    if (field === '') {
      flush();
      continue;
    }
    const space = field.indexOf(' ');
    const label = space === -1 ? field : field.slice(0, space);
    const value = space === -1 ? undefined : field.slice(space + 1);
    if (label === 'worktree') {
      flush();
      if (value === undefined || value === '') return err({ kind: 'malformed-output', message: 'worktree record without a path' });
      record = {
        path: value,
        head: undefined,
        branch: undefined,
        detached: false,
        bare: false,
        locked: undefined,
        prunable: undefined,
        unborn: false,
      };
      continue;
    }
    if (record === undefined) return err({ kind: 'malformed-output', message: `field outside a worktree record: ${field.slice(0, 80)}` });
    switch (label) {
      case 'HEAD':
        record.head = value;
        record.unborn = value !== undefined && ZERO_OID.test(value);
        break;
      case 'branch':
        record.branch = value?.startsWith('refs/heads/') ? value.slice('refs/heads/'.length) : value;
        break;
      case 'detached':
        record.detached = true;
        break;
      case 'bare':
        record.bare = true;
        break;
      case 'locked':
        record.locked = value ?? '';
        break;
      case 'prunable':
        record.prunable = value ?? '';
        break;
      default:
        break;
    }
  }
  flush();
  return ok(worktrees);
}

/** The worktrees a scanner should look at: not bare (no working tree) and not prunable (directory gone). */
export function scannableWorktrees(worktrees: readonly Worktree[]): readonly Worktree[] {
  return worktrees.filter((w) => !w.bare && w.prunable === undefined);
}
