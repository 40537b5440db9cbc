import { spawn } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
  existsSync,
  chmodSync,
  readdirSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProcessRunner } from '@heartbeat-kit/core/node';
import { afterAll, describe, expect, it } from 'vitest';
import { eventually, isAlive } from '../../../core/test/support/processes.js';
import { BUILT_CLI_BIN } from '../../test/support/built-cli.js';
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
  /** Extra `dispatch:` keys of .woterclip/config.yaml. */
  readonly dispatch?: object;
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
    dispatch: {
      command: [agent, primaryMode, '{model}', '{max_turns}'],
      fallback: { command: [agent, 'ok', '{model}'], model: 'sonnet' },
      ...options.dispatch,
    },
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
/** Runs `woterclip beat` in the repo at beat `n`'s slot (every 10 minutes from 2026-07-22T10:00Z). */
const beatAt = async (repo: Repo, n: number): Promise<{ code: number; out: string; err: string }> => {
  const a = io(repo.dir);
  const at = new Date(Date.parse('2026-07-22T10:00:00Z') + n * 600_000).toISOString();
  const code = await command(repo)(['beat', '--now', at], a);
  return { code, out: a.out.join(''), err: a.err.join('') };
};
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
    // The beat's clock runs from --now at real speed: on a loaded machine its start is a few seconds later.
    expect(lines[1]).toMatchObject({ stop_reason: 'complete', issues_worked: 1 });
    expect(String(lines[1]?.started_at)).toMatch(/^2026-07-22T10:00:[0-5]\dZ$/);
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
      failures: [{ argv: ['api', 'graphql'], skip: 2, message: 'HTTP 502: Bad Gateway (https://api.github.com/graphql)' }],
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
    // A dry run is a rehearsal: no receipt either, not even for a later --now (issue 26).
    for (const dir of [repo.dir, quiet.dir]) {
      const receipts = join(dir, '.woterclip', 'receipts');
      expect(existsSync(receipts) ? readdirSync(receipts) : []).toEqual([]);
    }
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

// Issue 15 items 3–5 for WoterClip: every beat leaves one receipt, history and check-liveness read
// them, and a dispatch failing the same way trips a breaker instead of blocking every issue.
describe('heartbeat-kit woterclip receipts, history, check-liveness and the dispatch breaker', () => {
  const history = async (repo: Repo, ...flags: string[]) => {
    const a = io(repo.dir);
    // Receipts older than 30 days are pruned when read: judge them as of the tests' day.
    const at = flags.includes('--now') ? [] : ['--now', '2026-07-23T00:00:00Z'];
    expect(await command(repo)(['history', '--json', ...at, ...flags], a)).toBe(0);
    return (JSON.parse(a.out.join('')) as { receipts: Record<string, unknown>[] }).receipts;
  };
  const liveness = async (repo: Repo, now: string) => {
    const a = io(repo.dir);
    const code = await main(['check-liveness', '--woterclip', '--now', now], a);
    return { code, out: a.out.join(''), err: a.err.join('') };
  };

  it('a beat that works an issue leaves a ran receipt; history prints it; check-liveness --woterclip is alive, later stopped', async () => {
    const repo = makeRepo('ok');
    expect(await command(repo)(['beat', '--now', '2026-07-22T10:00:00Z'], io(repo.dir))).toBe(0);
    expect(await history(repo)).toMatchObject([
      {
        kind: 'ran',
        source: 'woterclip',
        slot: '2026-07-22T10:00:00.000Z',
        delivery: 'delivered',
        beat: { n: 1, end: 'complete', worked: [{ issue: 12, status: 'completed' }] },
      },
    ]);
    const text = io(repo.dir);
    expect(await command(repo)(['history', '--now', '2026-07-22T10:05:00Z'], text)).toBe(0);
    expect(text.out.join('')).toBe(
      '2026-07-22T10:00:00.000Z  woterclip ran      beat #1 worked #12 completed, stop complete, report posted\n',
    );
    const alive = await liveness(repo, '2026-07-22T10:30:00Z');
    expect(alive).toMatchObject({ code: 0 });
    expect(alive.out).toContain('alive: WoterClip beat #1 ran at 2026-07-22T10:00:00.000Z');
    const stopped = await liveness(repo, '2026-07-22T13:00:00Z');
    expect(stopped.code).toBe(1);
    expect(stopped.out).toContain('not alive (stopped)');
    expect(stopped.out).toMatch(/\(WoterClip beat #1, (2 h 59|3 h 0) min ago\)/);
    expect(stopped.out).not.toMatch(/\bcycle\b/);
    const never = await liveness(makeRepo('ok'), '2026-07-22T10:30:00Z');
    expect(never).toMatchObject({ code: 1, out: 'not alive (never-ran): no receipts: no WoterClip beat has run for this state yet.\n' });
    // The cycle's history is apart: no receipts of the cycle were written.
    expect(existsSync(join(repo.dir, '.woterclip', 'receipts'))).toBe(true);
  });

  it('a beat in quiet hours and a beat while another holds the lock are skipped receipts; liveness says every slot was skipped', async () => {
    const quiet = makeRepo('ok', undefined, {
      heartbeat: { quiet_hours: { enabled: true, timezone: 'UTC', start: '22:00', end: '07:00', behavior: 'skip' } },
    });
    expect(await command(quiet)(['beat', '--now', '2026-07-22T23:00:00Z'], io(quiet.dir))).toBe(0);
    expect(await history(quiet)).toMatchObject([{ kind: 'skipped', reason: 'quiet-hours', slot: '2026-07-22T23:00:00.000Z' }]);
    const notLive = await liveness(quiet, '2026-07-22T23:30:00Z');
    expect(notLive.code).toBe(1);
    expect(notLive.out).toContain('not alive (all-skipped): every recent slot was skipped: 1 × quiet-hours');

    const locked = makeRepo('ok');
    writeFileSync(
      join(locked.dir, '.woterclip', '.heartbeat-lock'),
      '{"beat_id": "1784714580-4821", "started_at": "2026-07-22T10:03:00Z", "started_epoch": 1784714580}\n',
    );
    expect(await command(locked)(['beat', '--now', '2026-07-22T11:00:00Z'], io(locked.dir))).toBe(0);
    expect(await history(locked)).toMatchObject([{ kind: 'skipped', reason: 'overlapping', slot: '2026-07-22T11:00:00.000Z' }]);
    expect(existsSync(repoPath(locked, 'heartbeat-log.jsonl'))).toBe(false);
  });

  it('history: --since filters, an empty store says so, usage errors exit 2', async () => {
    const repo = makeRepo('ok', []);
    const empty = io(repo.dir);
    expect(await command(repo)(['history'], empty)).toBe(0);
    expect(empty.out.join('')).toMatch(/^no beat receipts in .*\.woterclip\/receipts\n$/);
    await command(repo)(['beat', '--now', '2026-07-22T10:00:00Z'], io(repo.dir));
    await command(repo)(['beat', '--now', '2026-07-22T12:00:00Z'], io(repo.dir));
    expect((await history(repo, '--since', '1h', '--now', '2026-07-22T12:30:00Z')).map((r) => r.slot)).toEqual([
      '2026-07-22T12:00:00.000Z',
    ]);
    expect(await command(repo)(['history', '--since', 'soon'], io(repo.dir))).toBe(2);
    const help = io(repo.dir);
    expect(await main(['woterclip', 'history', '--help'], help)).toBe(0);
    expect(help.out.join('')).toContain('abandoned');
  });

  it('a dispatch failing the same way: one DISPATCH_FAILING advisory after 3 beats, held-back beats dispatch nothing, one line on recovery', async () => {
    const issues = Array.from({ length: 10 }, (_, i) => ({ number: 20 + i, title: `task ${20 + i}`, labels: ['backend'] }));
    const repo = makeRepo('crash', issues);
    const outputs: Awaited<ReturnType<typeof beatAt>>[] = [];
    for (let beat = 1; beat <= 9; beat += 1) {
      if (beat === 9) {
        const configPath = repoPath(repo, 'config.yaml');
        writeFileSync(configPath, readFileSync(configPath, 'utf8').replace('"crash"', '"ok"'));
      }
      outputs.push(await beatAt(repo, beat));
    }
    const all = outputs.map((o) => o.out + o.err).join('');
    expect(all.match(/DISPATCH_FAILING/g)).toHaveLength(1);
    expect(outputs[2]?.err).toContain('DISPATCH_FAILING: the agent dispatch failed the same way 3 beats in a row — dispatch exited 1');
    expect(outputs[3]?.out).toContain('dispatch breaker open');
    expect(outputs[3]?.out).toContain('next try at beat #5');
    expect(all.match(/dispatch recovered/g)).toHaveLength(1);
    expect(outputs[8]?.out).toContain('dispatch recovered: the agent dispatch worked after 4 failing beats');
    // Beats 1, 2, 3 and 5 dispatched (two issues each), beat 9 worked two; 4, 6, 7 and 8 were held back.
    const calls = readFileSync(repo.agentLog, 'utf8').trim().split('\n');
    expect(calls).toHaveLength(10);
    const receipts = await history(repo);
    expect(receipts.map((r) => (r.kind === 'ran' ? 'ran' : r.reason))).toEqual([
      'ran',
      'ran',
      'ran',
      'breaker-open',
      'ran',
      'breaker-open',
      'breaker-open',
      'breaker-open',
      'ran',
    ]);
    const state = ghState(repo);
    expect(state.issues.filter((i) => i.labels.includes('agent-blocked'))).toHaveLength(8);
    // The advisory is the beat's output and its receipt, never an issue comment.
    expect(state.issues.some((i) => i.comments.some((c) => c.body.includes('DISPATCH_FAILING')))).toBe(false);
    expect(JSON.stringify(receipts[2])).toContain('DISPATCH_FAILING');
  });

  it('dispatch.breaker in config.yaml takes effect: after 2, back-off cap 2 trips at beat 2 and retries every 2nd beat', async () => {
    const issues = Array.from({ length: 12 }, (_, i) => ({ number: 40 + i, title: `task ${40 + i}`, labels: ['backend'] }));
    const repo = makeRepo('crash', issues, { dispatch: { breaker: { after: 2, backoff_cap: 2 } } });
    const outputs: Awaited<ReturnType<typeof beatAt>>[] = [];
    for (let beat = 1; beat <= 6; beat += 1) {
      outputs.push(await beatAt(repo, beat));
    }
    expect(outputs.map((o) => o.code)).toEqual([0, 0, 0, 0, 0, 0]);
    const all = outputs.map((o) => o.out + o.err).join('');
    expect(all.match(/DISPATCH_FAILING/g)).toHaveLength(1);
    expect(outputs[1]?.err).toContain('DISPATCH_FAILING: the agent dispatch failed the same way 2 beats in a row');
    expect(outputs[1]?.err).toContain('next try at beat #4, backing off to every 2nd beat');
    expect(outputs[2]?.out).toContain('beat #3 works no issue, next try at beat #4');
    const receipts = await history(repo);
    expect(receipts.map((r) => (r.kind === 'ran' ? 'ran' : r.reason))).toEqual([
      'ran',
      'ran',
      'breaker-open',
      'ran',
      'breaker-open',
      'ran',
    ]);
    // Beats 1, 2, 4 and 6 dispatched two issues each; 3 and 5 were held back.
    expect(readFileSync(repo.agentLog, 'utf8').trim().split('\n')).toHaveLength(8);
  });

  it('dispatch.breaker with a bad value: exit 2, the message names the file, the key and the fix; nothing is dispatched', async () => {
    const repo = makeRepo('ok', undefined, { dispatch: { breaker: { after: -1 } } });
    const a = io(repo.dir);
    expect(await command(repo)(['beat', '--now', '2026-07-22T10:00:00Z'], a)).toBe(2);
    expect(a.err.join('')).toContain(
      '.woterclip/config.yaml: key "dispatch.breaker.after" Too small: expected number to be >=0; use a larger value.',
    );
    expect(existsSync(repo.agentLog)).toBe(false);
  });

  it('a beat killed -9 mid-dispatch leaves no receipt; the next beat takes its lock over at once and records the slot as abandoned', async () => {
    const { repo, child, pidFile } = await beatWithHangingAgent(BUILT_CLI_BIN);
    child.kill('SIGKILL');
    await eventually(() => child.exitCode !== null || child.signalCode !== null, 500_000);
    const agentPid = Number(readFileSync(pidFile, 'utf8'));
    if (isAlive(agentPid)) process.kill(agentPid, 'SIGKILL');
    expect(existsSync(repoPath(repo, '.heartbeat-lock'))).toBe(true);
    expect(await history(repo)).toEqual([]);

    // The lock names its holder's host, pid and start time; `status` says the next beat takes it over.
    const lock = JSON.parse(readFileSync(repoPath(repo, '.heartbeat-lock'), 'utf8')) as Record<string, unknown>;
    expect(lock).toMatchObject({ host: hostname(), pid: child.pid });
    expect(lock.process_start).toMatch(/^\d+$/);
    const shown = io(repo.dir);
    expect(await command(repo)(['status', '--now', '2026-07-22T10:10:00Z'], shown)).toBe(0);
    expect(shown.out.join('')).toContain(
      `Lock: beat ${String(lock.beat_id)} (pid ${child.pid} on host ${hostname()}) since 2026-07-22T10:00:00Z; no longer running on this host: the next beat takes it over at once.`,
    );

    const configPath = repoPath(repo, 'config.yaml');
    writeFileSync(configPath, readFileSync(configPath, 'utf8').replace('"hang"', '"ok"'));
    // Well within stale_lock_hours (4): the holder is dead on this host, so the lock is stale at once.
    const after = io(repo.dir);
    expect(await command(repo)(['beat', '--now', '2026-07-22T10:10:00Z'], after)).toBe(0);
    expect(after.out.join('')).not.toContain('Previous heartbeat still active');
    expect(after.out.join('')).toContain(
      `Cleaned stale lockfile.\nIt was left by beat ${String(lock.beat_id)} (pid ${child.pid} on host ${hostname()}) at 2026-07-22T10:00:00Z, which no longer runs on this host: taken over at once.\n`,
    );
    const receipts = await history(repo);
    expect(receipts.map((r) => [r.slot, r.kind === 'ran' ? 'ran' : r.reason])).toEqual([
      ['2026-07-22T10:00:00.000Z', 'abandoned'],
      ['2026-07-22T10:10:00.000Z', 'ran'],
    ]);
    const free = io(repo.dir);
    expect(await command(repo)(['status', '--now', '2026-07-22T10:20:00Z'], free)).toBe(0);
    expect(free.out.join('')).toContain('\nLock: free.\n');
  });

  // Issue 25 item 2: 33 of 34 SIGKILLs of a beat left its lock, and every later beat skipped for
  // stale_lock_hours. `pnpm stress woterclip-beat-kills` runs this 32 times.
  it('3 beats SIGKILLed mid-dispatch (the real bin): each next beat takes the lock over at once', async () => {
    const repo = makeRepo('hang');
    const configPath = repoPath(repo, 'config.yaml');
    const hanging = readFileSync(configPath, 'utf8');
    for (let kill = 0; kill < 3; kill += 1) {
      const start = Date.parse('2026-07-22T10:00:00Z') + kill * 3_600_000;
      writeFileSync(configPath, hanging);
      const { child, pidFile } = await beatWithHangingAgent(BUILT_CLI_BIN, { repo, now: new Date(start).toISOString() });
      child.kill('SIGKILL');
      await eventually(() => child.exitCode !== null || child.signalCode !== null, 500_000);
      const agentPid = Number(readFileSync(pidFile, 'utf8'));
      if (isAlive(agentPid)) process.kill(agentPid, 'SIGKILL');
      expect(existsSync(repoPath(repo, '.heartbeat-lock'))).toBe(true);
      // Five minutes later on the beat clock: far younger than stale_lock_hours (4).
      writeFileSync(configPath, hanging.replace('"hang"', '"ok"'));
      const next = await runBuiltBeat(repo, new Date(start + 5 * 60_000).toISOString());
      expect(next.output).not.toContain('Previous heartbeat still active');
      expect(next.output).toContain('Cleaned stale lockfile.\nIt was left by beat ');
      expect(next.output).toContain('which no longer runs on this host: taken over at once.');
      expect(next.code).toBe(0);
      expect(existsSync(repoPath(repo, '.heartbeat-lock'))).toBe(false);
      // The follower closed the issue; reopen it for the next round.
      const state = JSON.parse(readFileSync(repo.state, 'utf8')) as { issues: { state: string; labels: string[] }[] };
      for (const issue of state.issues) Object.assign(issue, { state: 'OPEN', labels: ['backend'] });
      writeFileSync(repo.state, JSON.stringify(state));
    }
  });
});

describe('heartbeat-kit woterclip beat under Ctrl-C and SIGTERM', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('%s mid-dispatch: exit %i, no "gh auth login", no beat line, lock released, receipt partial', async (signal, expected) => {
    const { repo, child, pidFile, output, closed } = await beatWithHangingAgent(BUILT_CLI_BIN);
    child.kill(signal);
    expect(await closed).toBe(expected);
    expect(isAlive(Number(readFileSync(pidFile, 'utf8')))).toBe(false); // the agent's group was ended
    expect(output()).toContain('Interrupted by a signal: the beat stopped; no beat line written. #12 may keep agent-working');
    expect(output()).not.toMatch(/gh auth login|GitHub failed/);
    expect(existsSync(repoPath(repo, '.heartbeat-lock'))).toBe(false);
    expect(existsSync(repoPath(repo, 'heartbeat-log.jsonl')) ? logLines(repo).filter((l) => l.type === 'beat') : []).toEqual([]);
    expect(ghState(repo).issues[0]?.comments).toEqual([]);
    const listed = io(repo.dir);
    expect(await command(repo)(['history', '--json', '--now', '2026-07-23T00:00:00Z'], listed)).toBe(0);
    expect((JSON.parse(listed.out.join('')) as { receipts: unknown[] }).receipts).toEqual([
      expect.objectContaining({ kind: 'ran', source: 'woterclip', partial: true, cutOff: ['#12'] }),
    ]);
  });
});

/**
 * A real `woterclip beat` (the built bin, gh on PATH) whose agent hangs: resolves once the agent
 * is running, so the caller can signal or kill the beat mid-dispatch.
 */
async function beatWithHangingAgent(bin: string, options: { readonly repo?: Repo; readonly now?: string } = {}) {
  const repo = options.repo ?? makeRepo('hang');
  const pidFile = `${repo.agentLog}.pid`;
  rmSync(pidFile, { force: true });
  const { child, output, closed } = spawnBuiltBeat(repo, options.now ?? '2026-07-22T10:00:00Z', bin);
  expect(await eventually(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8') !== '', 500_000)).toBe(true);
  return { repo, child, pidFile, output, closed };
}

/** `woterclip beat --now AT` as a process of the built bin, the fake gh first on PATH. */
function spawnBuiltBeat(repo: Repo, at: string, bin = BUILT_CLI_BIN) {
  const ghDir = join(repo.dir, 'bin');
  if (!existsSync(ghDir)) {
    mkdirSync(ghDir);
    symlinkSync(fakeGh, join(ghDir, 'gh'));
  }
  const child = spawn(process.execPath, [bin, 'woterclip', 'beat', '--now', at], {
    cwd: repo.dir,
    env: { PATH: `${ghDir}:${process.env.PATH ?? ''}`, FAKE_GH_STATE: repo.state, AGENT_LOG: repo.agentLog, HOME: repo.dir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
  return { child, output: () => output, closed };
}

/** Runs one built-bin beat to its end. */
async function runBuiltBeat(repo: Repo, at: string): Promise<{ code: number | null; output: string }> {
  const { output, closed } = spawnBuiltBeat(repo, at);
  const code = await closed;
  return { code, output: output() };
}

function repoPath(repo: Repo, file: string): string {
  return join(repo.dir, '.woterclip', file);
}
