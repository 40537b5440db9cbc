// Issue 25 item 2, with the BUILT CLI (packages/cli/dist/bin.js), the fake gh and the fake agent of
// packages/woterclip/test/fixtures over a real repository directory: `woterclip beat` is SIGKILLed
// mid-dispatch (its agent hangs; the beat is killed once the agent runs, the agent after it), then a
// follower beat runs with a working agent, a few minutes later on the beat clock — well inside
// stale_lock_hours (4 h). A failure is a follower that does not take the dead beat's lock over at
// once: it skips ("Previous heartbeat still active. Skipping."), exits non-zero, does not print
// "Cleaned stale lockfile." with the reason (the holder no longer runs on this host), or leaves a lock
// behind. Before the fix every follower skipped until the lock was 4 h old (33 of 34 kills left it).
// Scale 1: 32 kills (about 2-4 min on 2 busy cores: a trial is two CLI beats and ~12 fake gh calls).
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { bin, root } from '../support.mjs';

export const name = 'WoterClip beats SIGKILLed mid-dispatch (beat lock)';
export const command = 'npx -y pnpm@10.34.9 stress woterclip-beat-kills';

const fixtures = join(root, 'packages', 'woterclip', 'test', 'fixtures');
const fakeGh = join(fixtures, 'fake-gh', 'gh.mjs');
const agent = join(fixtures, 'fake-agent', 'agent.mjs');

function world() {
  const dir = mkdtempSync(join(tmpdir(), 'hk-stress-beat-'));
  const repo = join(dir, 'repo');
  for (const p of ['orchestrator', 'backend']) {
    mkdirSync(join(repo, '.woterclip', 'personas', p), { recursive: true });
    writeFileSync(join(repo, '.woterclip', 'personas', p, 'config.yaml'), 'required_tools: [gh]\nruntime: {model: opus, max_turns: 30}\n');
    writeFileSync(join(repo, '.woterclip', 'personas', p, 'SOUL.md'), `You are ${p}.`);
  }
  const ghDir = join(dir, 'bin');
  mkdirSync(ghDir);
  chmodSync(fakeGh, 0o755);
  chmodSync(agent, 0o755);
  symlinkSync(fakeGh, join(ghDir, 'gh'));
  return { dir, repo, ghDir, state: join(dir, 'gh-state.json'), agentLog: join(dir, 'agent.log') };
}

/** One issue assigned to the beat's account, and the agent in `mode` (`hang` or `ok`). */
function reset(w, mode) {
  const config = {
    version: 2,
    github: { board_user: 'boss', repo: 'o/r' },
    heartbeat: { max_issues_per_heartbeat: 1, stale_lock_hours: 4 },
    personas: {
      orchestrator: { path: 'personas/orchestrator', label: null, is_default: true },
      backend: { path: 'personas/backend', label: 'backend' },
    },
    dispatch: { command: [agent, mode, '{model}'], fallback: { command: [agent, 'ok', '{model}'], model: 'sonnet' } },
  };
  writeFileSync(join(w.repo, '.woterclip', 'config.yaml'), JSON.stringify(config));
  if (mode === 'hang')
    writeFileSync(
      w.state,
      JSON.stringify({
        repo: 'o/r',
        login: 'octocat',
        authMode: 'ok',
        seq: 100,
        argv: [],
        failures: [],
        labels: ['backend', 'agent-working', 'agent-blocked', 'in-progress', 'in-review'],
        issues: [
          {
            number: 12,
            id: 0,
            title: 'task',
            body: '',
            comments: [],
            labels: ['backend'],
            createdAt: '2026-07-01T00:00:00Z',
            state: 'OPEN',
            assignees: ['octocat'],
            subIssues: [],
          },
        ],
      }),
    );
}

function beat(w, at) {
  const child = spawn(process.execPath, [bin, 'woterclip', 'beat', '--now', at], {
    cwd: w.repo,
    env: { PATH: `${w.ghDir}:${process.env.PATH ?? ''}`, FAKE_GH_STATE: w.state, AGENT_LOG: w.agentLog, HOME: w.dir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const closed = new Promise((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
  return { child, closed, output: () => output };
}

/** Polls until `ready()` holds or the beat ended; true when it holds. */
async function until(ready, ended) {
  let done = false;
  void ended.then(() => (done = true));
  while (!ready()) {
    if (done) return ready();
    await delay(20);
  }
  return true;
}

export async function run({ scale, log }) {
  const kills = Math.max(1, Math.round(32 * scale));
  const w = world();
  const pidFile = `${w.agentLog}.pid`;
  const lock = join(w.repo, '.woterclip', '.heartbeat-lock');
  const problems = [];
  let failures = 0;
  let midDispatch = 0;
  try {
    for (let i = 0; i < kills; i++) {
      reset(w, 'hang');
      if (existsSync(pidFile)) unlinkSync(pidFile);
      const start = Date.parse('2026-07-22T10:00:00Z') + i * 3_600_000 * 24;
      const killed = beat(w, new Date(start).toISOString());
      const dispatched = await until(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8') !== '', killed.closed);
      killed.child.kill('SIGKILL');
      const end = await killed.closed;
      if (existsSync(pidFile)) {
        try {
          process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGKILL');
        } catch {
          // the agent is gone already
        }
      }
      if (!dispatched || end.signal !== 'SIGKILL' || !existsSync(lock)) {
        failures += 1;
        if (problems.length < 5)
          problems.push(
            `kill ${i}: not killed mid-dispatch (dispatched ${dispatched}, ${end.signal ?? end.code}): ${killed.output().trim()}`,
          );
        continue;
      }
      midDispatch += 1;
      reset(w, 'ok');
      const follower = beat(w, new Date(start + 5 * 60_000).toISOString());
      const done = await follower.closed;
      const out = follower.output();
      const ok =
        done.code === 0 &&
        !out.includes('Previous heartbeat still active') &&
        out.includes('Cleaned stale lockfile.\nIt was left by beat ') &&
        out.includes('which no longer runs on this host: taken over at once.') &&
        !existsSync(lock);
      if (!ok) {
        failures += 1;
        if (problems.length < 5)
          problems.push(`kill ${i}: follower exit ${done.code}, lock left ${existsSync(lock)}: ${out.trim().split('\n').join(' | ')}`);
      }
    }
    log(
      `${kills} beats SIGKILLed (${midDispatch} mid-dispatch, lock left); ${midDispatch - failures} followers took the lock over at once, ${failures} failed`,
    );
    for (const p of problems) log(p);
    return { trials: kills, failures, detail: `${kills} SIGKILLs of a beat mid-dispatch, each followed by a beat` };
  } finally {
    rmSync(w.dir, { recursive: true, force: true });
  }
}
