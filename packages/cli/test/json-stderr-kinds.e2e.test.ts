/**
 * Issue 25 item 10a: with --json every stderr line is one JSON object whose kind says what it is.
 * Informational lines (a dead holder's lock taken over, a slot skipped because another live cycle
 * holds it, a loop waiting for the next slot) are {"info": …}, warnings {"warning": …} (also the
 * located warning lines of a runbook check), and only real errors {"error": …}.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonLockCodec } from '@heartbeat-kit/core/host';
import { processStartMark } from '@heartbeat-kit/core/node';
import { useBuiltCli, useCliWorlds, useTempDirs } from './support/cli-world.js';
import { runCli } from './support/run-cli.js';

const createCliWorld = useCliWorlds();
const built = useBuiltCli();
const tempDir = useTempDirs();

/** The JSON objects of a --json run's stderr, one per line. */
const stderrObjects = (stderr: string): Record<string, unknown>[] =>
  stderr
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
const kindOf = (object: Record<string, unknown>): string | undefined => ['error', 'warning', 'info'].find((k) => k in object);

/** Writes a cycle lock held by a process that is running until the returned kill. */
async function lockHeldBy(project: string): Promise<{ pid: number; kill: () => Promise<void> }> {
  const holder = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  const pid = holder.pid!;
  const start = await processStartMark(pid);
  mkdirSync(join(project, '.git', 'heartbeat-kit'), { recursive: true });
  writeFileSync(
    join(project, '.git', 'heartbeat-kit', 'cycle.lock'),
    jsonLockCodec.encode({
      owner: `${pid}-x`,
      acquiredAtMs: Date.now(),
      pid,
      host: hostname(),
      ...(start === undefined ? {} : { processStart: start }),
    }),
  );
  const exited = new Promise((resolve) => holder.once('exit', resolve));
  return {
    pid,
    kill: async () => {
      holder.kill('SIGKILL');
      await exited;
    },
  };
}

describe('--json stderr kinds (issue 25 item 10a)', () => {
  it('cycle (built bin): a live holder skips the slot as {"info"}, a dead holder’s lock taken over is {"info"}, never {"error"}', async () => {
    const w = createCliWorld();
    const cycle = () => built.runAt('2026-02-19T14:50:00Z', ['cycle', '--cwd', w.project, '--tmux-socket', w.tmuxSocket, '--json'], w.env);
    const holder = await lockHeldBy(w.project);

    const skipped = await cycle();
    expect(skipped.code).toBe(4);
    const skipLines = stderrObjects(skipped.stderr);
    expect(skipLines).toContainEqual({
      info: expect.stringMatching(new RegExp(`^skipped: .*pid ${holder.pid} on .* \\(alive\\)`)) as unknown,
      command: 'cycle',
    });
    expect(skipLines.map(kindOf)).not.toContain('error');

    await holder.kill();
    const run = await cycle();
    expect(run.code).toBe(0);
    const lines = stderrObjects(run.stderr);
    expect(lines).toContainEqual({
      info: expect.stringMatching(
        new RegExp(`^took over ${join(w.project, '.git', 'heartbeat-kit', 'cycle.lock')} from pid ${holder.pid} .*\\(stale\\)\\.$`),
      ) as unknown,
      command: 'cycle',
    });
    expect(lines.map(kindOf)).not.toContain('error');
  }, 900_000);

  it('loop: "a cycle already ran for this slot" is {"info"}', async () => {
    const w = createCliWorld();
    expect((await w.cycle()).code).toBe(0);
    const run = await w.loopUntilFirstWait('--interval', '600', '--json');
    expect(run.code).toBe(0);
    const lines = stderrObjects(run.stderr);
    expect(lines).toContainEqual({ info: expect.stringMatching(/^a cycle already ran for this slot at /) as unknown, command: 'loop' });
    expect(lines.map(kindOf)).not.toContain('error');
  });

  it('runbook: a rejected runbook’s warning lines are {"warning"} and its errors {"error"}; a skipped gate-log line is {"warning"}', async () => {
    const dir = tempDir('hb-json-kinds-', {
      'r.md': '## Watch Items\n- Cert renewal (check 10-25) and delete 10-30. Lift when renewed.\n- no trigger (check 10-26)\n',
      'status.json': JSON.stringify({ version: 1, generatedAt: '2026-10-20T10:00:00Z', agents: [], tasks: [] }),
      'gate.jsonl': `${JSON.stringify({ taskId: 'a', verdict: 'quiet', outcome: 'quiet' })}\nnot json\n`,
    });
    const env = { PATH: process.env.PATH };
    const tick = await runCli(
      ['runbook', 'tick', '--runbook', 'r.md', '--status', 'status.json', '--now', '2026-10-20T10:00:00Z', '--json'],
      {
        cwd: dir,
        env,
      },
    );
    expect(tick.code).toBe(2);
    const lines = stderrObjects(tick.stderr);
    expect(lines.filter((l) => kindOf(l) === 'warning').map((l) => l.warning)).toEqual([
      expect.stringMatching(/^r\.md:2: line 2 \(Watch Items\): "delete 10-30" is read as a bare check date/),
    ]);
    expect(lines.filter((l) => kindOf(l) === 'error').map((l) => l.error)).toEqual([
      expect.stringMatching(/^r\.md:3: line 3 \(Watch Items\): tracked item has no lift trigger/),
      expect.stringMatching(/^r\.md is rejected by 'heartbeat-kit runbook check'/),
    ]);

    const report = await runCli(['runbook', 'gate-report', 'gate.jsonl', '--min-samples', '1', '--json'], { cwd: dir, env });
    expect(report.code).toBe(0);
    expect(stderrObjects(report.stderr)).toEqual([
      { warning: 'skipped gate.jsonl:2: not JSON; each line must be one JSON object', command: 'runbook gate-report' },
    ]);
  });
});
