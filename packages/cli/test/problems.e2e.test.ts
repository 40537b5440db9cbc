/**
 * Issue 10 item 2 through the CLI: whatever a cycle could not look at is said — one stderr line per
 * problem in text mode (stdout stays exactly HEARTBEAT_OK), a `problems` list with --json — every
 * cycle, for `cycle` and for each slot of `loop`.
 */
import { rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './support/run-cli.js';
import { WORLD_HEARTBEAT_MD } from './support/world.js';
import { useCliWorlds } from './support/cli-world.js';

const createCliWorld = useCliWorlds();

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

interface JsonProblem {
  scanner: string;
  kind: string;
  severity: string;
  code: string;
  message: string;
  fix: string;
}

describe('a cycle says what it could not look at', () => {
  it('no beads database: stdout is exactly HEARTBEAT_OK, stderr one line naming the three scanners and the fix, then what was looked at, every cycle', async () => {
    const world = createCliWorld();
    rmSync(join(world.root, 'bd'), { recursive: true }); // the fake bd now answers "no beads database found"
    for (const at of ['2026-02-19T14:10:00Z', '2026-02-19T14:20:00Z']) {
      const run = await world.cycleAt(at);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe('HEARTBEAT_OK\n');
      expect(run.stderr).toBe(
        "heartbeat-kit: beads, orchestrators, stale-tasks skipped: no beads database found; fix: run 'bd init' in the project, or point BEADS_DIR at its .beads directory; ignore this if the project uses no beads\n" +
          'heartbeat-kit: looked at: git, idle-orchestrators, pipelines; not looked at: beads, orchestrators, stale-tasks; not set up: gchat\n',
      );
    }
    const json = JSON.parse((await world.cycleAt('2026-02-19T14:30:00Z', '--json')).stdout) as {
      status: string;
      problems: JsonProblem[];
    };
    expect(json.status).toBe('ok');
    expect(json.problems.filter((p) => p.code === 'SCANNER_SKIPPED').map((p) => p.scanner)).toEqual([
      'beads',
      'orchestrators',
      'stale-tasks',
      'gchat',
    ]);
    expect(json.problems.find((p) => p.scanner === 'gchat')).toMatchObject({ severity: 'unused' });
  });

  it('a configured poll command whose script is missing is a warning about the script, never "no OAuth2 credentials"', async () => {
    const world = createCliWorld({
      heartbeatMd: `${WORLD_HEARTBEAT_MD}\n## GChat\n- Poll command: ["python3", "${join('/nonexistent', 'gchat-poll-replies.py')}"]\n`,
    });
    const run = await world.cycleAt('2026-02-19T14:10:00Z');
    expect(run.stdout).toBe('HEARTBEAT_OK\n');
    expect(run.stderr).toMatch(
      /^heartbeat-kit: warning: gchat skipped: GChat poll script not found: \S*python3: can't open file .*; fix: correct the script path in "Poll command:" under "## GChat" in HEARTBEAT\.md\nheartbeat-kit: looked at: beads, orchestrators, git, stale-tasks, idle-orchestrators, pipelines; not looked at: gchat\n$/,
    );
    expect(run.stderr).not.toMatch(/OAuth2|credentials/);
    const json = JSON.parse((await world.cycleAt('2026-02-19T14:20:00Z', '--json')).stdout) as { problems: JsonProblem[] };
    expect(json.problems).toEqual([expect.objectContaining({ scanner: 'gchat', kind: 'skipped', severity: 'warning' })]);
  });

  it('poll exit 2 (the script has no token) is the no-credentials warning with its fix', async () => {
    const world = createCliWorld({ gchat: { stdout: '', exitCode: 2 } });
    const run = await world.cycleAt('2026-02-19T14:10:00Z');
    expect(run.stdout).toBe('HEARTBEAT_OK\n');
    expect(run.stderr).toBe(
      "heartbeat-kit: warning: gchat: No OAuth2 credentials configured for GChat polling; fix: put a valid token in .claude/credentials/google-chat-token.json (the poll script's OAuth2 token)\n",
    );
  });

  it('an Expected: list that cannot be checked (no tmux on PATH) is a warning', async () => {
    const world = createCliWorld({ heartbeatMd: `${WORLD_HEARTBEAT_MD}\n## Orchestrators\n- Expected: orch-auth\n` });
    // A PATH with the fake bd, git and python3 but no tmux.
    const bin = join(world.root, 'bin');
    for (const tool of ['git', 'python3']) {
      const real = (process.env.PATH ?? '')
        .split(':')
        .map((d) => join(d, tool))
        .find(isFile);
      if (real) writeFileSync(join(bin, tool), `#!/bin/sh\nexec ${real} "$@"\n`, { mode: 0o755 });
    }
    const run = await runCli(['cycle', '--cwd', world.project, '--now', '2026-02-19T14:10:00Z'], {
      cwd: world.root,
      env: { ...world.env, PATH: bin },
    });
    expect(run.stdout).toBe('HEARTBEAT_OK\n');
    expect(run.stderr).toContain(
      'heartbeat-kit: warning: orchestrators skipped: tmux not found on PATH; fix: install tmux so the Expected: sessions (1) can be checked\n',
    );
  });

  it('loop: every slot says its problems', async () => {
    const world = createCliWorld();
    rmSync(join(world.root, 'bd'), { recursive: true });
    const controller = new AbortController();
    let stdout = '';
    let stderr = '';
    const { main } = await import('../src/main.js');
    const lines = (): number => stderr.split('\n').filter((l) => l.includes('no beads database found')).length;
    const running = main(['loop', '--cwd', world.project, '--tmux-socket', world.tmuxSocket, '--interval', '1'], {
      stdout: (t) => void (stdout += t),
      stderr: (t) => {
        stderr += t;
        if (lines() >= 2) controller.abort();
      },
      cwd: world.root,
      env: world.env,
      shutdownSignal: controller.signal,
    });
    expect(await running).toBe(0);
    expect(lines()).toBeGreaterThanOrEqual(2);
    expect(stdout).not.toContain('no beads database');
  });
});

describe('outside active hours, plain text says what was not looked at', () => {
  const NIGHT = '2026-02-19T23:00:00Z'; // a Thursday; the world's active hours are 8–22 UTC

  it('cycle: stdout stays exactly HEARTBEAT_OK, stderr one line naming the hours and the skipped scanners, then what was looked at; --json has the coverage', async () => {
    const world = createCliWorld();
    const run = await world.cycleAt(NIGHT);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('HEARTBEAT_OK\n');
    expect(run.stderr).toBe(
      'heartbeat-kit: outside active hours (08:00–22:00 UTC): skipped git, stale-tasks, idle-orchestrators, pipelines\n' +
        'heartbeat-kit: looked at: beads, orchestrators; not looked at: git, stale-tasks, idle-orchestrators, pipelines; not set up: gchat\n',
    );
    const json = await world.cycleAt('2026-02-19T23:10:00Z', '--json');
    expect(json.stderr).toBe('');
    const parsed = JSON.parse(json.stdout) as { insideActiveHours: boolean; scanners: { name: string; status: string; note?: string }[] };
    expect(parsed.insideActiveHours).toBe(false);
    expect(parsed.scanners.filter((s) => s.status === 'skipped' && s.note === 'outside active hours').map((s) => s.name)).toEqual([
      'git',
      'stale-tasks',
      'idle-orchestrators',
      'pipelines',
    ]);
  });

  it('cycle on a weekend with weekends off names the weekday-only window', async () => {
    const world = createCliWorld({ heartbeatMd: WORLD_HEARTBEAT_MD.replace('- Weekend: true', '- Weekend: false') });
    const run = await world.cycleAt('2026-02-21T10:00:00Z'); // Saturday, inside the hours
    expect(run.stdout).toBe('HEARTBEAT_OK\n');
    expect(run.stderr).toBe(
      'heartbeat-kit: outside active hours (08:00–22:00 UTC, weekdays only): skipped git, stale-tasks, idle-orchestrators, pipelines\n' +
        'heartbeat-kit: looked at: beads, orchestrators; not looked at: git, stale-tasks, idle-orchestrators, pipelines; not set up: gchat\n',
    );
  });

  it('inside active hours nothing is added', async () => {
    const world = createCliWorld();
    const run = await world.cycleAt('2026-02-19T14:00:00Z');
    expect(run.stdout).toBe('HEARTBEAT_OK\n');
    expect(run.stderr).toBe('');
  });

  it('loop: a slot outside active hours says it on stderr, stdout carries only the loop messages', async () => {
    const world = createCliWorld();
    // The loop's first wait comes after its first slot's cycle: stop there, whatever the old code printed.
    const { code, stdout, stderr } = await world.loopUntilFirstWait('--interval', '600', '--now', NIGHT);
    expect(code).toBe(0);
    expect(stderr).toContain(
      'heartbeat-kit: outside active hours (08:00–22:00 UTC): skipped git, stale-tasks, idle-orchestrators, pipelines\n',
    );
    expect(stderr.match(/outside active hours/g)).toHaveLength(1);
    expect(stdout).toContain('HEARTBEAT_ONLINE');
    expect(stdout).not.toContain('outside active hours');
  });
});
