// What the stress scenarios share: the built CLI they run, and the committed git repository each
// scenario watches. Kept out of ./scenarios so run.mjs does not load it as a scenario.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The repository root. */
export const root = join(import.meta.dirname, '..');

/** The built CLI (`pnpm stress` builds it first). */
export const bin = join(root, 'packages', 'cli', 'dist', 'bin.js');

/**
 * Makes `repo` a git repository holding `files` (relative path → text; a README.md by default) in
 * one commit, under a fixed identity so the user's git config is never needed.
 */
export function createCommittedRepo(repo, files = {}) {
  const env = {
    ...process.env,
    GIT_AUTHOR_NAME: 's',
    GIT_AUTHOR_EMAIL: 's@x.invalid',
    GIT_COMMITTER_NAME: 's',
    GIT_COMMITTER_EMAIL: 's@x.invalid',
  };
  const git = (...args) => execFileSync('git', ['-C', repo, ...args], { env });
  mkdirSync(repo, { recursive: true });
  git('init', '-q', '-b', 'main');
  for (const [path, text] of Object.entries({ 'README.md': 'stress\n', ...files })) {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), text);
  }
  git('add', '-A');
  git('commit', '-q', '-m', 'init');
}
