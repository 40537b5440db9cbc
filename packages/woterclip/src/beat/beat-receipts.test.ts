import { createMemoryLockStore, createMemoryReceiptStore } from '@heartbeat-kit/core/testing';
import { errAsync } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { configYaml, harness, report } from '../../test/beat-harness.js';
import { beatDetailOf, beatReceiptView } from './beat-detail.js';
import type { BeatOptions } from './beat-types.js';
import { runBeat } from './run-beat.js';

const issue = (number: number, labels: string[] = ['backend']) => ({ number, title: `issue ${number}`, labels });

function withReceipts(h: ReturnType<typeof harness>) {
  const receipts = createMemoryReceiptStore({ clock: h.clock });
  const run = (options: BeatOptions = {}) => runBeat({ ...h.deps, receipts }, options);
  const list = async () => (await receipts.list())._unsafeUnwrap().receipts;
  return { receipts, run, list };
}

describe('every beat leaves exactly one receipt', () => {
  it('a beat that works an issue: ran, with the issue, its status, the stop reason and the report posted', async () => {
    const h = harness({ issues: [issue(12)] });
    const r = withReceipts(h);
    const result = await r.run();
    expect(result.exit).toBe('complete');
    const receipts = await r.list();
    expect(receipts).toHaveLength(1);
    expect(beatReceiptView(receipts[0]!)).toMatchObject({
      kind: 'ran',
      source: 'woterclip',
      slot: '2026-07-22T10:00:00.000Z',
      status: 'report',
      delivery: 'delivered',
      beat: { n: 1, end: 'complete', worked: [{ issue: 12, status: 'completed' }] },
    });
    expect(result.receipt).toEqual(receipts[0]);
  });

  it('nothing to do: ran, ok, delivery none; the beat count goes on', async () => {
    const h = harness({ issues: [] });
    const r = withReceipts(h);
    await r.run();
    h.clock.advance(600_000);
    await r.run();
    const receipts = await r.list();
    expect(receipts.map((x) => [x.kind, x.kind === 'ran' ? x.cycle : -1, beatDetailOf(x)?.end])).toEqual([
      ['ran', 1, 'queue_empty'],
      ['ran', 2, 'queue_empty'],
    ]);
  });

  it('quiet hours, lock held elsewhere and a config error are skipped with their reasons and count no beat; a dry run leaves no receipt', async () => {
    const quiet = harness({
      issues: [issue(12)],
      now: '2026-07-22T23:00:00Z',
      config: configYaml(`  quiet_hours: {enabled: true, timezone: "UTC", start: "22:00", end: "07:00", behavior: skip}`),
    });
    const q = withReceipts(quiet);
    await q.run();
    expect(await q.list()).toMatchObject([{ kind: 'skipped', reason: 'quiet-hours' }]);
    expect(beatDetailOf((await q.list())[0]!)).toBeUndefined();

    const locked = harness({ issues: [issue(12)] });
    const lock = createMemoryLockStore();
    await lock.acquire({ owner: '1784714000-1', nowMs: Date.parse('2026-07-22T09:59:00Z'), staleAfterMs: 3_600_000 });
    const receipts = createMemoryReceiptStore({ clock: locked.clock });
    const conflict = await runBeat({ ...locked.deps, lock, receipts });
    expect(conflict.exit).toBe('lock-conflict');
    expect((await receipts.list())._unsafeUnwrap().receipts).toMatchObject([{ kind: 'skipped', reason: 'overlapping' }]);

    const dry = harness({ issues: [issue(12)] });
    const d = withReceipts(dry);
    await d.run({ dryRun: true });
    // A dry run is a rehearsal: it writes nothing a real beat reads, no receipt either (issue 26).
    expect(await d.list()).toEqual([]);

    const broken = harness({ config: 'version: 2\ngithub: {}\n' });
    const b = withReceipts(broken);
    await b.run();
    expect(await b.list()).toMatchObject([{ kind: 'skipped', reason: 'config-error' }]);
  });

  it('a config file that cannot be read (I/O) ends lock-error and is recorded as lock-unavailable with its message, counting no beat', async () => {
    const h = harness({ issues: [issue(12)] });
    const receipts = createMemoryReceiptStore({ clock: h.clock });
    const files = { readText: () => errAsync({ kind: 'io' as const, message: 'EACCES: permission denied' }) };
    const beat = await runBeat({ ...h.deps, files, receipts });
    expect(beat.exit).toBe('lock-error');
    const kept = (await receipts.list())._unsafeUnwrap().receipts;
    expect(kept).toMatchObject([
      { kind: 'skipped', reason: 'lock-unavailable', detail: '.woterclip/config.yaml: EACCES: permission denied' },
    ]);
    expect(beatDetailOf(kept[0]!)).toBeUndefined();
  });

  it('a stale lock left by a beat that never finished: the next beat records its slot as abandoned, then its own run', async () => {
    const h = harness({ issues: [] });
    const lock = createMemoryLockStore();
    const died = Date.parse('2026-07-22T04:00:00Z');
    await lock.acquire({ owner: `${died / 1000}-99`, nowMs: died, staleAfterMs: 3_600_000 });
    const receipts = createMemoryReceiptStore({ clock: h.clock });
    await runBeat({ ...h.deps, lock, receipts });
    const listed = (await receipts.list())._unsafeUnwrap().receipts;
    expect(listed.map((x) => [x.slot, x.kind, x.kind === 'skipped' ? x.reason : beatDetailOf(x)?.end])).toEqual([
      ['2026-07-22T04:00:00.000Z', 'skipped', 'abandoned'],
      ['2026-07-22T10:00:00.000Z', 'ran', 'queue_empty'],
    ]);
  });

  it('the lock is released only after the receipt is written', async () => {
    const h = harness({ issues: [] });
    const order: string[] = [];
    const store = createMemoryReceiptStore({ clock: h.clock });
    const receipts = { ...store, append: (x: Parameters<typeof store.append>[0]) => (order.push('receipt'), store.append(x)) };
    const lock = { ...h.lock, release: (owner: string) => (order.push('release'), h.lock.release(owner)) };
    await runBeat({ ...h.deps, lock, receipts });
    expect(order).toEqual(['receipt', 'release']);
  });
});

describe('dispatch breaker over beats', () => {
  it('fails the same way 3 beats: one advisory, held-back beats work no issue, a retry that works says so once', async () => {
    const failure = {
      failure: {
        kind: 'failed' as const,
        message: 'dispatch exited 1',
        raw: '',
        model: { configured: 'opus', actual: 'opus', fallback: false },
      },
    };
    let failing = true;
    const h = harness({
      // Each failing beat blocks up to two issues (max_issues_per_heartbeat: 2).
      issues: Array.from({ length: 12 }, (_, i) => issue(20 + i)),
      script: [(request) => (failing ? failure : report('completed', {}, request))],
    });
    const r = withReceipts(h);
    const results = [];
    for (let beat = 1; beat <= 9; beat += 1) {
      if (beat === 9) failing = false;
      results.push(await r.run());
      h.clock.advance(600_000);
    }
    const receipts = await r.list();
    expect(receipts).toHaveLength(9);
    // Beats 1-3 fail (3rd trips), 4 held, 5 retries and fails, 6-8 held, 9 retries and works.
    expect(receipts.map((x) => (x.kind === 'skipped' ? x.reason : x.kind))).toEqual([
      'ran',
      'ran',
      'ran',
      'breaker-open',
      'ran',
      'breaker-open',
      'breaker-open',
      'breaker-open',
      'ran',
    ]);
    const advisories = results.flatMap((x) => x.warnings).filter((w) => w.startsWith('DISPATCH_FAILING'));
    expect(advisories).toHaveLength(1);
    expect(advisories[0]).toContain('3 beats in a row — dispatch exited 1');
    expect(results[3]?.messages.join()).toContain('next try at beat #5');
    const recovered = results.flatMap((x) => x.messages).filter((m) => m.startsWith('dispatch recovered'));
    expect(recovered).toHaveLength(1);
    expect(results[8]?.breakerLine).toBe(recovered[0]);
    expect(beatDetailOf(receipts.at(-1)!)?.breaker).toBeUndefined();
  });
});
