import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBuiltCli } from './support/cli-world.js';

// `heartbeat-kit fleet` as a real process against a TCP listener standing in for Redis: it counts
// connections and closes each at once, so a command that connects before it has read all its flags
// is seen connecting (an add then fails with exit 3, a worker retries for 10 minutes).
const cli = useBuiltCli();

let server: Server;
let redisUrl: string;
const connections: Socket[] = [];
beforeAll(async () => {
  server = createServer((socket) => {
    connections.push(socket);
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  redisUrl = `redis://127.0.0.1:${address.port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

interface Outcome {
  readonly code: number | null;
  readonly stderr: string;
  readonly connected: boolean;
}

/**
 * Runs `heartbeat-kit fleet ...argv` until it exits or connects to the listener, whichever comes
 * first; a process that connected is killed (a worker would otherwise retry for minutes).
 */
async function runFleet(argv: readonly string[]): Promise<Outcome> {
  const before = connections.length;
  const child = cli.spawn(['fleet', ...argv, '--redis', redisUrl], { PATH: process.env.PATH });
  let exited: number | null | undefined;
  void child.exited.then((code) => (exited = code));
  while (exited === undefined && connections.length === before) await new Promise((resolve) => setTimeout(resolve, 20));
  const connected = connections.length > before;
  if (exited === undefined) {
    child.child.kill('SIGKILL');
    await child.exited;
  }
  return { code: exited ?? null, stderr: child.stderr(), connected };
}

describe('heartbeat-kit fleet: every flag and argument is checked before Redis is contacted', () => {
  it('a valid command does connect (the listener sees it)', async () => {
    const listed = await runFleet(['list']);
    expect(listed.connected).toBe(true);
  });

  it.each([
    [['add', 'x', '--scanners', 'fake', '--interval', '10 minutes of nothing'], '--interval "10 minutes of nothing" has "of nothing"'],
    [['add', 'x', '--scanners', 'fake', '--interval', '8d'], '--interval "8d" is longer than 7 days'],
    [['add', 'x', '--scanners', 'fake', '--interval', '0.1'], '--interval "0.1" is shorter than'],
    [['add', 'x', '--scanners', 'fake', '--scan-ms', 'soon'], '--scan-ms "soon"'],
    [['add', 'x', '--scanners', 'fake', '--scan-ms', '11m'], '--scan-ms "11m" is longer than 10 minutes'],
    [['add', 'x', '--scanners', 'fake', '--report-every', 'often'], '--report-every "often" must be a number'],
    [['add', 'x', '--cwd', '.', '--scan-ms', '5'], '--scan-ms and --report-every only apply to --scanners fake'],
    [['add', 'x'], 'exactly one of --cwd DIR or --scanners fake'],
    [['add', 'x', '--scanners', 'slow'], 'unknown scanner set "slow"'],
    [['add', 'a__b', '--scanners', 'fake'], '"a__b" is not a heartbeat ID'],
    [['remove', 'a__b'], '"a__b" is not a heartbeat ID'],
    [['worker', '--concurrency', 'lots'], '--concurrency "lots" must be a number'],
    [['worker', '--concurrency', '0'], '--concurrency "0" must be a number ≥ 1'],
    [['worker', '--lock-ttl', '30 seconds or so'], '--lock-ttl "30 seconds or so" has "or so"'],
    [['worker', '--lock-ttl', '0.5'], '--lock-ttl "0.5" is shorter than 1 second'],
    [['worker', '--tick-watchdog', '0.5'], '--tick-watchdog "0.5" is shorter than 1 second'],
    [['worker', '--tick-watchdog', '2h'], '--tick-watchdog "2h" is longer than 1 hour'],
    [['worker', '--tick-watchdog', 'often'], '--tick-watchdog "often"'],
    [['worker', '--sink', 'nope:x'], 'unknown --sink "nope:x"'],
    [['worker', '--sink', 'webhook:ftp://host/x'], '--sink webhook: only http(s) URLs'],
    [['history', 'a__b'], '"a__b" is not a heartbeat ID'],
    [['history', 'my-repo', '--since', 'yesterday'], '--since'],
    [['liveness', 'my-repo', '--max-age', 'soon'], '--max-age "soon"'],
    [['liveness', 'my-repo', '--now', 'noon'], '--now'],
    [['ack', 'my-repo', 'GIT_STALE', '--for', '4 hours please', '--note', 'x'], '--for "4 hours please" has "please" after the duration'],
    [['ack', 'my-repo', 'GIT_STALE'], '--note is required'],
    [['ack', 'my-repo', 'GIT_STALE', '--note', 'n'.repeat(501)], '--note has 501 characters, more than 500'],
    [
      ['ack', 'my-repo', 'GIT_STALE', '--note', 'x', '--until', '2020-01-01T00:00:00Z'],
      '--until 2020-01-01T00:00:00.000Z is not after now',
    ],
    [['ack', 'my-repo'], 'needs a heartbeat ID and a SELECTOR'],
    [['unack', 'a__b', 'GIT_STALE'], '"a__b" is not a heartbeat ID'],
    [['pause', 'my-repo'], '--note: a pause needs a note saying why'],
    [['pause', 'my-repo', '--note', 'x', '--for', '2h', '--until', '2099-01-01T00:00:00Z'], '--for: --for and --until both say when'],
    [['pause', 'my-repo', '--note', 'x', '--for', 'a while'], '--for: --for "a while"'],
    [['pause', 'my-repo', '--note', 'x', '--until', '2020-01-01T00:00:00Z'], '--until: --until 2020-01-01T00:00:00Z is not later than now'],
    [['pause', 'my-repo', '--note', 'x', '--scanner', 'gti'], '--scanner: unknown scanner "gti"'],
    [['pause', 'my-repo', '--note', 'line\nbreak'], '--note: the note holds control characters'],
    [['pause', 'a__b', '--note', 'x'], '"a__b" is not a heartbeat ID'],
    [['pause', 'my-repo', '--note', 'x', '--snooze'], "--snooze does not apply to 'pause'"],
    [['resume', 'a__b'], '"a__b" is not a heartbeat ID'],
    [['resume'], 'needs exactly one heartbeat ID'],
    [['resume', 'my-repo', '--note', 'x'], "--note does not apply to 'resume'"],
  ])('%j: exit 2 naming the flag and the fix, without connecting', async (argv, text) => {
    const outcome = await runFleet(argv);
    expect(outcome.connected, `connected before checking ${argv.join(' ')}: ${outcome.stderr}`).toBe(false);
    expect(outcome.code, outcome.stderr).toBe(2);
    expect(outcome.stderr).toContain(text);
    expect(outcome.stderr).toContain('Fix');
    expect(outcome.stderr.trim().split('\n')).toHaveLength(1);
  });
});
