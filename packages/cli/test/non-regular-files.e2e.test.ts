/**
 * Issue 25 item 6 through the built CLI: a FIFO where the heartbeat reads its own files kept
 * `cycle` running for more than 10 minutes while it held the cycle lock, deaf to SIGTERM, and the
 * next cycle exited 4. Every such file is now opened with O_NONBLOCK (and O_NOFOLLOW among the
 * heartbeat's own files), fstat'ed, and refused or set aside when it is not a regular file; and a
 * second signal ends a process even while a read is stuck in the kernel.
 *
 * Each run is a real process watched with a generous limit (the old code never ends: it is then
 * killed, and the test fails by saying so instead of hanging the suite).
 */
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, constants, existsSync, mkdirSync, openSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventually } from '../../core/test/support/processes.js';
import { useBuiltCli, useCliWorlds, type CliWorld } from './support/cli-world.js';

const createCliWorld = useCliWorlds();
const built = useBuiltCli();

/** Ample on a loaded 2-core machine; a run still going then is the hang this file is about. */
const HANG_LIMIT_MS = 120_000;

interface Ended {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the built bin; fails the test (after killing it) if it has not ended by itself within the limit. */
async function runToEnd(argv: readonly string[], env: Record<string, string | undefined>, cwd?: string): Promise<Ended> {
  const child = spawn(process.execPath, [built.bin(), ...argv], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  let ended: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  child.once('close', (code, signal) => (ended = { code, signal }));
  const byItself = await eventually(() => ended !== undefined, HANG_LIMIT_MS);
  if (!byItself) {
    child.kill('SIGKILL');
    await eventually(() => ended !== undefined);
  }
  expect(byItself, `heartbeat-kit ${argv.join(' ')} did not end by itself (killed); stderr so far: ${stderr}`).toBe(true);
  return { ...ended!, stdout, stderr };
}

function mkfifo(path: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  execFileSync('mkfifo', [path]);
}

const stateOf = (w: CliWorld): string => join(w.root, 'hb', 'state.json');
const cycle = (w: CliWorld, ...extra: string[]) =>
  runToEnd(['cycle', '--cwd', w.project, '--tmux-socket', w.tmuxSocket, '--state', stateOf(w), ...extra], w.env);
const lockOf = (w: CliWorld): string => join(w.root, 'hb', 'cycle.lock');

describe('a FIFO where the heartbeat reads its own files', () => {
  it('state.json: set aside with a warning naming it, the cycle runs and leaves no lock, the next cycle runs', async () => {
    const w = createCliWorld();
    mkfifo(stateOf(w));
    const first = await cycle(w);
    expect(first.code).toBe(0);
    expect(first.stderr).toContain(
      `State file ${stateOf(w)} was unreadable (a FIFO (named pipe), not a regular file); moved it to ${stateOf(w)}.corrupt-`,
    );
    expect(existsSync(lockOf(w))).toBe(false);
    // The save put a regular file back; the FIFO is kept aside, never read.
    expect(readdirSync(join(w.root, 'hb')).filter((n) => n.startsWith('state.json.corrupt-'))).toHaveLength(1);
    const next = await cycle(w);
    expect(next.code).toBe(0);
    expect(next.stderr).not.toMatch(/State file|skipped: another cycle/);
  });

  it('a receipts segment: exit 3 naming the file and the fix, no lock left; the next cycle is not skipped; once moved, cycles run', async () => {
    const w = createCliWorld();
    expect((await cycle(w)).code).toBe(0);
    const receipts = join(w.root, 'hb', 'state.receipts');
    const [segment] = readdirSync(receipts);
    const fifo = join(receipts, segment!);
    rmSync(fifo);
    mkfifo(fifo);
    for (const run of [await cycle(w), await cycle(w)]) {
      expect(run.code).toBe(3);
      expect(run.stderr).toContain(
        `${fifo} is a FIFO (named pipe), not a regular file; reading or writing one can block forever. Fix: move it away or replace it with a regular file.\n`,
      );
      expect(run.stderr).not.toContain('. Fix: check that');
      expect(existsSync(lockOf(w))).toBe(false);
    }
    const history = await runToEnd(['history', '--state', stateOf(w)], w.env, w.project);
    expect(history.code).toBe(3);
    expect(history.stderr).toContain(`${fifo} is a FIFO (named pipe)`);
    rmSync(fifo);
    expect((await cycle(w)).code).toBe(0);
  });

  it('HEARTBEAT.md: exit 2 naming the file and the fix, no lock left; once replaced, the cycle runs', async () => {
    const w = createCliWorld();
    const config = join(w.project, '.claude', 'HEARTBEAT.md');
    rmSync(config);
    mkfifo(config);
    const run = await cycle(w);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `config file ${config} is a FIFO (named pipe), not a regular file; reading or writing one can block forever.`,
    );
    expect(existsSync(lockOf(w))).toBe(false);
    rmSync(config);
    writeFileSync(config, '# Heartbeat Configuration\n');
    expect((await cycle(w)).code).toBe(0);
  });

  it('a HEARTBEAT.md linked from a dotfiles checkout is still read; a cycle.lock linked anywhere is refused, its target never shown', async () => {
    const w = createCliWorld();
    const config = join(w.project, '.claude', 'HEARTBEAT.md');
    const dotfile = join(w.root, 'dotfiles-HEARTBEAT.md');
    writeFileSync(dotfile, '# Heartbeat Configuration\n\n## Active Hours\n- Start: 00:00\n- End: 23:59\n- Timezone: UTC\n');
    rmSync(config);
    symlinkSync(dotfile, config);
    expect((await cycle(w)).code).toBe(0);

    const secret = join(w.root, 'secret');
    writeFileSync(secret, 'root:$6$hash:19000:0:99999:7:::\n');
    mkdirSync(join(w.root, 'hb'), { recursive: true });
    symlinkSync(secret, lockOf(w));
    const run = await cycle(w);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(
      `Lock file ${lockOf(w)} is a symbolic link, not a regular file; heartbeat-kit does not follow links among its own files.`,
    );
    expect(run.stderr + run.stdout).not.toContain('root:');
  });

  it('runbook check on a FIFO: exit 3 naming it, at once', async () => {
    const w = createCliWorld();
    const runbook = join(w.root, 'RUNBOOK.md');
    mkfifo(runbook);
    const run = await runToEnd(['runbook', 'check', runbook], w.env, w.root);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(`${runbook} is a FIFO (named pipe), not a regular file`);
  });
});

describe('a read stuck in the kernel', () => {
  // `replay FILE` reads the file the user names, blocking if it is a FIFO (`replay <(…)` is a use);
  // a FIFO whose writer never writes stands in for any read that never returns (a dead NFS server).
  // Node's own exit waits for the stuck libuv thread, so before the fix not even a second SIGTERM
  // ended the process.
  it('a second SIGTERM ends the process (128 + 15 to a shell), however the first was handled', async () => {
    const w = createCliWorld();
    const fifo = join(w.root, 'record.jsonl');
    mkfifo(fifo);
    const child = spawn(process.execPath, [built.bin(), 'replay', fifo], { env: w.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let ended: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    child.once('close', (code, signal) => (ended = { code, signal }));
    // The CLI is in its read once the FIFO has a reader: until then a non-blocking open for writing fails (ENXIO).
    let writer: number | undefined;
    expect(
      await eventually(() => {
        try {
          writer = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
          return true;
        } catch {
          return ended !== undefined;
        }
      }, HANG_LIMIT_MS),
    ).toBe(true);
    expect(ended).toBeUndefined();
    try {
      // SIGTERM until it ends: the first is the graceful request, a later one must end it.
      const byItself = await eventually(() => {
        if (ended === undefined) child.kill('SIGTERM');
        return ended !== undefined;
      }, HANG_LIMIT_MS);
      if (!byItself) child.kill('SIGKILL');
      expect(byItself, 'SIGTERMs did not end a process stuck in a read (killed)').toBe(true);
      expect(ended).toEqual({ code: null, signal: 'SIGTERM' });
    } finally {
      if (writer !== undefined) closeSync(writer);
    }
  });
});
