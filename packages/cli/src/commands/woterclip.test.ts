import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync, existsSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProcessRunner } from '@heartbeat-kit/core/node';
import { afterAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../io.js';
import { main } from '../main.js';
import { createWoterclipCommand } from './woterclip.js';

const woterclipTest = join(import.meta.dirname, '..', '..', '..', 'woterclip', 'test');
const fakeGh = join(woterclipTest, 'fixtures', 'fake-gh', 'gh.mjs');
const agent = join(woterclipTest, 'fixtures', 'fake-agent', 'agent.mjs');
chmodSync(fakeGh, 0o755);
chmodSync(agent, 0o755);
const root = mkdtempSync(join(tmpdir(), 'woterclip-cli-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

interface Repo {
  readonly dir: string;
  readonly state: string;
  readonly agentLog: string;
}

interface RepoOptions {
  /** Extra `heartbeat:` keys of .woterclip/config.yaml. */
  readonly heartbeat?: object;
  /** Injected gh failures (see the fake gh). */
  readonly failures?: object[];
}

function makeRepo(
  primaryMode = 'ok',
  issues: object[] = [{ number: 12, title: '$(rm -rf ~) `id` --help @everyone', labels: ['backend'] }],
  options: RepoOptions = {},
): Repo {
  n += 1;
  const dir = join(root, `repo-${n}`);
  mkdirSync(join(dir, '.woterclip', 'personas', 'orchestrator'), { recursive: true });
  mkdirSync(join(dir, '.woterclip', 'personas', 'backend'), { recursive: true });
  const config = {
    version: 2,
    github: { board_user: 'boss', repo: 'o/r' },
    heartbeat: { max_issues_per_heartbeat: 2, stale_lock_hours: 4, ...options.heartbeat },
    personas: {
      orchestrator: { path: 'personas/orchestrator', label: null, is_default: true },
      backend: { path: 'personas/backend', label: 'backend' },
    },
    dispatch: { command: [agent, primaryMode, '{model}', '{max_turns}'], fallback: { command: [agent, 'ok', '{model}'], model: 'sonnet' } },
  };
  writeFileSync(join(dir, '.woterclip', 'config.yaml'), JSON.stringify(config)); // JSON is YAML
  for (const p of ['orchestrator', 'backend']) {
    writeFileSync(
      join(dir, '.woterclip', 'personas', p, 'config.yaml'),
      `required_tools: [gh]\nruntime: {model: ${p === 'backend' ? 'opus' : 'haiku'}, max_turns: 300}\n`,
    );
    writeFileSync(join(dir, '.woterclip', 'personas', p, 'SOUL.md'), `You are ${p}.`);
  }
  const state = join(dir, 'gh-state.json');
  writeFileSync(
    state,
    JSON.stringify({
      repo: 'o/r',
      login: 'octocat',
      authMode: 'ok',
      seq: 100,
      argv: [],
      failures: options.failures ?? [],
      labels: ['backend', 'agent-working', 'agent-blocked', 'in-progress', 'in-review'],
      issues: issues.map((i: object) => ({
        id: 0,
        body: '',
        comments: [],
        createdAt: '2026-07-01T00:00:00Z',
        state: 'OPEN',
        assignees: ['octocat'],
        subIssues: [],
        ...i,
      })),
    }),
  );
  return { dir, state, agentLog: join(dir, 'agent.log') };
}

function io(cwd: string): CliIo & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    stdout: (t) => out.push(t),
    stderr: (t) => err.push(t),
    cwd,
    env: { PATH: process.env.PATH },
    shutdownSignal: new AbortController().signal,
  };
}

const command = (repo: Repo) =>
  createWoterclipCommand({
    gh: fakeGh,
    pid: 4242,
    runner: createProcessRunner({ baseEnv: { PATH: process.env.PATH, FAKE_GH_STATE: repo.state, AGENT_LOG: repo.agentLog } }),
  });
const ghState = (repo: Repo) =>
  JSON.parse(readFileSync(repo.state, 'utf8')) as {
    issues: { number: number; state: string; labels: string[]; comments: { body: string }[] }[];
    argv: string[][];
  };
const logLines = (repo: Repo) =>
  readFileSync(join(repo.dir, '.woterclip', 'heartbeat-log.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('heartbeat-kit woterclip', () => {
  it('is registered in main and prints help for each subcommand', async () => {
    const a = io(root);
    expect(await main(['woterclip', '--help'], a)).toBe(0);
    expect(a.out.join()).toContain('beat');
    const b = io(root);
    expect(await main(['woterclip', 'beat', '--help'], b)).toBe(0);
    expect(b.out.join()).toContain('--dry-run');
    const c = io(root);
    expect(await main(['woterclip', 'status', '--help'], c)).toBe(0);
    expect(c.out.join()).toContain('Clears-when');
  });

  it('usage errors are one line with exit 2', async () => {
    const a = io(root);
    expect(await main(['woterclip', 'beat', '--bogus'], a)).toBe(2);
    expect(a.err.join('')).toMatch(/^heartbeat-kit woterclip: .*--help for the options\.\n$/);
    const b = io(root);
    expect(await main(['woterclip', 'beat', '--now', 'yesterday'], b)).toBe(2);
  });

  it('a missing config tells the user to run init, exit 2, creates nothing', async () => {
    const dir = join(root, 'empty');
    mkdirSync(dir, { recursive: true });
    const a = io(dir);
    expect(await main(['woterclip', 'beat'], a)).toBe(2);
    expect(a.err.join('')).toContain('heartbeat-kit woterclip init');
    expect(existsSync(join(dir, '.woterclip'))).toBe(false);
  });

  it('beat end to end: real gh-shaped process, real agent process, lockfile, JSONL log', async () => {
    const repo = makeRepo('ok');
    const a = io(repo.dir);
    const code = await command(repo)(['beat', '--now', '2026-07-22T10:00:00Z'], a);
    expect(a.err.join('')).toBe('');
    expect(code).toBe(0);
    const issue = ghState(repo).issues[0]!;
    expect(issue.state).toBe('CLOSED');
    expect(issue.comments[0]?.body).toMatch(/^## Heartbeat #1 — 2026-07-22 10:00 UTC/);
    expect(issue.comments[0]?.body).toContain('**Model:** opus');
    expect(issue.comments[0]?.body).toContain('[`a1b2c3d`](https://github.com/o/r/commit/a1b2c3d) feat: thing');
    const lines = logLines(repo);
    expect(lines.map((l) => l.type ?? l.issue)).toEqual(['#12', 'beat']);
    expect(lines[1]).toMatchObject({ stop_reason: 'complete', issues_worked: 1, started_at: '2026-07-22T10:00:00Z' });
    expect(existsSync(join(repo.dir, '.woterclip', '.heartbeat-lock'))).toBe(false);
  });

  it('dispatch refused at invocation (exit 125): the fallback runs and is disclosed on the Model line', async () => {
    const repo = makeRepo('refuse');
    const code = await command(repo)(['beat'], io(repo.dir));
    expect(code).toBe(0);
    expect(ghState(repo).issues[0]?.comments[0]?.body).toContain('**Model:** sonnet (fallback — configured: opus)');
    const calls = readFileSync(repo.agentLog, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { mode: string; model: string; hasContract: boolean });
    expect(calls.map((c) => [c.mode, c.model])).toEqual([
      ['refuse', 'opus'],
      ['ok', 'sonnet'],
    ]);
    expect(calls.every((c) => c.hasContract)).toBe(true);
  });

  it('a dispatch that fails after starting is blocked, never re-run', async () => {
    const repo = makeRepo('crash');
    await command(repo)(['beat'], io(repo.dir));
    const issue = ghState(repo).issues[0]!;
    expect(issue.labels).toEqual(['backend', 'agent-blocked']);
    expect(issue.comments[0]?.body).toContain('**Status:** Blocked');
    expect(issue.comments[0]?.body).toContain('committed abc1234');
    expect(readFileSync(repo.agentLog, 'utf8').trim().split('\n')).toHaveLength(1);
  });

  it('a live lockfile held by another beat: skip, exit 0, lock and log untouched', async () => {
    const repo = makeRepo('ok');
    const lockPath = join(repo.dir, '.woterclip', '.heartbeat-lock');
    const lock = '{"beat_id": "1784714580-4821", "started_at": "2026-07-22T10:03:00Z", "started_epoch": 1784714580}\n';
    writeFileSync(lockPath, lock);
    const a = io(repo.dir);
    expect(await command(repo)(['beat', '--now', '2026-07-22T11:00:00Z'], a)).toBe(0);
    expect(a.out.join('')).toContain('Previous heartbeat still active. Skipping.');
    expect(readFileSync(lockPath, 'utf8')).toBe(lock);
    expect(existsSync(join(repo.dir, '.woterclip', 'heartbeat-log.jsonl'))).toBe(false);
  });

  it('--dry-run prints the spec shape and leaves nothing behind; --json prints one object', async () => {
    const repo = makeRepo('ok', [
      { number: 12, title: 'Issue title', labels: ['backend', 'in-progress'] },
      { number: 15, title: 'Other', labels: [] },
    ]);
    const a = io(repo.dir);
    expect(await command(repo)(['beat', '--dry-run'], a)).toBe(0);
    expect(a.out.join('')).toContain(
      'Dry run — would pick:\n  #12 [backend] "Issue title" (in-progress)\nQueue:\n  #15 [orchestrator] "Other" (todo)',
    );
    expect(existsSync(join(repo.dir, '.woterclip', 'heartbeat-log.jsonl'))).toBe(false);
    expect(ghState(repo).argv.some((argv) => ['edit', 'comment', 'close'].includes(argv[1] ?? ''))).toBe(false);
    const b = io(repo.dir);
    await command(repo)(['beat', '--dry-run', '--json'], b);
    expect(JSON.parse(b.out.join(''))).toMatchObject({ exit: 'dry-run', exitCode: 0 });
  });

  it('status: queue, blocked with Clears when (or not stated), last beats, Stopped', async () => {
    const blockedBody =
      '## Heartbeat #1 — 2026-07-21 09:00 UTC (1m 0s)\n\n**Status:** Blocked\n\n### Action needed\n@boss — key\n\n**Clears when:** the deploy key has write access\n\n---\n*WoterClip · backend · #3*';
    const repo = makeRepo('ok', [
      {
        number: 3,
        title: 'needs key',
        labels: ['backend', 'agent-blocked'],
        comments: [{ id: 'c', author: 'octocat', body: blockedBody, createdAt: '2026-07-21T09:00:00Z', url: 'u' }],
      },
      { number: 4, title: 'vague', labels: ['backend', 'agent-blocked'] },
      { number: 5, title: 'todo', labels: ['backend'] },
    ]);
    writeFileSync(
      join(repo.dir, '.woterclip', 'heartbeat-log.jsonl'),
      '{"type": "beat", "started_at": "2026-07-22T06:00:00Z", "ended_at": "2026-07-22T06:01:00Z", "beat_elapsed_sec": 60, "issues_worked": 0, "stop_reason": "queue_empty"}\n{"heartbeat": 1, "timest',
    );
    const a = io(repo.dir);
    expect(await command(repo)(['status', '--now', '2026-07-22T10:00:00Z'], a)).toBe(0);
    const text = a.out.join('');
    expect(text).toMatch(/^Stopped: no heartbeat since 2026-07-22T06:01:00Z/);
    expect(text).toContain('backend: #5');
    expect(text).toContain('#3 "needs key" — Clears when: the deploy key has write access');
    expect(text).toContain('#4 "vague" — Clears when: not stated');
    expect(text).toContain('queue_empty');
    expect(a.err.join('')).toContain('torn last line');
  });

  // Issue 11 item 1: the ownership rule at every exit, also when the Board pulls agent-working.
  it('the Board removes agent-working mid-dispatch: nothing posted, the beat deletes its own lock, the next beat runs', async () => {
    const repo = makeRepo('board-stops');
    const a = io(repo.dir);
    expect(await command(repo)(['beat', '--now', '2026-07-22T10:00:00Z'], a)).toBe(0);
    expect(a.out.join('')).toContain('agent-working was removed while the agent worked');
    expect(ghState(repo).issues[0]?.comments).toEqual([]);
    expect(existsSync(join(repo.dir, '.woterclip', '.heartbeat-lock'))).toBe(false);
    expect(existsSync(join(repo.dir, '.woterclip', 'heartbeat-log.jsonl'))).toBe(false);
    const b = io(repo.dir);
    expect(await command(repo)(['beat', '--now', '2026-07-22T10:10:00Z'], b)).toBe(0);
    expect(b.out.join('')).not.toContain('Previous heartbeat still active');
  });

  it('a lock taken over by another beat during the dispatch is left alone (ownership rule)', async () => {
    const repo = makeRepo('board-stops');
    const lockPath = join(repo.dir, '.woterclip', '.heartbeat-lock');
    const successor = '{"beat_id": "1784714999-77", "started_at": "2026-07-22T10:09:59Z", "started_epoch": 1784714999}\n';
    const runner = createProcessRunner({ baseEnv: { PATH: process.env.PATH, FAKE_GH_STATE: repo.state, AGENT_LOG: repo.agentLog } });
    const stealing = createWoterclipCommand({
      gh: fakeGh,
      pid: 4242,
      runner: {
        run: (request) =>
          runner.run(request).map((output) => {
            if (request.file === agent) writeFileSync(lockPath, successor);
            return output;
          }),
      },
    });
    expect(await stealing(['beat', '--now', '2026-07-22T10:00:00Z'], io(repo.dir))).toBe(0);
    expect(readFileSync(lockPath, 'utf8')).toBe(successor);
  });

  // Issue 11 item 2: issues_worked counts what the beat recorded.
  it('gh fails on the label edit after the report was posted: the beat line counts the issue line, status shows no incident', async () => {
    const repo = makeRepo('ok', undefined, {
      failures: [{ argv: ['issue', 'edit'], skip: 1, message: 'HTTP 502: Bad Gateway (https://api.github.com/graphql)' }],
    });
    const a = io(repo.dir);
    expect(await command(repo)(['beat', '--now', '2026-07-22T10:00:00Z'], a)).toBe(1);
    expect(ghState(repo).issues[0]?.comments).toHaveLength(1);
    const lines = logLines(repo);
    expect(lines.map((l) => l.type ?? l.issue)).toEqual(['#12', 'beat']);
    expect(lines[1]).toMatchObject({ stop_reason: 'blocked_exit', issues_worked: 1 });
    const s = io(repo.dir);
    expect(await command(repo)(['status', '--now', '2026-07-22T10:05:00Z'], s)).toBe(0);
    expect(s.out.join('')).not.toContain('incident');
    expect(s.out.join('')).toMatch(/blocked_exit\s+worked 1 .*#12/);
  });

  // Issue 11 item 3: pause advice only when no todo issue remains for any persona.
  it('triage-only quiet hours with worker issues waiting: no advice to pause; an empty queue does advise it', async () => {
    const quiet = { quiet_hours: { enabled: true, timezone: 'UTC', start: '22:00', end: '07:00', behavior: 'triage-only' } };
    const waiting = makeRepo('ok', [{ number: 12, title: 'backend work', labels: ['backend'] }], { heartbeat: quiet });
    const a = io(waiting.dir);
    expect(await command(waiting)(['beat', '--now', '2026-07-22T23:30:00Z'], a)).toBe(0);
    expect(a.out.join('')).toContain('No issues in queue');
    expect(a.out.join('')).not.toContain('pausing');
    const empty = makeRepo('ok', [], { heartbeat: quiet });
    const b = io(empty.dir);
    expect(await command(empty)(['beat', '--now', '2026-07-22T23:30:00Z'], b)).toBe(0);
    expect(b.out.join('')).toContain('consider pausing the heartbeat schedule');
  });

  // Issue 11 item 4: a dry run changes nothing and records nothing, on every path.
  it('--dry-run with gh missing, in skip quiet hours, or over a stale lock writes no beat line and touches no lock', async () => {
    const repo = makeRepo('ok');
    const woterclip = join(repo.dir, '.woterclip');
    const noGh = createWoterclipCommand({ gh: join(repo.dir, 'no-such-gh'), pid: 4242 });
    const a = io(repo.dir);
    expect(await noGh(['beat', '--dry-run'], a)).toBe(1);
    expect(a.err.join('')).toContain('gh');
    const stale = '{"beat_id": "1784000000-1", "started_at": "2026-07-14T03:33:20Z", "started_epoch": 1784000000}\n';
    writeFileSync(join(woterclip, '.heartbeat-lock'), stale);
    const b = io(repo.dir);
    expect(await command(repo)(['beat', '--dry-run', '--now', '2026-07-22T10:00:00Z'], b)).toBe(0);
    expect(b.out.join('')).toContain('would clean the stale lockfile');
    expect(readFileSync(join(woterclip, '.heartbeat-lock'), 'utf8')).toBe(stale);
    const quiet = makeRepo('ok', undefined, {
      heartbeat: { quiet_hours: { enabled: true, timezone: 'UTC', start: '22:00', end: '07:00', behavior: 'skip' } },
    });
    expect(await command(quiet)(['beat', '--dry-run', '--now', '2026-07-22T23:00:00Z'], io(quiet.dir))).toBe(0);
    for (const dir of [repo.dir, quiet.dir]) expect(existsSync(join(dir, '.woterclip', 'heartbeat-log.jsonl'))).toBe(false);
    expect(existsSync(join(quiet.dir, '.woterclip', '.heartbeat-lock'))).toBe(false);
    expect(ghState(repo).argv.some((argv) => ['edit', 'comment', 'close', 'create'].includes(argv[1] ?? ''))).toBe(false);
  });

  // Issue 11 item 6: the reference's field block and the claude JSON envelope are outcomes too.
  it.each(['fieldblock', 'envelope'])('an agent answering with the %s form completes the issue instead of blocking it', async (mode) => {
    const repo = makeRepo(mode);
    expect(await command(repo)(['beat', '--now', '2026-07-22T10:00:00Z'], io(repo.dir))).toBe(0);
    const issue = ghState(repo).issues[0]!;
    expect(issue.state).toBe('CLOSED');
    expect(issue.labels).not.toContain('agent-blocked');
    expect(issue.comments[0]?.body).toContain('**Status:** Completed');
    expect(issue.comments[0]?.body).toContain('`a1b2c3d`');
  });

  // Issue 12 item 7: a persona file linked outside the repository is never read into a prompt.
  it('a SOUL.md symlinked outside the repository stops the beat with an error naming the file; a link inside is fine', async () => {
    const repo = makeRepo('ok');
    const secret = join(root, `secret-${n}.txt`);
    writeFileSync(secret, 'AKIA-TOP-SECRET');
    const soul = join(repo.dir, '.woterclip', 'personas', 'backend', 'SOUL.md');
    unlinkSync(soul);
    symlinkSync(secret, soul);
    const a = io(repo.dir);
    expect(await command(repo)(['beat', '--now', '2026-07-22T10:00:00Z'], a)).toBe(2);
    expect(a.err.join('')).toContain('.woterclip/personas/backend/SOUL.md: resolves outside the repository');
    expect(existsSync(repo.agentLog)).toBe(false);
    expect(existsSync(join(repo.dir, '.woterclip', '.heartbeat-lock'))).toBe(false);
    expect(ghState(repo).argv).toEqual([]);
    unlinkSync(soul);
    writeFileSync(join(repo.dir, 'BACKEND.md'), 'You are backend.');
    symlinkSync(join(repo.dir, 'BACKEND.md'), soul);
    expect(await command(repo)(['beat', '--now', '2026-07-22T10:00:00Z'], io(repo.dir))).toBe(0);
    expect(readFileSync(repo.agentLog, 'utf8')).toContain('"mode":"ok"');
  });
});
