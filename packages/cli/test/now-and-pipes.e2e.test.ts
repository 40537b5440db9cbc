import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILT_CLI_BIN } from './support/built-cli.js';
import { frozenClockEnv } from './support/fake-time.js';
import { runCli } from './support/run-cli.js';
import { useCliWorlds } from './support/cli-world.js';

const createCliWorld = useCliWorlds();

describe('one strict ISO-8601 parser for every --now', () => {
  it('2026-02-30T10:00:00Z is rejected with exit 2 and one line naming the fix, by every command that takes --now', async () => {
    const world = createCliWorld({});
    const runbook = join(world.root, 'RUNBOOK.md');
    writeFileSync(runbook, '# Heartbeat\n');
    mkdirSync(join(world.project, '.woterclip'));
    const bad = ['--now', '2026-02-30T10:00:00Z'];
    const commands = [
      ['cycle', '--cwd', world.project, '--tmux-socket', world.tmuxSocket, ...bad],
      ['cycle', '--cwd', world.project, '--operator-last-active', '2026-02-30T10:00:00Z'],
      ...['check', 'due', 'prune', 'tick', 'boot-triage', 'gate-report'].map((sub) => ['runbook', sub, runbook, ...bad]),
      ['woterclip', 'beat', '--cwd', world.project, ...bad],
      ['woterclip', 'status', '--cwd', world.project, ...bad],
    ];
    for (const argv of commands) {
      const run = await runCli(argv, { cwd: world.root, env: world.env });
      expect({ argv, code: run.code }).toEqual({ argv, code: 2 });
      expect(run.stdout).toBe('');
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toMatch(
        /"2026-02-30T10:00:00Z" has no day 30 in month 02 of 2026\. Fix: use an ISO-8601 instant with a zone, e\.g\. --[a-z-]+ 2026-02-19T14:50:00Z\./,
      );
    }
    const noZone = await world.cli('cycle', '--cwd', world.project, '--now', '2026-02-19T14:50:00');
    expect(noZone.code).toBe(2);
    expect(noZone.stderr).toMatch(/has no time zone/);
  });
});

describe('a closed stdout ends the command quietly', () => {
  // Python runs the CLI with stdout on a pipe whose read end is closed before the CLI starts, so the
  // very first write fails with EPIPE, on any machine speed (like `| head -0` when head won).
  function withClosedStdout(argv: readonly string[], env: Record<string, string | undefined>): Promise<{ code: number; stderr: string }> {
    const harness = [
      'import json, os, subprocess, sys',
      'r, w = os.pipe()',
      'os.close(r)',
      'p = subprocess.run(json.loads(sys.argv[1]), stdout=w, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)',
      'sys.stdout.write(json.dumps({"code": p.returncode, "stderr": p.stderr.decode()}))',
    ].join('\n');
    return new Promise((done, fail) => {
      execFile('python3', ['-c', harness, JSON.stringify([process.execPath, BUILT_CLI_BIN, ...argv])], { env }, (error, stdout) => {
        if (error) fail(new Error(`python3 harness failed: ${error.message}`));
        else done(JSON.parse(stdout) as { code: number; stderr: string });
      });
    });
  }

  it('cycle | head -0: no EPIPE stack trace, exit 0', async () => {
    const world = createCliWorld({ ready: [{ id: 'bd-p0', title: 'Prod down', priority: 0 }] });
    const run = await withClosedStdout(
      ['cycle', '--cwd', world.project, '--tmux-socket', world.tmuxSocket],
      // A real cycle at 14:50 (inside active hours): `--now` would rehearse and say so on stderr.
      { ...world.env, ...frozenClockEnv('2026-02-19T14:50:00Z') },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
  });

  it('loop --json with its reader gone stops like a shutdown request: no stack trace, exit 0', async () => {
    const world = createCliWorld({ ready: [{ id: 'bd-p0', title: 'Prod down', priority: 0 }] });
    const run = await withClosedStdout(
      ['loop', '--json', '--cwd', world.project, '--tmux-socket', world.tmuxSocket, '--interval', '1'],
      world.env,
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
  });
});
