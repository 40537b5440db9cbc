import { stat } from 'node:fs/promises';
import { basename, dirname, join, sep } from 'node:path';

/**
 * Where a project keeps its heartbeat config, relative to the project root. Core's
 * `DEFAULT_HEARTBEAT_FILE` (a test pins them equal): this module also loads while Node loads the
 * command, for the cycle prefetch, where importing core's index would pull in zod.
 */
export const PROJECT_CONFIG_FILE = '.claude/HEARTBEAT.md';

/** A project's root and the worktree root its state path is relative to. */
export interface ProjectRoot {
  /** The nearest directory holding `.claude/HEARTBEAT.md` (see {@link findProjectRoot}), else the worktree root. */
  readonly project: string;
  /** The worktree root the project was found in: the state of a project below it lives under `projects/<path>`. */
  readonly configRoot: string;
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/** Walks from `from` up to `top` (inclusive) and returns the first directory holding `.claude/HEARTBEAT.md`. */
export async function findConfigDir(from: string, top: string): Promise<string | undefined> {
  let dir = from;
  for (;;) {
    if (await exists(join(dir, PROJECT_CONFIG_FILE))) return dir;
    if (dir === top) return undefined;
    const parent = dirname(dir);
    if (parent === dir || !(parent === top || parent.startsWith(top === sep ? sep : `${top}${sep}`))) return undefined;
    dir = parent;
  }
}

/**
 * The project of directory `real` (symlinks resolved) in the worktree `toplevel` of a repository
 * whose common git directory is `commonDir`: the nearest directory at or above `real` (within its
 * worktree) holding `.claude/HEARTBEAT.md`, else the main worktree's root when it holds one (a
 * linked worktree without its own config: `.claude/` is often not committed), else the worktree root.
 */
export async function findProjectRoot(real: string, toplevel: string, commonDir: string): Promise<ProjectRoot> {
  const mainRoot = basename(commonDir) === '.git' ? dirname(commonDir) : undefined;
  const configDir = await findConfigDir(real, toplevel);
  if (configDir !== undefined) return { project: configDir, configRoot: toplevel };
  if (mainRoot !== undefined && mainRoot !== toplevel && (await exists(join(mainRoot, PROJECT_CONFIG_FILE))))
    return { project: mainRoot, configRoot: mainRoot };
  return { project: toplevel, configRoot: toplevel };
}
