/**
 * A throw-away world for end-to-end tests, the benchmark and the demo: a real git repository
 * with worktrees, a private tmux server, a fake `bd` that replays bd v1.0.5 JSON, a fake GChat
 * poll script and Attractor DOT pipelines — everything spec 000 scans, in a temp directory.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A bead as bd's JSON prints it (the fields the scanners read; bd omits absent optionals). */
export interface WorldBead {
  readonly id: string;
  readonly title: string;
  readonly priority: 0 | 1 | 2 | 3 | 4;
  readonly status?: 'open' | 'in_progress';
  readonly assignee?: string;
  readonly started_at?: string;
  readonly created_at?: string;
}

/** A worktree to create; `commitAt` is its last commit time, `dirty` leaves an uncommitted file. */
export interface WorldWorktree {
  /** Directory name under the world's root (any bytes a file name may hold). */
  readonly dir: string;
  readonly branch: string;
  readonly commitAt: Date;
  readonly dirty?: boolean;
}

/** What to build. */
export interface WorldSpec {
  readonly ready?: readonly WorldBead[];
  readonly inProgress?: readonly WorldBead[];
  readonly sessions?: readonly string[];
  readonly worktrees?: readonly WorldWorktree[];
  /** Main worktree's first commit time (default 2026-02-19T12:00:00Z). */
  readonly mainCommitAt?: Date;
  /** GChat poll JSON to print, or an exit code to end with. */
  readonly gchat?: { readonly stdout: string; readonly exitCode?: number };
  /** DOT files by name under .pipelines/pipelines/. */
  readonly pipelines?: Readonly<Record<string, string>>;
  /** HEARTBEAT.md content (default: UTC active hours 8–22, weekend on). */
  readonly heartbeatMd?: string;
}

/** A built world. Call `destroy` when done: it kills the tmux server and removes the files. */
export interface World {
  readonly root: string;
  readonly project: string;
  readonly fakeBin: string;
  readonly tmuxSocket: string;
  /** Environment for the CLI: PATH with the fake bin first. */
  readonly env: Record<string, string | undefined>;
  readonly setReady: (beads: readonly WorldBead[]) => void;
  readonly setInProgress: (beads: readonly WorldBead[]) => void;
  readonly tmux: (...args: string[]) => string;
  readonly destroy: () => void;
}

const FAKE_BD = `#!/usr/bin/env node
// Fake bd: replays bd v1.0.5 JSON from its data directory. Only the calls the scanners make.
// It never calls process.exit after writing: that cuts a piped stdout short once it outgrows the
// pipe (about 200 KB of the 766 KB that 2,000 beads take), and the scanners then read broken JSON.
const fs = require('node:fs');
const path = require('node:path');
const dir = __BD_DIR__;
const args = process.argv.slice(2);
const read = (name) => fs.readFileSync(path.join(dir, name), 'utf8');
const reply = (code, stdout, stderr) => {
  process.stdout.write(stdout);
  process.stderr.write(stderr);
  process.exitCode = code;
};
if (!dir || !fs.existsSync(dir)) reply(1, '', 'Error: no beads database found\\nHint: run \\'bd init\\' to create a database\\n');
else if (args[0] === 'version') reply(0, 'bd version 1.0.5 (BUILD: fake)\\n', '');
else if (!args.includes('--json')) reply(1, '', 'fake bd: only --json is replayed\\n');
else if (args[0] === 'ready') reply(0, read('ready.json'), '');
else if (args[0] === 'list' && args.some((a) => a === '--status=in_progress' || a === 'in_progress')) reply(0, read('in_progress.json'), '');
else reply(1, '', 'Error: unknown fake bd call: ' + args.join(' ') + '\\n');
`;

function bdJson(beads: readonly WorldBead[], status: 'open' | 'in_progress'): string {
  const rows = beads.map((b) => ({
    id: b.id,
    title: b.title,
    status: b.status ?? status,
    priority: b.priority,
    issue_type: 'task',
    ...(b.assignee === undefined ? {} : { assignee: b.assignee }),
    created_at: b.created_at ?? '2026-02-19T08:00:00Z',
    created_by: 'alice',
    updated_at: b.started_at ?? b.created_at ?? '2026-02-19T08:00:00Z',
    ...(b.started_at === undefined ? {} : { started_at: b.started_at }),
    dependency_count: 0,
    dependent_count: 0,
    comment_count: 0,
  }));
  // bd escapes <, > and & like Go's encoder does.
  return `${JSON.stringify(rows, null, 2).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026')}\n`;
}

function git(cwd: string, args: readonly string[], at?: Date): string {
  const date = at?.toISOString();
  return execFileSync('git', ['-C', cwd, ...args], {
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'World',
      GIT_AUTHOR_EMAIL: 'world@example.invalid',
      GIT_COMMITTER_NAME: 'World',
      GIT_COMMITTER_EMAIL: 'world@example.invalid',
      ...(date ? { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } : {}),
    },
  });
}

/**
 * Commits a new file `file` in a worktree with author and committer date `at` (ISO): a change of
 * its content, as a developer's next commit (GIT_STALE reads the last commit's time).
 */
export function commitInWorktree(cwd: string, file: string, at: string): void {
  writeFileSync(join(cwd, file), `${at}\n`);
  git(cwd, ['add', '--', file]);
  git(cwd, ['commit', '-q', '-m', `change ${file}`], new Date(at));
}

/** Where tmux keeps the socket of `tmux -L name`: `$TMUX_TMPDIR` (default /tmp), `tmux-<uid>/name`. */
export function tmuxSocketPath(name: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(env.TMUX_TMPDIR || '/tmp', `tmux-${process.getuid?.() ?? 0}`, name);
}

/** The default HEARTBEAT.md of a world: UTC, 8–22, weekends on, so tests do not depend on the host zone. */
export const WORLD_HEARTBEAT_MD = `# Heartbeat Configuration

## Active Hours
- Start: 8
- End: 22
- Weekend: true
- Timezone: UTC
`;

/** Builds a world; see {@link WorldSpec}. */
export function createWorld(spec: WorldSpec = {}): World {
  const root = mkdtempSync(join(tmpdir(), 'hk-world-'));
  const project = join(root, 'project');
  const fakeBin = join(root, 'bin');
  const bdDir = join(root, 'bd');
  mkdirSync(project);
  mkdirSync(fakeBin);
  mkdirSync(bdDir);
  writeFileSync(join(fakeBin, 'bd'), FAKE_BD.replace('__BD_DIR__', JSON.stringify(bdDir)));
  chmodSync(join(fakeBin, 'bd'), 0o755);
  const setReady = (beads: readonly WorldBead[]): void => writeFileSync(join(bdDir, 'ready.json'), bdJson(beads, 'open'));
  const setInProgress = (beads: readonly WorldBead[]): void => writeFileSync(join(bdDir, 'in_progress.json'), bdJson(beads, 'in_progress'));
  setReady(spec.ready ?? []);
  setInProgress(spec.inProgress ?? []);

  git(project, ['init', '-q', '-b', 'main']);
  writeFileSync(join(project, 'README.md'), 'world\n');
  writeFileSync(join(project, '.gitignore'), '.heartbeat/\n.claude/\n.pipelines/\n');
  git(project, ['add', '-A']);
  git(project, ['commit', '-q', '-m', 'init'], spec.mainCommitAt ?? new Date('2026-02-19T12:00:00Z'));
  for (const wt of spec.worktrees ?? []) {
    const path = join(root, wt.dir);
    git(project, ['worktree', 'add', '-q', '-b', wt.branch, '--', path]);
    writeFileSync(join(path, 'work.txt'), `${wt.branch}\n`);
    git(path, ['add', 'work.txt']);
    git(path, ['commit', '-q', '-m', `work on ${wt.branch}`], wt.commitAt);
    if (wt.dirty) writeFileSync(join(path, 'uncommitted.txt'), 'pending\n');
  }

  mkdirSync(join(project, '.claude', 'scripts'), { recursive: true });
  writeFileSync(join(project, '.claude', 'HEARTBEAT.md'), spec.heartbeatMd ?? WORLD_HEARTBEAT_MD);
  if (spec.gchat) {
    // Like the real script, a reply is returned by exactly one run: the answer file is emptied after it.
    const answers = join(root, 'gchat-answer.txt');
    writeFileSync(answers, spec.gchat.stdout);
    const script = [
      'import sys',
      `path = ${JSON.stringify(answers)}`,
      'text = open(path).read()',
      `open(path, "w").write('{"replies": [], "pending_count": 0}')`,
      'sys.stdout.write(text)',
      `sys.exit(${spec.gchat.exitCode ?? 0})`,
      '',
    ].join('\n');
    writeFileSync(join(project, '.claude', 'scripts', 'gchat-poll-replies.py'), script);
  }
  if (spec.pipelines) {
    const dir = join(project, '.pipelines', 'pipelines');
    mkdirSync(dir, { recursive: true });
    for (const [name, dot] of Object.entries(spec.pipelines)) writeFileSync(join(dir, name), dot);
  }

  const tmuxSocket = `hk-world-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  // Panes run a plain /bin/sh and the server reads no tmux.conf: the user's login shell and its rc files
  // (pyenv, nvm, …) would cost seconds of CPU per session, and 200 of them made a machine's load 250.
  const tmuxEnv: NodeJS.ProcessEnv = { ...process.env, SHELL: '/bin/sh' };
  delete tmuxEnv.TMUX;
  const tmux = (...args: string[]): string =>
    execFileSync('tmux', ['-f', '/dev/null', '-L', tmuxSocket, ...args], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: tmuxEnv,
    });
  for (const name of spec.sessions ?? []) tmux('new-session', '-d', '-s', name, '-x', '80', '-y', '20');

  const env: Record<string, string | undefined> = { ...process.env, PATH: `${fakeBin}:${process.env.PATH ?? ''}` };
  delete env.TMUX;
  return {
    root,
    project,
    fakeBin,
    tmuxSocket,
    env,
    setReady,
    setInProgress,
    tmux,
    destroy: () => {
      try {
        // Quietly: with no server left tmux prints "error connecting to …" on stderr.
        execFileSync('tmux', ['-L', tmuxSocket, 'kill-server'], { stdio: 'ignore' });
      } catch {
        // No server (no sessions were created, or it already exited).
      }
      // kill-server leaves the socket file behind (tmux 3.3): ten per test run piled up in /tmp.
      rmSync(tmuxSocketPath(tmuxSocket), { force: true });
      rmSync(root, { recursive: true, force: true });
    },
  };
}
