/**
 * The system's zone as real Node processes read it from TZ, with a HEARTBEAT.md that names no
 * zone: Node silently uses UTC for a TZ it cannot read (and reports `Etc/Unknown` for an empty
 * one), so the CLI reads TZ itself and names it when it is wrong.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WORLD_HEARTBEAT_MD } from './support/world.js';
import { useBuiltCli, useCliWorlds } from './support/cli-world.js';

const createCliWorld = useCliWorlds();
const built = useBuiltCli();
const NO_ZONE_MD = WORLD_HEARTBEAT_MD.replace('- Timezone: UTC\n', '');

describe('TZ without a zone in HEARTBEAT.md', () => {
  it('a TZ Node cannot read: cycle and plan exit 2 naming TZ and the fix, not HEARTBEAT.md, and never run in UTC silently', async () => {
    const world = createCliWorld({ heartbeatMd: NO_ZONE_MD });
    for (const argv of [['cycle', '--tmux-socket', world.tmuxSocket], ['plan']]) {
      const run = await built.run([...argv, '--cwd', world.project], {
        ...world.env,
        TZ: 'Mars/Olympus',
      });
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain(
        `the environment's TZ="Mars/Olympus" is not a time zone heartbeat-kit can read (Node would silently use UTC)`,
      );
      expect(run.stderr).toContain('Fix: set TZ to an IANA name such as Europe/Berlin');
      expect(run.stderr).not.toContain('HEARTBEAT.md:');
    }
  });

  it('an empty TZ is UTC (as glibc reads it): the cycle runs instead of blaming HEARTBEAT.md for "Etc/Unknown"', async () => {
    const world = createCliWorld({ heartbeatMd: NO_ZONE_MD });
    const run = await built.run(
      ['cycle', '--cwd', world.project, '--tmux-socket', world.tmuxSocket, '--json', '--now', '2026-02-19T14:10:00Z'],
      {
        ...world.env,
        TZ: '',
      },
    );
    expect(run.stderr).not.toContain('Etc/Unknown');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ insideActiveHours: true });
  });

  it('TZ=:Europe/Berlin (glibc’s file form): active hours are Berlin’s', async () => {
    const world = createCliWorld({ heartbeatMd: NO_ZONE_MD });
    // 07:30 UTC is 08:30 in Berlin (inside 8–22) but outside in UTC.
    const run = await built.run(
      ['cycle', '--cwd', world.project, '--tmux-socket', world.tmuxSocket, '--json', '--now', '2026-02-19T07:30:00Z'],
      {
        ...world.env,
        TZ: ':Europe/Berlin',
      },
    );
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ insideActiveHours: true });
  });

  it('runbook: a bad TZ names TZ, not --tz', async () => {
    const world = createCliWorld({ heartbeatMd: NO_ZONE_MD });
    const runbook = join(world.project, 'RUNBOOK.md');
    writeFileSync(runbook, '## Watch Items\n- Check the queue (check 10-15)\n');
    const run = await built.run(['runbook', 'due', runbook], { ...world.env, TZ: 'Mars/Olympus' });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`TZ="Mars/Olympus"`);
    expect(run.stderr).not.toContain('--tz "Mars/Olympus"');
  });
});
