/**
 * Spec 000, SHUTDOWN PROTOCOL: "Complete current scan if in-progress (do not interrupt mid-scan)"
 * (issue 24 item 4). The built bin as a real process, signalled alone — as `kill PID` and systemd's
 * KillMode=mixed do — while a fake `bd` is still answering: the first SIGTERM/SIGINT lets the scan
 * finish and its report go out; a second one cuts the scan off (partial, said). A signal to the
 * tools' own process group stays partial too (cut-off.e2e.test.ts).
 *
 * No test waits a fixed time: `bd` blocks until the test releases it, the test signals once `bd`
 * has started, and releases it once heartbeat-kit has said it is draining (or has exited).
 */
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILT_CLI_BIN } from './support/built-cli.js';
import { frozenClockEnv, runningClockEnv } from './support/fake-time.js';
import { useCliWorlds, type CliWorld } from './support/cli-world.js';

const createCliWorld = useCliWorlds({ endProcesses: true });

type StopSignal = 'SIGINT' | 'SIGTERM';

/** The first signal's stderr line (see `drainNotice`). */
function notice(command: string, signal: StopSignal): string {
  const again = signal === 'SIGINT' ? 'press Ctrl-C (or send SIGINT) again' : 'send SIGTERM again';
  return `heartbeat-kit ${command}: ${signal}: finishing the scan in flight (at most 30 s) and delivering its report, then stopping; ${again} to stop now (the scan is then cut off: partial).\n`;
}

/** Polls until `predicate` holds, however long a loaded machine takes (vitest's timeout is the backstop). */
async function until(predicate: () => boolean): Promise<void> {
  while (!predicate()) await new Promise((resolve) => setTimeout(resolve, 20));
}

/**
 * Makes every `bd` call mark that it started, then wait for the release file before answering as
 * the world's fake bd does. A cut-off kills the waiting shell with its process group.
 */
function blockBd(world: CliWorld): { readonly started: () => boolean; readonly release: () => void } {
  const started = join(world.root, 'bd-started');
  const release = join(world.root, 'bd-release');
  renameSync(join(world.fakeBin, 'bd'), join(world.fakeBin, 'bd-answers'));
  writeFileSync(
    join(world.fakeBin, 'bd'),
    [
      '#!/bin/sh',
      `: > '${started}'`,
      `while [ ! -e '${release}' ]; do sleep 0.05; done`,
      `exec '${join(world.fakeBin, 'bd-answers')}' "$@"`,
      '',
    ].join('\n'),
  );
  chmodSync(join(world.fakeBin, 'bd'), 0o755);
  return { started: () => existsSync(started), release: () => writeFileSync(release, '') };
}

/** The built bin, running; its output so far and its exit code once it closed. */
interface Running {
  readonly pid: number;
  readonly stdout: () => string;
  readonly stderr: () => string;
  readonly exited: () => boolean;
  readonly code: Promise<number | null>;
  /** Sends `signal` to heartbeat-kit alone (not to its tools' process groups), unless it already exited. */
  readonly signal: (signal: StopSignal) => void;
}

/** `heartbeat-kit ...args` over the world's project; a loop or cycle also gets the world's tmux server. */
function start(world: CliWorld, ...args: string[]): Running {
  return startWith(world, world.env, args);
}

/** {@link start} with the process's OS clock stopped at `at`: a real run at that instant (`--now` only rehearses). */
function startAt(world: CliWorld, at: string, ...args: string[]): Running {
  return startWith(world, { ...world.env, ...(args[0] === 'loop' ? runningClockEnv(at) : frozenClockEnv(at)) }, args);
}

function startWith(world: CliWorld, env: Record<string, string | undefined>, args: readonly string[]): Running {
  const scope = args[0] === 'history' ? ['--cwd', world.project] : ['--cwd', world.project, '--tmux-socket', world.tmuxSocket];
  const child = spawn(process.execPath, [BUILT_CLI_BIN, ...args, ...scope], {
    cwd: world.root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let done = false;
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = new Promise<number | null>((resolve) =>
    child.on('close', (exitCode) => {
      done = true;
      resolve(exitCode);
    }),
  );
  return {
    pid: child.pid ?? -1,
    stdout: () => stdout,
    stderr: () => stderr,
    exited: () => done,
    code,
    signal: (signal) => {
      if (!done) process.kill(child.pid ?? -1, signal);
    },
  };
}

/** The first signal once bd is answering; returns when heartbeat-kit said it drains (or exited: the old behaviour). */
async function signalMidScan(run: Running, bd: ReturnType<typeof blockBd>, signal: StopSignal, command: string): Promise<void> {
  await until(() => bd.started() || run.exited());
  run.signal(signal);
  await until(() => run.stderr().includes(notice(command, signal)) || run.exited());
}

/** Whether the loop closed a slot: its receipt is written after the cycle returned, so it is between cycles. */
function receiptWritten(world: CliWorld): boolean {
  const dir = join(world.project, '.git', 'heartbeat-kit', 'state.receipts');
  if (!existsSync(dir)) return false;
  return readdirSync(dir).some((name) => name.endsWith('.jsonl') && statSync(join(dir, name)).size > 0);
}

const P1 = { id: 'bd-p1', title: 'Ship it', priority: 1 } as const;
const SIGNALS: readonly StopSignal[] = ['SIGTERM', 'SIGINT'];

describe('spec 000 SHUTDOWN PROTOCOL: "Complete current scan if in-progress (do not interrupt mid-scan)"', () => {
  it.each(SIGNALS)(
    'loop: a first %s while bd answers does not interrupt mid-scan: the ready P1 is reported, then HEARTBEAT_SHUTDOWN with 1 cycle completed, 1 report sent, exit 0',
    async (signal) => {
      const world = createCliWorld({ ready: [P1] });
      const bd = blockBd(world);
      const loop = startAt(world, '2026-02-19T14:00:00Z', 'loop', '--interval', '3600');
      await signalMidScan(loop, bd, signal, 'loop');
      bd.release();
      expect(await loop.code).toBe(0);
      expect(loop.stderr()).toBe(notice('loop', signal));
      const lines = loop.stdout().trimEnd().split('\n');
      expect(lines[0]).toBe('HEARTBEAT_ONLINE: Work-finder loop starting. Interval: 3600s. Active hours: 8-22. HEARTBEAT.md: found.');
      expect(loop.stdout()).toContain('WORK_FOUND: P1_WORK_READY');
      expect(loop.stdout()).toContain("P1 READY: bd-p1 'Ship it'");
      expect(lines.at(-1)).toBe('HEARTBEAT_SHUTDOWN: Final status -- 1 cycles completed, 1 reports sent.');
    },
  );

  it.each(SIGNALS)(
    'cycle: a first %s while bd answers does not interrupt mid-scan: the report is printed and the cycle exits with its own code, 0',
    async (signal) => {
      const world = createCliWorld({ ready: [P1] });
      const bd = blockBd(world);
      const cycle = startAt(world, '2026-02-19T14:10:00Z', 'cycle');
      await signalMidScan(cycle, bd, signal, 'cycle');
      bd.release();
      expect(await cycle.code).toBe(0);
      expect(cycle.stderr()).toBe(notice('cycle', signal));
      expect(cycle.stdout()).toMatch(/^WORK_FOUND: P1_WORK_READY\n/);
      expect(cycle.stdout()).toContain("P1 READY: bd-p1 'Ship it'");
      // A complete cycle: its receipt is neither partial nor undelivered.
      const history = start(world, 'history', '--json', '--now', '2026-02-19T14:15:00Z');
      expect(await history.code).toBe(0);
      const receipts = (JSON.parse(history.stdout()) as { receipts: Record<string, unknown>[] }).receipts;
      expect(receipts).toEqual([expect.objectContaining({ kind: 'ran', status: 'report', delivery: 'delivered' })]);
      expect(receipts[0]?.partial).toBeUndefined();
    },
  );

  it.each(SIGNALS)(
    'loop: a second %s cuts the scan off: HEARTBEAT_SHUTDOWN counts it partial and names the scanners, exit 0',
    async (signal) => {
      const world = createCliWorld({ ready: [P1] });
      const bd = blockBd(world); // never released: only the cut-off ends bd
      const loop = startAt(world, '2026-02-19T14:00:00Z', 'loop', '--interval', '3600');
      await signalMidScan(loop, bd, signal, 'loop');
      loop.signal(signal);
      expect(await loop.code).toBe(0);
      expect(loop.stderr()).toMatch(
        new RegExp(`^${escape(notice('loop', signal))}heartbeat-kit: warning: [a-z, -]*beads[a-z, -]* cut off: bd was aborted; fix: `),
      );
      expect(loop.stdout()).not.toContain('WORK_FOUND');
      expect(loop.stdout().trimEnd().split('\n').at(-1)).toMatch(
        /^HEARTBEAT_SHUTDOWN: Final status -- 0 cycles completed, 1 partial \(cut off: [a-z, -]*beads[a-z, -]*\), 0 reports sent\.$/,
      );
    },
  );

  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('cycle: a second %s cuts the scan off: partial, said, no HEARTBEAT_OK, exit %i', async (signal, expected) => {
    const world = createCliWorld({ ready: [P1] });
    const bd = blockBd(world);
    const cycle = startAt(world, '2026-02-19T14:10:00Z', 'cycle');
    await signalMidScan(cycle, bd, signal, 'cycle');
    cycle.signal(signal);
    expect(await cycle.code).toBe(expected);
    expect(cycle.stdout()).toBe('');
    expect(cycle.stderr()).toMatch(new RegExp(`^${escape(notice('cycle', signal))}`));
    expect(cycle.stderr()).toMatch(
      /^heartbeat-kit cycle: partial cycle: a signal cut off [a-z, -]*beads[a-z, -]*; what they watch was not looked at\.$/m,
    );
  });

  it('loop: a SIGTERM between cycles stops at once (nothing to finish): no draining line, exit 0', async () => {
    const world = createCliWorld({ ready: [P1] });
    // An hour to the next slot: only an immediate stop ends this test before vitest's backstop.
    const loop = startAt(world, '2026-02-19T14:00:00Z', 'loop', '--interval', '3600');
    await until(() => receiptWritten(world) || loop.exited());
    loop.signal('SIGTERM');
    expect(await loop.code).toBe(0);
    expect(loop.stderr()).toBe('');
    expect(loop.stdout().trimEnd().split('\n').at(-1)).toBe('HEARTBEAT_SHUTDOWN: Final status -- 1 cycles completed, 1 reports sent.');
  });
});

/** `text` as a literal in a RegExp. */
function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
