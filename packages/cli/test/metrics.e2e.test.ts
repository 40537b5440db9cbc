/**
 * Issue 30 item 1 at the built bin: `cycle --metrics-textfile` after a busy and a quiet cycle (both
 * checked by the real `promtool check metrics`, and the figures that change between them), `loop
 * --metrics-listen` scraped over HTTP while it runs, bad metrics flags (exit 2, nothing written), and
 * a cycle without the flags in an install without prom-client (it is never loaded).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBuiltCli, useCliWorlds, useTempDirs } from './support/cli-world.js';
import { promtool, samples, until } from './support/prometheus-text.js';

const createCliWorld = useCliWorlds();
const tempDir = useTempDirs();
const built = useBuiltCli();
const withoutPromClient = useBuiltCli({ without: ['prom-client'] });

/** The samples whose value differs between two texts (timestamps and durations too). */
function changed(before: Map<string, number>, after: Map<string, number>): Record<string, [number | undefined, number | undefined]> {
  const keys = [...new Set([...before.keys(), ...after.keys()])].sort();
  return Object.fromEntries(keys.filter((k) => before.get(k) !== after.get(k)).map((k) => [k, [before.get(k), after.get(k)]]));
}

describe('heartbeat-kit cycle --metrics-textfile', () => {
  it('a busy then a quiet cycle: promtool-clean both times; counters grow from the receipts, gauges follow the cycle', async () => {
    const world = createCliWorld({ ready: [{ id: 'bd-p1', title: 'Ship it', priority: 1 }] });
    const textfile = join(tempDir('hk-metrics-'), 'heartbeat-kit.prom');
    const cycle = (at: string) =>
      built.runAt(at, ['cycle', '--cwd', world.project, '--tmux-socket', world.tmuxSocket, '--metrics-textfile', textfile], world.env);

    const busy = await cycle('2026-02-19T14:50:00Z');
    expect(busy.code).toBe(0);
    expect(busy.stdout).toContain('WORK_FOUND');
    const busyText = readFileSync(textfile, 'utf8');
    expect(promtool(busyText)).toEqual({ code: 0, output: '' });

    // Inside the dedup window: the same finding is not repeated, so this one is quiet.
    const quiet = await cycle('2026-02-19T14:55:00Z');
    expect(quiet.code).toBe(0);
    expect(quiet.stdout).toBe('HEARTBEAT_OK\n');
    const quietText = readFileSync(textfile, 'utf8');
    expect(promtool(quietText)).toEqual({ code: 0, output: '' });
    // No temp left beside it (node_exporter would ignore one, it does not end in .prom, but none remains).
    expect(readdirSync(join(textfile, '..'))).toEqual(['heartbeat-kit.prom']);

    const [b, q] = [samples(busyText), samples(quietText)];
    // A quiet cycle emits every series a busy one does.
    expect([...q.keys()].sort()).toEqual([...b.keys()].sort());
    const diff = changed(b, q);
    const t = (iso: string) => Date.parse(iso) / 1000;
    expect(diff).toMatchObject({
      'heartbeat_kit_cycles_total{status="ok"}': [0, 1],
      'heartbeat_kit_last_cycle_findings{category="P1_WORK_READY",priority="Immediate"}': [1, 0],
      heartbeat_kit_last_cycle_messages: [1, 0],
      heartbeat_kit_last_cycle_number: [1, 2],
      heartbeat_kit_last_cycle_start_timestamp_seconds: [t('2026-02-19T14:50:00Z'), t('2026-02-19T14:55:00Z')],
      heartbeat_kit_last_cycle_end_timestamp_seconds: [t('2026-02-19T14:50:00Z'), t('2026-02-19T14:55:00Z')],
      'heartbeat_kit_last_status{status="ok"}': [0, 1],
      'heartbeat_kit_last_status{status="report"}': [1, 0],
    });
    expect(diff['heartbeat_kit_last_cycle_message_tokens']?.[0]).toBeGreaterThan(0);
    expect(diff['heartbeat_kit_last_cycle_message_tokens']?.[1]).toBe(0);
    // Counted once, in the busy cycle's receipt, and still there after the quiet one.
    expect(q.get('heartbeat_kit_cycles_total{status="report"}')).toBe(1);
    expect(q.get('heartbeat_kit_messages_total{state="delivered"}')).toBe(1);
    expect(q.get('heartbeat_kit_deliveries_total{sink="default",state="delivered"}')).toBe(1);
    // Only what the cycles changed changed (scanner durations may differ by run: a frozen clock makes them 0).
    expect(
      Object.keys(diff)
        .filter((k) => !k.startsWith('heartbeat_kit_scanner_duration_seconds'))
        .sort(),
    ).toEqual(
      [
        'heartbeat_kit_cycles_total{status="ok"}',
        'heartbeat_kit_last_cycle_end_timestamp_seconds',
        'heartbeat_kit_last_cycle_findings{category="P1_WORK_READY",priority="Immediate"}',
        'heartbeat_kit_last_cycle_message_tokens',
        'heartbeat_kit_last_cycle_messages',
        'heartbeat_kit_last_cycle_number',
        'heartbeat_kit_last_cycle_start_timestamp_seconds',
        'heartbeat_kit_last_status{status="ok"}',
        'heartbeat_kit_last_status{status="report"}',
      ].sort(),
    );
  });

  it('a paused slot and a cron cycle: paused figures, the next cron slot, the counters of every earlier receipt', async () => {
    const world = createCliWorld();
    const textfile = join(tempDir('hk-metrics-'), 'hk.prom');
    const scope = ['--cwd', world.project, '--tmux-socket', world.tmuxSocket, '--metrics-textfile', textfile];
    expect((await built.runAt('2026-02-19T10:00:00Z', ['cycle', ...scope, '--cron', '*/10 * * * *'], world.env)).code).toBe(0);
    const first = samples(readFileSync(textfile, 'utf8'));
    expect(first.get('heartbeat_kit_next_slot_timestamp_seconds')).toBe(Date.parse('2026-02-19T10:10:00Z') / 1000);
    expect(first.get('heartbeat_kit_cycles_total{status="ok"}')).toBe(1);

    const pause = await built.runAt(
      '2026-02-19T10:01:00Z',
      ['pause', '--cwd', world.project, '--for', '1h', '--note', 'maintenance'],
      world.env,
    );
    expect(pause.code).toBe(0);
    expect((await built.runAt('2026-02-19T10:20:00Z', ['cycle', ...scope, '--cron', '*/10 * * * *'], world.env)).code).toBe(0);
    const text = readFileSync(textfile, 'utf8');
    expect(promtool(text)).toEqual({ code: 0, output: '' });
    const paused = samples(text);
    expect(paused.get('heartbeat_kit_paused')).toBe(1);
    expect(paused.get('heartbeat_kit_last_status{status="paused"}')).toBe(1);
    expect(paused.get('heartbeat_kit_slots_paused_total')).toBe(1);
    // The 10:10 slot no cycle closed: recorded as down by the cron cycle at 10:20.
    expect(paused.get('heartbeat_kit_slots_skipped_total{cause="down"}')).toBe(1);
    expect(paused.get('heartbeat_kit_cycles_total{status="ok"}')).toBe(1);
    expect(paused.get('heartbeat_kit_next_slot_timestamp_seconds')).toBe(Date.parse('2026-02-19T10:30:00Z') / 1000);
    // The paused slot ran no cycle: no figures of one (the last cycle's time still stands).
    expect(paused.get('heartbeat_kit_last_cycle_start_timestamp_seconds')).toBe(Date.parse('2026-02-19T10:00:00Z') / 1000);
    expect(paused.has('heartbeat_kit_last_cycle_message_tokens')).toBe(false);
  });

  it('bad metrics flags exit 2 naming the flag and the fix, and write nothing', async () => {
    const world = createCliWorld();
    const dir = tempDir('hk-metrics-');
    const scope = ['--cwd', world.project, '--tmux-socket', world.tmuxSocket];
    const stateDir = join(world.project, '.git', 'heartbeat-kit');
    const cases: [string[], RegExp][] = [
      [['cycle', ...scope, '--metrics-textfile', join(dir, 'out.txt')], /--metrics-textfile ".*out\.txt" does not end in \.prom.*Fix: /],
      [
        ['loop', ...scope, '--metrics-listen', '0.0.0.0:9464'],
        /--metrics-listen "0\.0\.0\.0:9464" is not a loopback address.*Fix: .*--metrics-listen-public/,
      ],
      [['loop', ...scope, '--metrics-listen', 'localhost'], /--metrics-listen "localhost" is not HOST:PORT\. Fix: /],
      [['loop', ...scope, '--metrics-listen-public'], /--metrics-listen-public needs --metrics-listen HOST:PORT\. Fix: /],
      [['cycle', ...scope, '--metrics-listen', '127.0.0.1:9464'], /Unknown option '--metrics-listen'/],
    ];
    for (const [argv, message] of cases) {
      const run = await built.run(argv, world.env);
      expect(run.code, argv.join(' ')).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(run.stdout).toBe('');
    }
    expect(readdirSync(dir)).toEqual([]);
    expect(existsSync(stateDir)).toBe(false);
  });
});

describe('heartbeat-kit loop --metrics-listen', () => {
  it('serves /metrics over HTTP while it runs (promtool-clean, counting up), writes the textfile, stops on SIGTERM', async () => {
    const world = createCliWorld({ ready: [{ id: 'bd-p1', title: 'Ship it', priority: 1 }] });
    const textfile = join(tempDir('hk-metrics-'), 'loop.prom');
    const loop = built.spawnAt(
      '2026-02-19T14:00:00Z',
      [
        'loop',
        '--cwd',
        world.project,
        '--tmux-socket',
        world.tmuxSocket,
        '--interval',
        '1',
        '--metrics-listen',
        '127.0.0.1:0',
        '--metrics-textfile',
        textfile,
      ],
      world.env,
    );
    try {
      const url = await until(() => /metrics at (http:\/\/127\.0\.0\.1:\d+\/metrics)/.exec(loop.stderr())?.[1]);
      const scrape = async () => {
        const response = await fetch(url);
        return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
      };
      // Scrape until a busy and a quiet cycle have both run (the second is inside the dedup window).
      const page = await until(async () => {
        const got = await scrape();
        const s = samples(got.text);
        return (s.get('heartbeat_kit_cycles_total{status="ok"}') ?? 0) >= 1 ? got : undefined;
      });
      expect(page.status).toBe(200);
      expect(page.type).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(promtool(page.text)).toEqual({ code: 0, output: '' });
      const s = samples(page.text);
      expect(s.get('heartbeat_kit_cycles_total{status="report"}')).toBe(1);
      expect(s.get('heartbeat_kit_messages_total{state="delivered"}')).toBe(1);
      // The loop knows its next slot: on the 1-second grid, after the last cycle.
      expect(s.get('heartbeat_kit_next_slot_timestamp_seconds')).toBeGreaterThan(
        s.get('heartbeat_kit_last_cycle_start_timestamp_seconds')!,
      );
      // A later scrape never counts down.
      const later = samples((await scrape()).text);
      for (const [key, value] of s) if (key.includes('_total')) expect(later.get(key), key).toBeGreaterThanOrEqual(value);
      // Anything but /metrics is not found.
      expect((await fetch(url.replace('/metrics', '/'))).status).toBe(404);
      // The textfile the loop writes after every slot is as clean.
      expect(promtool(readFileSync(textfile, 'utf8'))).toEqual({ code: 0, output: '' });
    } finally {
      loop.child.kill('SIGTERM');
    }
    expect(await loop.exited).toBe(0);
    expect(loop.stdout()).toMatch(/HEARTBEAT_SHUTDOWN/);
  });
});

describe('prom-client is loaded only for the metrics flags', () => {
  it('an install without prom-client runs a cycle without the flags', async () => {
    const world = createCliWorld();
    const run = await withoutPromClient.run(['cycle', '--cwd', world.project, '--tmux-socket', world.tmuxSocket], world.env);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('HEARTBEAT_OK\n');
  });
});
