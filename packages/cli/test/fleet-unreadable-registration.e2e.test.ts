/**
 * A hand-edited fleet registration, at the built bin on a real redis-server: the workers skip an
 * entry that does not read as a heartbeat, so `fleet list` and `fleet status` must say so on
 * stderr (text and --json alike) instead of leaving a heartbeat that never runs out silently.
 */
import { describe, expect, it } from 'vitest';
import { useRedis } from '../../bullmq/test/support/redis-server.js';
import { useBuiltCli, useTempDirs } from './support/cli-world.js';

const built = useBuiltCli();
const tempDir = useTempDirs();
const redis = useRedis();

describe('heartbeat-kit fleet list / status with an unreadable registration', () => {
  it('lists the readable heartbeats and warns of the unreadable one by id and reason, exit 0', async () => {
    const env = { PATH: process.env.PATH, HOME: tempDir('hk-fleet-unreadable-'), HEARTBEAT_KIT_REDIS: redis.server.url };
    const prefix = ['--prefix', 'edited'];
    for (const id of ['good', 'bad']) {
      const added = await built.run(['fleet', 'add', id, '--scanners', 'fake', '--interval', '600', ...prefix], env);
      expect(added.code, added.stderr).toBe(0);
    }
    await redis.client.hset('{edited}:registry', 'bad', '{"id": "bad", "intervalMs":');
    await redis.client.hset('{edited}:registry', 'odd\u001b[2J', JSON.stringify({ id: 'odd', intervalMs: 1 }));

    const warning = (command: string, id: string, why: string) =>
      `heartbeat-kit fleet ${command}: warning: registration ${id} is unreadable (${why}); no worker runs it; \`fleet remove\` drops it, \`fleet add\` with its id replaces it`;
    const listed = await built.run(['fleet', 'list', ...prefix], env);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/^good +every 600s {2}scanners:fake\n$/);
    const lines = listed.stderr.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^heartbeat-kit fleet list: warning: registration "bad" is unreadable \(not JSON: .+\); no worker runs it;/);
    // The terminal never sees the escape a hand edit put in an id.
    expect(lines[1]).toBe(warning('list', '"odd\\u001b[2J"', 'intervalMs: Too small: expected number to be >=250'));

    const json = await built.run(['fleet', 'list', '--json', ...prefix], env);
    expect(json.code).toBe(0);
    expect((JSON.parse(json.stdout) as { id: string }[]).map((h) => h.id)).toEqual(['good']);
    // --json: each warning is one {"warning"} line, as every command's.
    const warnings = json.stderr
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { warning: string; command: string });
    expect(warnings.map((w) => w.command)).toEqual(['fleet list', 'fleet list']);
    expect(warnings[1]?.warning).toBe(
      warning('list', '"odd\\u001b[2J"', 'intervalMs: Too small: expected number to be >=250').replace(
        'heartbeat-kit fleet list: warning: ',
        '',
      ),
    );

    const status = await built.run(['fleet', 'status', ...prefix], env);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toMatch(/^good /);
    expect(status.stderr).toContain('heartbeat-kit fleet status: warning: registration "bad" is unreadable (not JSON: ');
  });
});
