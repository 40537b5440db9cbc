/**
 * Issue 28 item 3 ("acks and pauses from the operators issue"): a check is acked and paused like
 * a built-in scanner, with the built bin: `ack CHECK_DISK` holds the check's finding, `pause
 * --scanner ci` (a check's name) stops that check alone and every cycle says it was not looked at.
 */
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBuiltCli, useCliWorlds } from './support/cli-world.js';
import { WORLD_HEARTBEAT_MD } from './support/world.js';

interface CycleJson {
  readonly status: string;
  readonly findings: { readonly category: string; readonly fingerprint: string }[];
  readonly suppressed: { readonly fingerprint: string; readonly reason: string }[];
  readonly coverage: { readonly lookedAt: string[]; readonly notLookedAt: string[] };
}

const newWorld = useCliWorlds();
const cli = useBuiltCli();

const CHECKS_MD = `${WORLD_HEARTBEAT_MD}
## Checks
- name: disk
  - run: [.claude/checks/disk.sh]
- name: ci
  - run: [.claude/checks/ci.sh]
`;

function writeScript(project: string, name: string, body: string): void {
  const dir = join(project, '.claude', 'checks');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, name), `#!/bin/sh\n${body}\n`);
  chmodSync(join(dir, name), 0o755);
}

describe('acks and pauses of ## Checks (built bin)', () => {
  it('ack CHECK_DISK holds the check finding; pause --scanner ci stops that check alone; resume runs it again', async () => {
    const world = newWorld({ heartbeatMd: CHECKS_MD });
    writeScript(world.project, 'disk.sh', 'echo "disk / is 93% full"');
    writeScript(world.project, 'ci.sh', 'echo "CI failed on main"');
    const scope = ['--cwd', world.project, '--tmux-socket', world.tmuxSocket];
    const statePath = join(world.project, '.git', 'heartbeat-kit', 'state.json');
    const cycle = async (at: string) => JSON.parse((await cli.runAt(at, ['cycle', ...scope, '--json'], world.env)).stdout) as CycleJson;

    const first = await cycle('2026-02-19T14:00:00Z');
    expect(first.findings.map((f) => f.category)).toEqual(expect.arrayContaining(['CHECK_DISK', 'CHECK_CI']));
    const disk = first.findings.find((f) => f.category === 'CHECK_DISK')!.fingerprint;

    const acked = await cli.runAt(
      '2026-02-19T14:01:00Z',
      ['ack', 'CHECK_DISK', '--for', '4h', '--note', 'ordering a disk', '--cwd', world.project],
      world.env,
    );
    expect(acked).toMatchObject({ code: 0, stderr: '' });
    // Past the 30-minute dedup window the disk finding would be repeated: the ack holds it.
    const held = await cycle('2026-02-19T14:40:00Z');
    expect(held.suppressed).toEqual(expect.arrayContaining([expect.objectContaining({ fingerprint: disk, reason: 'ack' })]));
    expect(held.findings.map((f) => f.category)).not.toContain('CHECK_DISK');

    // A check's name is a scanner name to pause; an unknown name still is exit 2 naming the checks.
    const unknown = await cli.runAt('2026-02-19T14:41:00Z', ['pause', '--scanner', 'cj', '--note', 'x', '--cwd', world.project], world.env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/--scanner: unknown scanner "cj"\. Fix: name one of .*, disk, ci\./);
    expect(existsSync(join(world.project, '.git', 'heartbeat-kit', 'state.pause.json'))).toBe(false);
    const paused = await cli.runAt(
      '2026-02-19T14:41:00Z',
      ['pause', '--scanner', 'ci', '--for', '1h', '--note', 'CI migration', '--cwd', world.project],
      world.env,
    );
    expect(paused.code).toBe(0);
    const during = await cycle('2026-02-19T15:00:00Z');
    expect(during.coverage.notLookedAt).toContain('ci');
    expect(during.coverage.lookedAt).toContain('disk');
    expect(during.findings.map((f) => f.category)).not.toContain('CHECK_CI');

    expect((await cli.run(['resume', '--cwd', world.project, '--state', statePath], world.env)).code).toBe(0);
    const after = await cycle('2026-02-19T15:10:00Z');
    expect(after.coverage.lookedAt).toEqual(expect.arrayContaining(['ci', 'disk']));
  }, 900_000);
});
