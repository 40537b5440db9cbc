import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type TestRedis } from '../../../bullmq/test/support/redis-server.js';
import { runCli } from '../../test/support/run-cli.js';
import type { CliIo } from '../io.js';
import { main } from '../main.js';

let redis: TestRedis;
let root: string;
beforeAll(async () => {
  redis = await startRedis();
  root = mkdtempSync(join(tmpdir(), 'hb-fleet-cli-'));
});
afterAll(async () => {
  await redis.stop();
  rmSync(root, { recursive: true, force: true });
});

const run = (argv: readonly string[], signal?: AbortSignal) =>
  runCli(['fleet', ...argv], { cwd: root, env: { HEARTBEAT_KIT_REDIS: redis.url }, ...(signal ? { signal } : {}) });
// A real write at that instant (the CLI's clock set there): `--now` only rehearses.
const runAt = (at: string, argv: readonly string[]) =>
  runCli(['fleet', ...argv], { cwd: root, env: { HEARTBEAT_KIT_REDIS: redis.url }, at });

describe('heartbeat-kit fleet ack / unack', () => {
  it("acks a registered heartbeat's finding in Redis, lists it, refuses unknown heartbeats and selectors, unacks", async () => {
    expect((await run(['add', 'acks-hb', '--scanners', 'fake'])).code).toBe(0);
    const unknownHeartbeat = await run(['ack', 'nobody', 'GIT_STALE', '--note', 'x']);
    expect(unknownHeartbeat.code).toBe(2);
    expect(unknownHeartbeat.stderr).toContain('no heartbeat "nobody" in this fleet. Fix: ');
    const unknownSelector = await run(['ack', 'acks-hb', 'NOPE:x', '--note', 'x']);
    expect(unknownSelector.code).toBe(2);
    expect(unknownSelector.stderr).toMatch(/SELECTOR "NOPE:x" matches no known finding .* Fix: /);
    expect(JSON.parse((await run(['ack', 'acks-hb', '--list', '--json'])).stdout)).toEqual({ acks: [], warnings: [] });
    const rehearsal = await run(['ack', 'acks-hb', 'GIT_STALE:/w/x', '--note', 'try', '--now', '2026-02-19T15:00:00Z']);
    expect(rehearsal).toMatchObject({
      code: 0,
      stderr: 'heartbeat-kit fleet ack: rehearsal at 2026-02-19T15:00:00.000Z (--now): nothing was written.\n',
    });
    expect(rehearsal.stdout).toMatch(/^would ack acks-hb: ack-/);
    expect(JSON.parse((await run(['ack', 'acks-hb', '--list', '--json'])).stdout)).toEqual({ acks: [], warnings: [] });
    const acked = await runAt('2026-02-19T15:00:00Z', [
      'ack',
      'acks-hb',
      'GIT_STALE:/w/x',
      '--for',
      '4h',
      '--note',
      'rebasing',
      '--by',
      'alice',
      '--json',
    ]);
    expect(acked.code, acked.stderr).toBe(0);
    expect(JSON.parse(acked.stdout)).toMatchObject({
      id: 'acks-hb',
      ack: { selector: 'GIT_STALE:/w/x', by: 'alice', note: 'rebasing', until: '2026-02-19T19:00:00.000Z', active: true },
    });
    const listed = await run(['ack', 'acks-hb', '--list']);
    expect(listed.stdout).toMatch(
      /^ack-[0-9a-f]+ {2}GIT_STALE:\/w\/x {2}by alice at 2026-02-19T15:00:00.000Z, until 2026-02-19T19:00:00.000Z.*: rebasing\n$/,
    );
    expect((await run(['unack', 'acks-hb', 'NOPE'])).code).toBe(2);
    const removed = await run(['unack', 'acks-hb', 'GIT_STALE:/w/x']);
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain('unacked acks-hb: ack-');
    expect((await run(['ack', 'acks-hb', '--list'])).stdout).toBe('no acks for acks-hb\n');
  });
});

describe('heartbeat-kit fleet pause / resume', () => {
  it('pauses a registered heartbeat in Redis, replaces the pause, refuses unknown heartbeats, resumes', async () => {
    expect((await run(['add', 'pause-hb', '--scanners', 'fake'])).code).toBe(0);
    const unknown = await run(['pause', 'nobody', '--note', 'x']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no heartbeat "nobody" in this fleet. Fix:');
    expect(await redis.client().exists('{hbk:hb:nobody}:pause')).toBe(0);
    const rehearsal = await run(['pause', 'pause-hb', '--note', 'deploying', '--for', '2h', '--now', '2026-02-19T10:00:00Z']);
    expect(rehearsal).toMatchObject({ code: 0, stdout: 'would pause pause-hb: paused until 2026-02-19T12:00:00.000Z: deploying\n' });
    expect(await redis.client().exists('{hbk:hb:pause-hb}:pause')).toBe(0);
    const paused = await runAt('2026-02-19T10:00:00Z', ['pause', 'pause-hb', '--note', 'deploying', '--for', '2h', '--json']);
    expect(paused.code, paused.stderr).toBe(0);
    expect(JSON.parse(paused.stdout)).toEqual({
      id: 'pause-hb',
      paused: { v: 1, note: 'deploying', since: '2026-02-19T10:00:00.000Z', until: '2026-02-19T12:00:00.000Z' },
      key: '{hbk:hb:pause-hb}:pause',
    });
    // It never ran (no worker): only the pause keeps liveness at 0, and only while it is in force.
    const live = await run(['liveness', 'pause-hb', '--now', '2026-02-19T10:30:00Z']);
    expect(live.code, live.stderr).toBe(0);
    expect(live.stdout).toBe('pause-hb paused until 2026-02-19T12:00:00.000Z: deploying\n');
    expect(JSON.parse((await run(['liveness', 'pause-hb', '--now', '2026-02-19T10:30:00Z', '--json'])).stdout)).toMatchObject({
      live: true,
      paused: { note: 'deploying' },
    });
    expect((await run(['liveness', 'pause-hb', '--now', '2026-02-19T12:00:00Z'])).code).toBe(1);
    const again = await run(['pause', 'pause-hb', '--note', 'git only', '--scanner', 'git', '--except-critical']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('replaced the earlier pause of pause-hb (paused until 2026-02-19T12:00:00.000Z: deploying)');
    expect(again.stdout).toContain('(scanners git; except Immediate findings');
    // The first pause ended long ago (it was set --now in February); this one has no end.
    const status = await run(['status']);
    expect(status.stdout).toMatch(/^pause-hb .*\n {21}paused since \S+ \(no end: until resume\) \(scanners git; .*\): git only\n/m);
    const entries = JSON.parse((await run(['status', '--json'])).stdout) as { heartbeat: { id: string }; pause?: { note: string } }[];
    expect(entries.find((entry) => entry.heartbeat.id === 'pause-hb')?.pause?.note).toBe('git only');
    const resumed = await run(['resume', 'pause-hb', '--json']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ id: 'pause-hb', resumed: true, pause: { note: 'git only', scanners: ['git'] } });
    const nothing = await run(['resume', 'pause-hb']);
    expect(nothing.code).toBe(0);
    expect(nothing.stdout).toBe('pause-hb is not paused: nothing to resume\n');
    expect((await run(['liveness', 'pause-hb'])).code).toBe(1);
  });
});

describe('heartbeat-kit fleet: usage', () => {
  it('prints help for the command and every subcommand', async () => {
    expect((await run(['--help'])).stdout).toContain('fleet <worker|add|list|remove|status|history|liveness|ack|unack|pause|resume>');
    for (const sub of ['worker', 'add', 'list', 'remove', 'status', 'history', 'liveness', 'ack', 'unack', 'pause', 'resume']) {
      const help = await run([sub, '--help']);
      expect(help.code, sub).toBe(0);
      expect(help.stdout).toContain(`heartbeat-kit fleet ${sub}`);
    }
    expect((await run([])).code).toBe(2);
  });

  it.each([
    [['bogus'], "unknown subcommand 'bogus'"],
    [['add', 'a__b', '--scanners', 'fake'], 'is not a heartbeat ID'],
    [['add', 'x'], 'exactly one of --cwd DIR or --scanners fake'],
    [['add', 'x', '--cwd', '.', '--scanners', 'fake'], 'exactly one of --cwd DIR or --scanners fake'],
    [['add', 'x', '--scanners', 'fake', '--interval', '0.1'], '--interval "0.1" is shorter than 250 milliseconds.'],
    [
      ['add', 'x', '--scanners', 'fake', '--interval', '10m of nothing'],
      '--interval "10m of nothing" has "of nothing" after the duration.',
    ],
    [['add', 'x', '--scanners', 'fake', '--scan-ms', '5 or so'], '--scan-ms "5 or so" has "or so" after the duration.'],
    [['add', 'x', '--scanners', 'slow'], 'unknown scanner set'],
    [['list', '--concurrency', '3'], '--concurrency does not apply'],
    [['remove'], 'needs exactly one heartbeat ID'],
    [['list', '--redis', 'http://127.0.0.1:1'], 'unsupported scheme'],
    [['worker', '--sink', 'nope:x'], 'unknown --sink'],
  ])('%j is a one-line usage error with a fix (exit 2)', async (argv, text) => {
    const result = await run(argv);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(text);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('a Redis that does not answer fails fast with exit 3', async () => {
    const result = await run(['list', '--redis', `unix://${join(root, 'missing.sock')}`]);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('cannot reach Redis');
    expect(result.stderr).toContain('Fix:');
  });

  it('never prints the password of a Redis URL', async () => {
    const refused = await runCli(['fleet', 'list'], { cwd: root, env: { HEARTBEAT_KIT_REDIS: 'redis://app:s3cret@127.0.0.1:1' } });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('cannot reach Redis at redis://app:***@127.0.0.1:1');
    expect(refused.stderr).not.toContain('s3cret');
    const malformed = await run(['list', '--redis', 'redis://app:s3cret@']);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).not.toContain('s3cret');
  });
});

describe('heartbeat-kit fleet: add, list, worker, status, remove', () => {
  it('runs registered heartbeats in a worker and reports their status', async () => {
    const prefix = ['--prefix', 'cli'];
    expect((await run(['add', 'fake-one', '--scanners', 'fake', '--interval', '0.3', '--report-every', '3', ...prefix])).stdout).toBe(
      'added fake-one: every 0.3s, scanners:fake\n',
    );
    const project = mkdtempSync(join(root, 'project-'));
    expect((await run(['add', 'project-one', '--cwd', project, '--interval', '600', ...prefix])).code).toBe(0);
    const listed = await run(['list', '--json', ...prefix]);
    expect(JSON.parse(listed.stdout)).toEqual([
      { id: 'fake-one', intervalMs: 300, source: { kind: 'scanners', set: 'fake', scanMs: 0, reportEvery: 3 } },
      { id: 'project-one', intervalMs: 600_000, source: { kind: 'project', cwd: project } },
    ]);

    const sink = join(root, 'reports.jsonl');
    const stop = new AbortController();
    const worker = run(['worker', '--concurrency', '2', '--sink', `file:${sink}`, ...prefix], stop.signal);
    // However long a loaded machine takes (the test timeout is the backstop).
    while (!(existsSync(sink) && readFileSync(sink, 'utf8').split('\n').filter(Boolean).length >= 2))
      await new Promise((resolve) => setTimeout(resolve, 100));
    stop.abort();
    const finished = await worker;
    expect(finished.code).toBe(0);
    expect(finished.stderr).toContain('running (prefix cli)');

    const lines = readFileSync(sink, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: string; heartbeatId: string; message: { content: string } });
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines.filter((l) => l.heartbeatId === 'fake-one').map((l) => l.id)).toEqual(
      lines
        .filter((l) => l.heartbeatId === 'fake-one')
        .map((l) => l.id)
        .filter((id, i, all) => all.indexOf(id) === i),
    );
    expect(lines[0]!.message.content).toContain('WORK_FOUND');

    const status = await run(['status', '--json', ...prefix]);
    const entries = JSON.parse(status.stdout) as {
      heartbeat: { id: string };
      lastCycle?: number;
      lastReportSummary?: string;
      nextSlotAt?: string;
      lastLagMs?: number;
    }[];
    const fake = entries.find((e) => e.heartbeat.id === 'fake-one')!;
    expect(fake.lastCycle).toBeGreaterThanOrEqual(2);
    expect(fake.lastReportSummary).toContain('crashed');
    expect(fake.nextSlotAt).toMatch(/^\d{4}-/);
    expect(typeof fake.lastLagMs).toBe('number');
    const text = await run(['status', ...prefix]);
    expect(text.stdout).toMatch(/^fake-one\s+every 0\.30s\s+cycle \d+/m);

    // Every committed cycle left its receipt: history lists them, one `ran` per cycle number.
    const history = await run(['history', 'fake-one', '--json', ...prefix]);
    expect(history.code).toBe(0);
    const { receipts } = JSON.parse(history.stdout) as { receipts: { kind: string; source: string; cycle?: number; delivery?: string }[] };
    const ran = receipts.filter((r) => r.kind === 'ran');
    expect(ran.length).toBeGreaterThanOrEqual(2);
    expect(ran.every((r) => r.source === 'fleet')).toBe(true);
    expect(new Set(ran.map((r) => r.cycle)).size).toBe(ran.length);
    expect(ran.some((r) => r.delivery === 'queued')).toBe(true);
    expect((await run(['history', 'fake-one', ...prefix])).stdout).toMatch(/ fleet\s+ran\s+cycle #1 report, delivery queued/);
    expect((await run(['history', 'fake-one', '--since', '2999-01-01T00:00:00Z', ...prefix])).stdout).toMatch(
      /^no receipts for fake-one since/,
    );
    expect((await run(['history', 'fake-one', '--since', 'yesterday', ...prefix])).code).toBe(2);

    // Liveness of one fleet heartbeat (issue 15 item 4), judged at chosen instants after its last run.
    const lastAt = Date.parse((receipts as { kind: string; at?: string }[]).filter((r) => r.kind === 'ran').at(-1)!.at!);
    const at = (ms: number) => new Date(lastAt + ms).toISOString();
    const alive = await run(['liveness', 'fake-one', '--now', at(500), ...prefix]);
    expect(alive).toMatchObject({ code: 0 });
    expect(alive.stdout).toMatch(/^alive: fake-one cycle #\d+ ran at .* \(0\.50s ago, max 0\.90s\)\n/);
    const stopped = await run(['liveness', 'fake-one', '--now', at(3_600_000), '--json', ...prefix]);
    expect(stopped.code).toBe(1);
    const verdict = JSON.parse(stopped.stdout) as { live: boolean; reason: string; message: string };
    expect(verdict).toMatchObject({ live: false, reason: 'stopped' });
    expect(verdict.message).toMatch(/\(fleet cycle #\d+, 60 min ago\)/);
    expect((await run(['liveness', 'fake-one', '--now', at(3_600_000), '--max-age', '2h', ...prefix])).code).toBe(0);
    const never = await run(['liveness', 'never-added', '--max-age', '5m', ...prefix]);
    expect(never).toMatchObject({
      code: 1,
      stdout: 'not alive (never-ran): never-added: no receipts: no fleet cycle has run for this state yet.\n',
    });
    expect((await run(['liveness', 'never-added', ...prefix])).stderr).toMatch(/never-added is not registered .*Fix:/);
    expect((await run(['liveness', 'fake-one', '--max-age', 'soon', ...prefix])).code).toBe(2);

    expect((await run(['remove', 'fake-one', ...prefix])).stdout).toBe('removed fake-one\n');
    const again = await run(['remove', 'fake-one', ...prefix]);
    expect(again.code).toBe(1);
    expect(again.stdout).toBe('fake-one was not registered\n');
    expect((await run(['list', ...prefix])).stdout).not.toContain('fake-one');
  });
});

describe('heartbeat-kit fleet: a project with ## Checks (issue 28 item 3: "the fleet worker (checks run where the heartbeat\'s project is)")', () => {
  it("a worker runs the project's check in the project directory and delivers its finding", async () => {
    const prefix = ['--prefix', 'checks'];
    const project = mkdtempSync(join(root, 'checked-'));
    mkdirSync(join(project, '.claude'), { recursive: true });
    // The check prints the directory it ran in: the project's, not the worker's.
    writeFileSync(join(project, 'where.sh'), '#!/bin/sh\necho "ran in $(pwd)"\n');
    chmodSync(join(project, 'where.sh'), 0o755);
    // outside-hours: run: on the real clock the worker's cycles run at any hour (without it this test hung 22:00–08:00 UTC).
    writeFileSync(
      join(project, '.claude', 'HEARTBEAT.md'),
      '## Checks\n- name: where\n  - run: [./where.sh]\n  - priority: Immediate\n  - outside-hours: run\n',
    );
    expect((await run(['add', 'checked', '--cwd', project, '--interval', '1', ...prefix])).code).toBe(0);

    const sink = join(root, 'checks.jsonl');
    const stop = new AbortController();
    const worker = run(['worker', '--sink', `file:${sink}`, ...prefix], stop.signal);
    // However long a loaded machine takes (the test timeout is the backstop).
    while (!(existsSync(sink) && readFileSync(sink, 'utf8').includes('CHECK_WHERE')))
      await new Promise((resolve) => setTimeout(resolve, 100));
    stop.abort();
    expect((await worker).code).toBe(0);
    const delivered = readFileSync(sink, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { heartbeatId: string; message: { content: string } })
      .find((l) => l.message.content.includes('CHECK_WHERE'))!;
    expect(delivered.heartbeatId).toBe('checked');
    expect(delivered.message.content).toContain(`ran in ${realpathSync(project)}`);
    const history = JSON.parse((await run(['history', 'checked', '--json', ...prefix])).stdout) as {
      receipts: { kind: string; checks?: { ran: string[] } }[];
    };
    expect(history.receipts.find((r) => r.kind === 'ran')?.checks?.ran).toEqual(['where']);
  });
});

describe('heartbeat-kit fleet: Redis credentials and outages (issue 12 item 7)', () => {
  // A worker's stderr as it is written, so the test can act between its lines.
  function startWorker(url: string, signal: AbortSignal, ...extra: string[]): { stderr: () => string; done: Promise<number> } {
    let stderr = '';
    const io: CliIo = {
      stdout: () => undefined,
      stderr: (t) => void (stderr += t),
      cwd: root,
      env: { HEARTBEAT_KIT_REDIS: url },
      shutdownSignal: signal,
      stdin: () => Promise.resolve(''),
    };
    return { stderr: () => stderr, done: main(['fleet', 'worker', '--fake-scanners', '--prefix', 'outage', ...extra], io) };
  }
  const until = async (check: () => boolean): Promise<void> => {
    while (!check()) await new Promise((resolve) => setTimeout(resolve, 50));
  };

  it('a wrong or missing password is an authentication error with the fix, never "start redis-server"', async () => {
    const locked = await startRedis({ password: 'right-pass' });
    try {
      for (const url of [`unix://${locked.socket}?password=n0t-the-pass`, `unix://${locked.socket}`]) {
        for (const sub of ['list', 'worker']) {
          const result = await runCli(['fleet', sub], { cwd: root, env: { HEARTBEAT_KIT_REDIS: url } });
          expect(result.code, `${sub} ${url}`).toBe(3);
          expect(result.stderr).toMatch(
            new RegExp(
              `^heartbeat-kit fleet ${sub}: Redis at unix://\\S+ refused the credentials \\(authentication error: (WRONGPASS|NOAUTH)`,
            ),
          );
          expect(result.stderr).toContain("Fix: put the server's password in the URL");
          expect(result.stderr).not.toContain('start redis-server');
          expect(result.stderr).not.toContain('retrying');
          expect(result.stderr).not.toContain('n0t-the-pass');
          expect(result.stderr.trim().split('\n')).toHaveLength(1);
        }
      }
      expect((await runCli(['fleet', 'list'], { cwd: root, env: { HEARTBEAT_KIT_REDIS: locked.url } })).code).toBe(0);
    } finally {
      await locked.stop();
    }
  });

  it('a worker started during a Redis outage retries with logged backoff and runs once Redis is up', async () => {
    const dir = mkdtempSync(join(root, 'outage-'));
    const stop = new AbortController();
    const worker = startWorker(`unix://${join(dir, 'redis.sock')}`, stop.signal);
    await until(() => worker.stderr().includes('(attempt 1)'));
    expect(worker.stderr()).toMatch(
      /^heartbeat-kit fleet worker: warning: cannot reach Redis at unix:\/\/\S+ \(attempt 1\): .*; retrying in 1s \(gives up after 10 min; Ctrl-C stops\)\n/,
    );
    const late = await startRedis({ dir });
    try {
      await until(() => worker.stderr().includes('running (prefix outage)'));
      stop.abort();
      expect(await worker.done).toBe(0);
    } finally {
      await late.stop();
    }
  }, 900_000);

  it('--json (issue 25 item 10a): each retry is {"warning"}, "running" and a stop while waiting are {"info"}, never {"error"}', async () => {
    const objects = (text: string) =>
      text
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    const stop = new AbortController();
    const waiting = startWorker(`unix://${join(root, 'never-json.sock')}`, stop.signal, '--json');
    await until(() => waiting.stderr().includes('(attempt 1)'));
    stop.abort();
    expect(await waiting.done).toBe(0);
    const lines = objects(waiting.stderr());
    expect(lines[0]).toEqual({
      warning: expect.stringMatching(/^cannot reach Redis at unix:\/\/\S+ \(attempt 1\): /) as unknown,
      command: 'fleet worker',
    });
    expect(lines.at(-1)).toEqual({
      info: expect.stringMatching(/^stopped while waiting for Redis at /) as unknown,
      command: 'fleet worker',
    });
    expect(lines.filter((l) => 'error' in l)).toEqual([]);

    const stopRunning = new AbortController();
    const running = startWorker(redis.url, stopRunning.signal, '--json');
    await until(() => running.stderr().includes('running (prefix outage)'));
    stopRunning.abort();
    expect(await running.done).toBe(0);
    expect(objects(running.stderr())).toContainEqual({
      info: expect.stringMatching(/^\S+ running \(prefix outage\), tick watchdog every 30 seconds; stop with Ctrl-C$/) as unknown,
      command: 'fleet worker',
    });
    expect(objects(running.stderr()).filter((l) => 'error' in l)).toEqual([]);
  });

  it('Ctrl-C stops a worker that is still waiting for Redis', async () => {
    const stop = new AbortController();
    const worker = startWorker(`unix://${join(root, 'never.sock')}`, stop.signal);
    await until(() => worker.stderr().includes('(attempt 1)'));
    stop.abort();
    expect(await worker.done).toBe(0);
    expect(worker.stderr()).toContain('stopped while waiting for Redis');
    expect(worker.stderr()).not.toContain('running (prefix');
  });
});
