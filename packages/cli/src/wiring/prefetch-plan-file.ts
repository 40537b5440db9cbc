import { constants, type Stats } from 'node:fs';
import { lstat, mkdir, open, rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * The plan file as the prefetch may read it: like git's `safe.directory` rule for a repository,
 * the file and its directory belong to this user (effective uid) and nobody else can write them
 * (not group- or world-writable), neither is a symbolic link, and the file is a regular file
 * (a FIFO would block the read). A repository another user owns, or a `heartbeat-kit/` directory
 * a group can write to, then cannot hand a root-run cycle a plan; and the plan names listings by
 * id only, so even a plan that passes these checks never becomes a command line.
 */
export type PlanFileRead =
  | { readonly kind: 'absent' }
  | { readonly kind: 'text'; readonly text: string }
  /** Not read: `reason` says why (no file content), `fix` what to do. */
  | { readonly kind: 'refused'; readonly reason: string; readonly fix: string };

/** Larger than any plan this version writes (≈ 1 KB): the rest is not read. */
const MAX_PLAN_BYTES = 64 * 1024;

/** What is wrong with who may write `stats` (a directory's or the file's), for the user `euid`; undefined: nothing. */
export function ownershipProblem(stats: Pick<Stats, 'uid' | 'mode'>, euid: number): string | undefined {
  if (stats.uid !== euid) return `it is owned by uid ${stats.uid}, not by this user (uid ${euid})`;
  if ((stats.mode & 0o022) !== 0)
    return `it is writable by ${(stats.mode & 0o002) !== 0 ? 'every user' : 'its group'} (mode ${(stats.mode & 0o777).toString(8)})`;
  return undefined;
}

/** Why the plan's directory may not hold a plan; undefined: it may. */
export function planDirectoryProblem(stats: Stats, euid: number): string | undefined {
  if (stats.isSymbolicLink()) return 'it is a symbolic link';
  if (!stats.isDirectory()) return 'it is not a directory';
  return ownershipProblem(stats, euid);
}

const code = (error: unknown): string | undefined => (error as NodeJS.ErrnoException).code;

/**
 * Reads the plan at `path` for the user `euid`, after the checks of {@link PlanFileRead}. The
 * directory's lstat and the file's open go out together, and the file is read in one call of its
 * size: this runs while Node loads the command, where each step waits for a turn of a busy loop.
 */
export async function readPlanFile(path: string, euid: number): Promise<PlanFileRead> {
  const dir = dirname(path);
  // O_NOFOLLOW: a symbolic link is refused, not followed; O_NONBLOCK: a FIFO does not block the open.
  const [dirStats, opened] = await Promise.all([
    lstat(dir).catch(() => undefined),
    open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch((error: unknown) => error as NodeJS.ErrnoException),
  ]);
  const handle = opened instanceof Error ? undefined : opened;
  try {
    if (dirStats === undefined) return { kind: 'absent' };
    const dirProblem = planDirectoryProblem(dirStats, euid);
    if (dirProblem !== undefined)
      return {
        kind: 'refused',
        reason: `its directory ${dir}: ${dirProblem}`,
        fix: dirStats.isDirectory() && dirStats.uid === euid ? `chmod go-w ${dir}` : `remove ${dir} (the next cycle makes its own)`,
      };
    if (handle === undefined) {
      if (code(opened) === 'ELOOP') return { kind: 'refused', reason: 'it is a symbolic link', fix: `delete ${path}` };
      // Missing, or unreadable: a cache that is not there.
      return { kind: 'absent' };
    }
    const stats = await handle.stat();
    if (!stats.isFile()) return { kind: 'refused', reason: 'it is not a regular file', fix: `delete ${path}` };
    const problem = ownershipProblem(stats, euid);
    if (problem !== undefined) return { kind: 'refused', reason: problem, fix: `delete ${path}` };
    if (stats.size > MAX_PLAN_BYTES) return { kind: 'refused', reason: `it is larger than ${MAX_PLAN_BYTES} bytes`, fix: `delete ${path}` };
    // The file open is the one we checked: a writer replaces a plan by rename, never in place.
    const buffer = Buffer.alloc(stats.size);
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    return { kind: 'text', text: buffer.toString('utf8', 0, length) };
  } finally {
    // Not awaited: the descriptor is closed in the background, nothing waits on it.
    void handle?.close().catch(() => undefined);
  }
}

/**
 * Writes a plan for the user `euid`: the directory is made only this user can enter (0700), and
 * nothing is written unless it passes the read's checks, through a temporary file created
 * exclusively (never through a link someone left) and renamed over the plan. False when it was not
 * written: a cache, so the caller goes on.
 */
export async function writePlanFile(path: string, text: string, euid: number): Promise<boolean> {
  const dir = dirname(path);
  try {
    await mkdir(dirname(dir), { recursive: true });
    await mkdir(dir, { mode: 0o700 }).catch((error: unknown) => {
      if (code(error) !== 'EEXIST') throw error;
    });
    if (planDirectoryProblem(await lstat(dir), euid) !== undefined) return false;
    const temporary = `${path}.${process.pid}.tmp`;
    await unlink(temporary).catch(() => undefined);
    const handle = await open(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
    try {
      await handle.writeFile(text);
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
    return true;
  } catch {
    return false;
  }
}
