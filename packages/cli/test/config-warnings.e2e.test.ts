/**
 * Issue 12 item 7 end to end: a 10,000-line HEARTBEAT.md full of lines heartbeat-kit does not
 * know prints the first 10 warnings and one summary line per cycle, from the CLI's real entry
 * (the built bin, run as a process), not 10,000 lines.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBuiltCli, useCliWorlds } from './support/cli-world.js';
import { WORLD_HEARTBEAT_MD } from './support/world.js';

const createCliWorld = useCliWorlds();
const built = useBuiltCli();

describe('a HEARTBEAT.md of 10,000 unknown lines', () => {
  it('prints the first 10 warnings, then one summary line, and still runs the cycle', async () => {
    const junk = Array.from({ length: 10_000 }, (_, i) => `- Bogus ${i}: yes`).join('\n');
    const world = createCliWorld({ heartbeatMd: `${WORLD_HEARTBEAT_MD}${junk}\n` });
    const statePath = join(world.root, 'state', 'state.json');
    const run = await built.runAt(
      '2026-02-19T14:00:00Z',
      ['cycle', '--cwd', world.project, '--tmux-socket', world.tmuxSocket, '--state', statePath],
      world.env,
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('HEARTBEAT_OK\n');
    const lines = run.stderr.trimEnd().split('\n');
    const config = lines.filter((line) => line.includes('HEARTBEAT.md:') || line.includes('more warnings'));
    expect(config).toHaveLength(11);
    for (const [i, line] of config.slice(0, 10).entries())
      expect(line).toMatch(
        new RegExp(`^heartbeat-kit cycle: warning: .*HEARTBEAT\\.md:\\d+: unknown key "Bogus ${i}" under Active Hours — ignored\\.$`),
      );
    expect(config[10]).toBe(
      'heartbeat-kit cycle: warning: … and 9990 more warnings like these in the config file (fix the ones above, then run again to see the rest)',
    );
    expect(lines.length).toBeLessThan(20);
  }, 900_000);
});

describe('a HEARTBEAT.md with nothing heartbeat-kit recognises, and an empty one', () => {
  it('free-form notes: one problem line naming the file and the recognised headings; --json lists it under problems', async () => {
    const world = createCliWorld({ heartbeatMd: 'My notes\n\nactive_hours: 9-17\nremember to check the build\n' });
    const run = await world.cycleAt('2026-02-19T14:00:00Z');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('HEARTBEAT_OK\n');
    expect(run.stderr).toMatch(
      /^heartbeat-kit: warning: config: \S+\.claude\/HEARTBEAT\.md has no heading or key heartbeat-kit recognises, so the defaults apply; fix: use "- Key: value" lines under the headings Active Hours, .*\n$/,
    );
    const json = JSON.parse((await world.cycleAt('2026-02-19T14:10:00Z', '--json')).stdout) as {
      config: { presence: string };
      problems: { scanner: string; code: string }[];
    };
    expect(json.config.presence).toBe('found');
    expect(json.problems).toContainEqual(expect.objectContaining({ scanner: 'config', code: 'CONFIG_UNRECOGNISED' }));
  });

  it('an empty file is "empty" in --json and in HEARTBEAT_ONLINE, with no warning', async () => {
    const world = createCliWorld({ heartbeatMd: '  \n\n' });
    const run = await world.cycleAt('2026-02-19T14:00:00Z', '--json');
    expect((JSON.parse(run.stdout) as { config: { presence: string } }).config.presence).toBe('empty');
    const { code, stdout } = await world.loopUntilFirstWait('--now', '2026-02-19T14:00:00Z');
    expect(code).toBe(0);
    expect(stdout.split('\n')[0]).toMatch(/ HEARTBEAT\.md: empty\.$/);
  });
});
