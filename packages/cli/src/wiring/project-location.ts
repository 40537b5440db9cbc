import { createHash } from 'node:crypto';
import { constants as fsConstants } from 'node:fs';
import { copyFile, mkdir, readdir, realpath, rename, rmdir, stat, unlink } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import type { CommandRunner } from '@heartbeat-kit/core';
import { receiptsDirectoryFor } from '@heartbeat-kit/core/node';
import { err, ok, type Result } from 'neverthrow';
import { cycleLockPath, describeHolder, withCycleLock } from './cycle-lock.js';
import { findConfigDir, findProjectRoot } from './project-root.js';
import { revParseRequest } from './rev-parse-request.js';

/** Where a heartbeat's project, config and own state are. */
export interface ProjectLocation {
  /** The directory the user pointed at (`--cwd`, else the working directory), symlinks resolved. */
  readonly cwd: string;
  /**
   * The project root: the nearest directory at or above `cwd` (within its worktree) holding
   * `.claude/HEARTBEAT.md`, else the main worktree's root when it holds one, else the worktree root.
   */
  readonly project: string;
  /** Where the heartbeat keeps state and locks: the repository's common git directory, or the user's state directory without git. */
  readonly stateDir: string;
  /** Where versions before this one kept state (`<dir>/.heartbeat/`); migrated from, never written. */
  readonly legacyStateDirs: readonly string[];
  /** Things the user should know (e.g. git is not installed, so state is per directory). */
  readonly notes: readonly string[];
}

/** The directory under the git common dir (or the user's state dir) that is the heartbeat's own. */
const STATE_DIR_NAME = 'heartbeat-kit';

async function isDirectory(path: string): Promise<boolean | undefined> {
  try {
    return (await stat(path)).isDirectory();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw error;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/** The user's state directory (XDG Base Directory: `$XDG_STATE_HOME`, else `~/.local/state`). */
function userStateHome(env: Readonly<Record<string, string | undefined>>): string {
  const xdg = env.XDG_STATE_HOME;
  if (xdg !== undefined && isAbsolute(xdg)) return xdg;
  return join(env.HOME !== undefined && isAbsolute(env.HOME) ? env.HOME : homedir(), '.local', 'state');
}

/**
 * Finds the project, its config and the heartbeat's state directory for `cwd`. Errors are one
 * line naming the fix: a directory that does not exist or is not in a git repository is never
 * answered for (the heartbeat would report on a place it never saw).
 */
export async function locateProject(
  cwd: string,
  options: { readonly runner: CommandRunner; readonly env: Readonly<Record<string, string | undefined>>; readonly flag: string },
): Promise<Result<ProjectLocation, string>> {
  const directory = await isDirectory(cwd).catch((error: unknown) => error as Error);
  if (directory instanceof Error)
    return err(`cannot read ${options.flag} ${cwd}: ${directory.message}. Fix: check the path and its permissions.`);
  if (directory === undefined)
    return err(`${options.flag} ${cwd} does not exist. Fix: pass the directory of a git repository (the project to watch).`);
  if (!directory)
    return err(`${options.flag} ${cwd} is not a directory. Fix: pass the directory of a git repository (the project to watch).`);
  const real = await realpath(cwd);

  const probe = await options.runner.run(revParseRequest(real));
  if (probe.isErr()) {
    if (probe.error.kind !== 'not-found')
      return err(`git rev-parse in ${real} failed (${probe.error.kind}). Fix: check that git runs in this directory.`);
    // Without git there is no repository to keep state in: the user's state dir, one per directory.
    const configDir = await findConfigDir(real, real);
    const hash = createHash('sha256').update(real).digest('hex').slice(0, 12);
    const stateDir = join(userStateHome(options.env), STATE_DIR_NAME, `${basename(real) || 'root'}-${hash}`);
    return ok({
      cwd: real,
      project: configDir ?? real,
      stateDir,
      legacyStateDirs: [join(real, '.heartbeat')],
      notes: [`git not found on PATH: the git scanners are skipped and state is kept in ${stateDir}`],
    });
  }
  if (probe.value.exitCode !== 0) {
    const stderr = probe.value.stderr;
    if (/not a git repository/i.test(stderr)) {
      return err(
        `${real} is not in a git repository. Fix: pass --cwd a directory of the project's git repository, or run 'git init' there.`,
      );
    }
    const line = (stderr.split('\n').find((l) => l.trim() !== '') ?? `git exited ${probe.value.exitCode}`)
      .replace(/[^\x20-\x7e]/g, '?')
      .slice(0, 200);
    return err(`git cannot read the repository at ${real}: ${line}. Fix: run 'git status' there and fix what it reports.`);
  }
  const [top = '', common = ''] = probe.value.stdout.split('\n');
  const toplevel = resolve(real, top);
  const commonDir = resolve(real, common);
  // A linked worktree without its own config (.claude/ is often not committed) uses the main
  // worktree's: one repository, one config, one state (see docs/concepts.md, "Where state lives").
  const { project, configRoot } = await findProjectRoot(real, toplevel, commonDir);
  // One state per project, shared by every worktree of the repository (the same relative path in each).
  const rel = relative(configRoot, project);
  const stateDir = rel === '' ? join(commonDir, STATE_DIR_NAME) : join(commonDir, STATE_DIR_NAME, 'projects', encodeURIComponent(rel));
  const legacy = [...new Set([join(real, '.heartbeat'), join(project, '.heartbeat')])];
  return ok({ cwd: real, project, stateDir, legacyStateDirs: legacy, notes: [] });
}

/** What {@link migrateLegacyState} did: the state file this invocation uses and what to tell the user. */
export interface LegacyMigration {
  /** The new state file, or the legacy one while an older heartbeat still holds its lock. */
  readonly statePath: string;
  readonly notes: readonly string[];
}

async function moveFile(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (error) {
    // The user's state dir (no git) may be on another file system than the project.
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    await copyFile(from, to, fsConstants.COPYFILE_EXCL);
    await unlink(from);
  }
}

/** Moves every receipt segment of `from` into `to` (segment names are unique, so this merges). */
async function moveReceipts(from: string, to: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(from);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  await mkdir(to, { recursive: true });
  for (const name of names) {
    if (await exists(join(to, name))) continue;
    await moveFile(join(from, name), join(to, name)).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error; // pruned meanwhile
    });
  }
  await rmdir(from).catch(() => undefined);
}

/**
 * Moves what an older version kept in `<dir>/.heartbeat/` (the state file and its receipts) to
 * beside `statePath`, once, under that older version's own cycle lock so a still-running older
 * loop never loses a cycle; then removes the emptied directory (git saw it as untracked work).
 * While an older heartbeat holds the lock, this invocation keeps using the legacy state (and
 * will find that lock held). Returns notes for stderr.
 */
export async function migrateLegacyState(legacyDirs: readonly string[], statePath: string): Promise<LegacyMigration> {
  const notes: string[] = [];
  for (const dir of legacyDirs) {
    const oldState = join(dir, 'state.json');
    const oldReceipts = receiptsDirectoryFor(oldState);
    const hasState = await exists(oldState);
    if (!hasState && !(await exists(oldReceipts))) continue;
    if (hasState && (await exists(statePath))) {
      notes.push(`an older heartbeat state ${oldState} is ignored: ${statePath} is in use. Fix: delete ${dir} (git sees it as untracked).`);
      continue;
    }
    const guarded = await withCycleLock(oldState, async () => {
      await mkdir(dirname(statePath), { recursive: true });
      if (hasState && !(await exists(statePath))) {
        await moveFile(oldState, statePath).catch((error: unknown) => {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error; // another cycle moved it first
        });
      }
      await moveReceipts(oldReceipts, receiptsDirectoryFor(statePath));
    }).catch((error: unknown) => ({ kind: 'failed' as const, error: error as Error }));
    if (guarded.kind === 'held') {
      notes.push(
        `an older heartbeat holds ${cycleLockPath(oldState)} (${describeHolder(guarded.holder, guarded.liveness, Date.now())}): its state stays in ${dir} until it stops, then moves to ${dirname(statePath)}.`,
      );
      return { statePath: oldState, notes };
    }
    if (guarded.kind !== 'ran') {
      const why = guarded.kind === 'failed' ? guarded.error.message : guarded.error.kind === 'held' ? 'held' : guarded.error.message;
      notes.push(
        `cannot move the heartbeat state in ${dir} to ${dirname(statePath)}: ${why}. Fix: move ${oldState} and ${oldReceipts} there by hand.`,
      );
      if (!(await exists(statePath)) && (await exists(oldState))) return { statePath: oldState, notes };
      continue;
    }
    const removed = await rmdir(dir).then(
      () => true,
      () => false,
    );
    const left = removed ? [] : await readdir(dir).catch(() => []);
    notes.push(
      `moved the heartbeat state from ${dir} to ${dirname(statePath)}, where git does not see it (once).` +
        (left.length === 0
          ? ''
          : ` ${dir} still holds files this version did not write (${left.slice(0, 3).join(', ')}${left.length > 3 ? ', …' : ''}); move or delete them.`),
    );
  }
  return { statePath, notes };
}

/**
 * The state file read-only commands (`history`, `check-liveness`) look at: the new location, or
 * an older version's `.heartbeat/` while nothing has been written to the new one (no cycle has
 * run since the upgrade, so nothing was migrated yet).
 */
export async function existingStatePath(location: ProjectLocation): Promise<string> {
  const statePath = join(location.stateDir, 'state.json');
  if ((await exists(statePath)) || (await exists(receiptsDirectoryFor(statePath)))) return statePath;
  for (const dir of location.legacyStateDirs) {
    const old = join(dir, 'state.json');
    if ((await exists(old)) || (await exists(receiptsDirectoryFor(old)))) return old;
  }
  return statePath;
}
