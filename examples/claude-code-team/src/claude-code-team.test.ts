import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { frozenClockEnv } from '../../../packages/cli/test/support/fake-time.js';

const here = (path: string): string => new URL(`../${path}`, import.meta.url).pathname;
const LOOP_SCRIPT = here('heartbeat-loop.sh');
const CONVERTER = here('cycle-to-send-message.mjs');
const TMUX = `hk-cct-${process.pid}`; // a private tmux socket name: never the user's server

// The CLI as this example's README runs it: the package's bin as npm links it (node_modules/.bin),
// built by the test run's global setup (scripts/build-once-for-tests.ts).
const KIT = here('node_modules/.bin/heartbeat-kit');

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'hk-cct-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A project whose every cycle finds one GChat reply (the same one: reported once, then deduplicated). */
function project(name: string, heartbeatMd?: string): string {
  const dir = join(work, name);
  mkdirSync(join(dir, '.claude'), { recursive: true });
  // The heartbeat watches a git repository (and keeps its state in its .git directory).
  spawnSync('git', ['init', '-q', dir], { encoding: 'utf8' });
  const reply = {
    replies: [
      { question_id: 'q-7', session_id: 's-1', reply_text: 'yes, merge it', replied_at: '2026-02-19T14:21:07.000Z', sender_name: 'Alice' },
    ],
    pending_count: 0,
  };
  writeFileSync(join(dir, 'poll.mjs'), `process.stdout.write(${JSON.stringify(JSON.stringify(reply))});\n`);
  writeFileSync(
    join(dir, '.claude', 'HEARTBEAT.md'),
    heartbeatMd ??
      `# Heartbeat Configuration\n## Active Hours\n- Start: 0\n- End: 0\n- Weekend: true\n- Timezone: UTC\n## GChat\n- Poll command: ${JSON.stringify([process.execPath, join(dir, 'poll.mjs')])}\n`,
  );
  return dir;
}

// The spawnSync limits only stop a hung child from blocking the test worker (vitest cannot time out
// a synchronous call); they sit just under vitest's 300 s backstop, far above what a loaded 2-core
// machine needs (a converter run took 36 s at load 90).
function sh(cwd: string, ...args: string[]) {
  const run = spawnSync('sh', [LOOP_SCRIPT, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, HEARTBEAT_KIT: KIT, HEARTBEAT_STOP_TIMEOUT: '60' },
    timeout: 240_000,
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

function convert(input: string, ...args: string[]) {
  const run = spawnSync(process.execPath, [CONVERTER, ...args], { input, encoding: 'utf8', timeout: 240_000 });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

async function waitFor(check: () => boolean, what: string): Promise<void> {
  // Polls without a time assertion: the test fails on the vitest timeout, not on a guess.
  for (;;) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
    if (!existsSync(work)) throw new Error(`gave up waiting for ${what}`);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('cycle --json → SendMessage for the team lead', () => {
  /** `npx heartbeat-kit cycle --json`, the command the README pipes into the converter. */
  function cycleJson(dir: string, now: string): string {
    // A real cycle at `now` (the OS clock stopped there by libfaketime): its state dedups the next one.
    const run = spawnSync(KIT, ['cycle', '--cwd', dir, '--json', '--tmux-socket', TMUX], {
      cwd: dir,
      env: { ...process.env, ...frozenClockEnv(now) },
      encoding: 'utf8',
      timeout: 240_000,
    });
    expect(run.status).toBe(0);
    return run.stdout;
  }

  it('a report becomes one SendMessage input (content + summary); the deduplicated next cycle gives nothing', () => {
    const dir = project('send-message');
    const report = cycleJson(dir, '2026-02-19T14:30:00Z');
    const converted = convert(report, '--to', 'lead');
    expect(converted.code).toBe(0);
    const lines = converted.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const payload = JSON.parse(lines[0]!) as Record<string, string>;
    const original = (JSON.parse(report) as { message: { content: string; summary: string } }).message;
    expect(payload).toEqual({ type: 'message', recipient: 'lead', content: original.content, summary: original.summary });
    expect(payload.content).toMatch(/^WORK_FOUND: GCHAT_REPLY_RECEIVED\n/);

    const quiet = cycleJson(dir, '2026-02-19T14:40:00Z');
    expect(JSON.parse(quiet)).toMatchObject({ status: 'ok', message: null });
    expect(convert(quiet)).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('refuses input that is not heartbeat-kit JSON', () => {
    const run = convert('HEARTBEAT_OK\n');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/not heartbeat-kit JSON/);
    expect(convert('{"hello": 1}\n').code).toBe(1);
  });
});

describe('heartbeat-loop.sh: a real background loop, started and stopped cleanly', () => {
  it('start → ONLINE and a pidfile; one report; stop → SIGTERM, HEARTBEAT_SHUTDOWN, exit 0, pidfile gone', async () => {
    const dir = project('loop');
    const started = sh(dir, 'start', '--', '--cwd', dir, '--interval', '1', '--tmux-socket', TMUX);
    expect(started.stderr).toBe('');
    expect(started.code).toBe(0);
    const pid = Number(/pid (\d+)/.exec(started.stdout)?.[1]);
    expect(readFileSync(join(dir, '.heartbeat', 'loop.pid'), 'utf8').trim()).toBe(String(pid));
    expect(alive(pid)).toBe(true);
    expect(sh(dir, 'status')).toMatchObject({ code: 0, stdout: `heartbeat loop running (pid ${pid})\n` });
    expect(sh(dir, 'start')).toMatchObject({ code: 1, stderr: `heartbeat loop already running (pid ${pid})\n` });

    const log = (): string => readFileSync(join(dir, '.heartbeat', 'loop.log'), 'utf8');
    await waitFor(() => log().includes('WORK_FOUND: GCHAT_REPLY_RECEIVED'), 'the first report');
    expect(log()).toMatch(/^HEARTBEAT_ONLINE: Work-finder loop starting\. Interval: 1s\./m);

    const stopped = sh(dir, 'stop');
    expect(stopped.code).toBe(0);
    // A stop that lands while a cycle's tools run cuts them off: that cycle is counted as partial and
    // its scanners are named (issue 10 item 4); either form is a clean stop.
    expect(stopped.stdout).toMatch(
      /^HEARTBEAT_SHUTDOWN: Final status -- \d+ cycles completed, (\d+ partial \(cut off: [a-z, -]+\), )?1 reports sent\.\n$/,
    );
    expect(alive(pid)).toBe(false);
    expect(existsSync(join(dir, '.heartbeat', 'loop.pid'))).toBe(false);
    expect(sh(dir, 'stop')).toMatchObject({ code: 0, stdout: 'heartbeat loop not running\n' });
    expect(sh(dir, 'status').code).toBe(3);
  });

  it('with a file sink the outbox holds ONLINE, the report and SHUTDOWN, and each becomes a SendMessage', async () => {
    const dir = project('outbox');
    const outbox = join(dir, '.heartbeat', 'outbox.jsonl');
    expect(
      sh(dir, 'start', '--', '--cwd', dir, '--interval', '1', '--tmux-socket', TMUX, '--sink', 'file:.heartbeat/outbox.jsonl').code,
    ).toBe(0);
    await waitFor(() => existsSync(outbox) && readFileSync(outbox, 'utf8').includes('work_found'), 'the report in the outbox');
    const stopped = sh(dir, 'stop');
    expect(stopped.code).toBe(0);
    expect(stopped.stdout).toMatch(/"kind":"shutdown".*HEARTBEAT_SHUTDOWN/);
    const converted = convert(readFileSync(outbox, 'utf8'), '--to', 'team-lead');
    expect(converted.code).toBe(0);
    const payloads = converted.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { recipient: string; content: string; summary: string });
    expect(payloads.map((p) => p.content.split(/[:\n]/)[0])).toEqual(['HEARTBEAT_ONLINE', 'WORK_FOUND', 'HEARTBEAT_SHUTDOWN']);
    expect(payloads.every((p) => p.recipient === 'team-lead' && p.summary !== '')).toBe(true);
  });

  it('a broken HEARTBEAT.md: start fails with the config error and leaves no pidfile', () => {
    const dir = project('broken', '## Active Hours\n- Start: 25\n');
    const started = sh(dir, 'start', '--', '--cwd', dir, '--tmux-socket', TMUX);
    expect(started.code).toBe(1);
    expect(started.stderr).toMatch(/exited at start/);
    expect(started.stderr).toMatch(/HEARTBEAT\.md:2.*Start/);
    expect(existsSync(join(dir, '.heartbeat', 'loop.pid'))).toBe(false);
  });
});
