/**
 * Issue 30 item 3 through the built bin: `--ping` / HEARTBEAT.md `Ping:` against a loopback
 * monitor. The ping sequence of a good cycle, a failed scanner and a killed cycle (a real SIGKILL
 * mid-scan: its `/start` is never followed by an end, the next slot pings with its own rid); a
 * monitor that answers 500, refuses or never answers never fails the cycle and is said on stderr
 * and in the receipt; rehearsals never ping.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBuiltCli, useCliWorlds, type CliWorld } from './support/cli-world.js';
import { refusedUrl, usePingReceivers, type PingReceiver } from './support/ping-receiver.js';
import { WORLD_HEARTBEAT_MD } from './support/world.js';

const createCliWorld = useCliWorlds();
const built = useBuiltCli();
const monitor = usePingReceivers();

const scope = (world: CliWorld) => ['--cwd', world.project, '--tmux-socket', world.tmuxSocket];
const cycleAt = (world: CliWorld, at: string, ...extra: string[]) => built.runAt(at, ['cycle', ...scope(world), ...extra], world.env);
/** The pings as `METHOD path` lines with the rid replaced by its order of first appearance (R1, R2, …). */
function sequence(receiver: PingReceiver): string[] {
  const rids: string[] = [];
  return receiver.pings.map((p) => {
    const rid = p.query.rid ?? p.query.series ?? '';
    if (!rids.includes(rid)) rids.push(rid);
    return `${p.method} ${p.path} R${rids.indexOf(rid) + 1}`;
  });
}
async function receipts(world: CliWorld, at: string): Promise<Record<string, unknown>[]> {
  const history = await built.runAt(at, ['history', '--cwd', world.project, '--json'], world.env);
  return (JSON.parse(history.stdout) as { receipts: Record<string, unknown>[] }).receipts;
}

describe('--ping: the Healthchecks.io protocol', () => {
  it('a good cycle, a failed scanner, a killed cycle and the next slot: the sequence the monitor sees', async () => {
    const world = createCliWorld();
    const hc = await monitor();
    const good = await cycleAt(world, '2026-02-19T14:10:00Z', '--ping', hc.url);
    expect(good.code).toBe(0);
    expect(good.stdout).toBe('HEARTBEAT_OK\n');
    expect(good.stderr).not.toContain('ping');

    world.replaceBd('echo "bd: database is locked" >&2; exit 1');
    const failed = await cycleAt(world, '2026-02-19T14:20:00Z', '--ping', hc.url);
    expect(failed.code).toBe(0);

    // Killed mid-scan: bd hangs, the monitor sees /start, then the heartbeat gets a real SIGKILL.
    const bdPid = join(world.root, 'bd.pid');
    world.replaceBd(`echo $$ > ${bdPid}; exec sleep 120`);
    const killed = built.spawnAt('2026-02-19T14:30:00Z', ['cycle', ...scope(world), '--ping', hc.url], world.env);
    await hc.received(5);
    // Mid-scan: bd is running (its pid written) when the SIGKILL comes.
    for (let tries = 0; !existsSync(bdPid) || readFileSync(bdPid, 'utf8').trim() === ''; tries++) {
      if (tries > 600) throw new Error('bd never started');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    killed.child.kill('SIGKILL');
    expect(await killed.exited).toBe(null);
    process.kill(Number(readFileSync(bdPid, 'utf8').trim()), 'SIGKILL');

    world.replaceBd('echo "[]"');
    world.setReady([]);
    const next = await cycleAt(world, '2026-02-19T14:40:00Z', '--ping', hc.url);
    expect(next.code).toBe(0);

    expect(sequence(hc)).toEqual([
      'POST /ping/check-1/start R1',
      'POST /ping/check-1 R1',
      'POST /ping/check-1/start R2',
      'POST /ping/check-1/fail R2',
      'POST /ping/check-1/start R3',
      // R3 (the killed slot) never ends: Healthchecks.io alerts when its grace time runs out.
      'POST /ping/check-1/start R4',
      'POST /ping/check-1 R4',
    ]);
    expect(hc.pings[1]!.body).toBe('cycle #1 HEARTBEAT_OK; delivery none');
    expect(hc.pings[3]!.body).toMatch(/^cycle #2 HEARTBEAT_OK; delivery none; scanners failed: beads/);
    for (const p of hc.pings) expect(p.query.rid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('a delivery that fails pings /3 (the exit code), with the summary saying so', async () => {
    const world = createCliWorld({ ready: [{ id: 'bd-1', title: 'Ship it', priority: 1 }] });
    const hc = await monitor();
    const run = await cycleAt(world, '2026-02-19T14:10:00Z', '--ping', hc.url, '--sink', `command:${join(world.root, 'no-such-command')}`);
    expect(run.code).toBe(3);
    expect(sequence(hc)).toEqual(['POST /ping/check-1/start R1', 'POST /ping/check-1/3 R1']);
    expect(hc.pings[1]!.body).toMatch(/^cycle #1 report \(1 finding\); delivery failed; exit 3$/);
  });

  for (const [name, answer, reason] of [
    ['answers 500', () => 500 as const, 'HTTP 500'],
    ['never answers', () => 'hang' as const, 'no answer within 5000 ms'],
  ] as const)
    it(`a monitor that ${name}: the cycle still exits 0 with HEARTBEAT_OK; stderr and the receipt say the ping failed`, async () => {
      const world = createCliWorld();
      const hc = await monitor(answer);
      const run = await cycleAt(world, '2026-02-19T14:10:00Z', '--ping', hc.url);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe('HEARTBEAT_OK\n');
      const origin = new URL(hc.url).origin;
      expect(run.stderr).toContain(
        `heartbeat-kit cycle: warning: start ping to ${origin} (healthchecks) failed: ${reason}; the cycle is not affected.\n`,
      );
      expect(run.stderr).toContain(
        `heartbeat-kit cycle: warning: end ping to ${origin} (healthchecks) failed: ${reason}; the cycle is not affected.\n`,
      );
      expect(run.stderr).not.toContain('check-1'); // the path is the check's credential
      expect(await receipts(world, '2026-02-19T14:15:00Z')).toEqual([
        expect.objectContaining({ kind: 'ran', status: 'ok', ping: { start: reason, end: reason } }),
      ]);
    });

  it('a refused connection: exit 0, said on stderr, and `history` shows it on the slot', async () => {
    const world = createCliWorld();
    const run = await cycleAt(world, '2026-02-19T14:10:00Z', '--ping', await refusedUrl());
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/warning: end ping to http:\/\/127\.0\.0\.1:\d+ \(healthchecks\) failed: ECONNREFUSED/);
    const history = await built.runAt('2026-02-19T14:15:00Z', ['history', '--cwd', world.project], world.env);
    expect(history.stdout).toContain('(ping failed: start: ECONNREFUSED; end: ECONNREFUSED)');
  });

  it('dry runs and rehearsals never ping', async () => {
    const world = createCliWorld();
    const hc = await monitor();
    expect((await cycleAt(world, '2026-02-19T14:10:00Z', '--ping', hc.url, '--dry-run')).code).toBe(0);
    expect((await world.cycle('--now', '2026-02-19T14:20:00Z', '--ping', hc.url)).code).toBe(0);
    expect(hc.pings).toEqual([]);
  });

  it('a bad --ping or --ping-flavour is exit 2 naming the flag and the fix, and writes nothing', async () => {
    const world = createCliWorld();
    const bad = await cycleAt(world, '2026-02-19T14:10:00Z', '--ping', 'hc-ping.com/abc');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(
      /^heartbeat-kit cycle: --ping: the ping target is not a URL\. Fix: write https:\/\/hc-ping\.com\/<check-uuid>/,
    );
    const flavour = await cycleAt(world, '2026-02-19T14:10:00Z', '--ping', 'https://hc-ping.com/x', '--ping-flavour', 'kuma');
    expect(flavour.code).toBe(2);
    expect(flavour.stderr).toContain('--ping-flavour "kuma" is not a ping protocol. Fix: --ping-flavour healthchecks or cronitor.');
    expect(await receipts(world, '2026-02-19T14:15:00Z')).toEqual([]);
  });
});

describe('HEARTBEAT.md Delivery → Ping: and the Cronitor flavour', () => {
  it('cronitor:URL in HEARTBEAT.md sends state=run then state=complete with the same series and the summary as message', async () => {
    const world = createCliWorld();
    const cronitor = await monitor();
    mkdirSync(join(world.project, '.claude'), { recursive: true });
    writeFileSync(join(world.project, '.claude', 'HEARTBEAT.md'), `${WORLD_HEARTBEAT_MD}\n## Delivery\n- Ping: cronitor:${cronitor.url}\n`);
    const run = await cycleAt(world, '2026-02-19T14:10:00Z');
    expect(run.code).toBe(0);
    expect(cronitor.pings.map((p) => ({ method: p.method, path: p.path, state: p.query.state }))).toEqual([
      { method: 'GET', path: '/ping/check-1', state: 'run' },
      { method: 'GET', path: '/ping/check-1', state: 'complete' },
    ]);
    expect(cronitor.pings[1]!.query).toMatchObject({
      series: cronitor.pings[0]!.query.series,
      message: 'cycle #1 HEARTBEAT_OK; delivery none',
    });
  });

  it("--ping replaces the file's line; a bad Ping: line is a config error naming the file, the key and the fix", async () => {
    const world = createCliWorld();
    const fromFlag = await monitor();
    const fromFile = await monitor();
    mkdirSync(join(world.project, '.claude'), { recursive: true });
    const file = join(world.project, '.claude', 'HEARTBEAT.md');
    writeFileSync(file, `${WORLD_HEARTBEAT_MD}\n## Delivery\n- Ping: ${fromFile.url}\n`);
    expect((await cycleAt(world, '2026-02-19T14:10:00Z', '--ping', fromFlag.url)).code).toBe(0);
    expect(fromFlag.pings).toHaveLength(2);
    expect(fromFile.pings).toEqual([]);
    writeFileSync(file, `${WORLD_HEARTBEAT_MD}\n## Delivery\n- Ping: hc-ping.com/abc\n`);
    const bad = await cycleAt(world, '2026-02-19T14:20:00Z');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Ping');
    expect(bad.stderr).toContain('Fix');
  });
});

describe('loop --ping', () => {
  it("each slot of the loop pings /start and its end with the slot's rid", async () => {
    const world = createCliWorld();
    const hc = await monitor();
    const loop = built.spawnAt('2026-02-19T14:10:00Z', ['loop', ...scope(world), '--ping', hc.url], world.env);
    await hc.received(2);
    loop.child.kill('SIGTERM');
    expect(await loop.exited).toBe(0);
    expect(sequence(hc)).toEqual(['POST /ping/check-1/start R1', 'POST /ping/check-1 R1']);
    expect(hc.pings[1]!.body).toBe('cycle #1 HEARTBEAT_OK; delivery none');
  });
});
