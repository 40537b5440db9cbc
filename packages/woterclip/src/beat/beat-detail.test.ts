import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Receipt } from '@heartbeat-kit/core';
import { createFileReceiptStore } from '@heartbeat-kit/core/node';
import { afterAll, describe, expect, it } from 'vitest';
import { beatDetailOf, beatReceiptView, formatBeatReceipt } from './beat-detail.js';
import { priorBeatState } from './beat-receipts.js';

const root = mkdtempSync(join(tmpdir(), 'woterclip-beat-detail-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// Two beats as heartbeat-kit wrote them before receipts had `sourceDetail`: the detail under `beat`.
const TODAY = [
  '{"v":1,"slot":"2026-07-22T10:00:00.000Z","at":"2026-07-22T10:01:00.000Z","source":"woterclip","kind":"ran","cycle":1,"status":"report","delivery":"delivered","beat":{"n":1,"end":"complete","worked":[{"issue":12,"status":"completed"}]}}',
  '{"v":1,"slot":"2026-07-22T10:10:00.000Z","at":"2026-07-22T10:10:30.000Z","source":"woterclip","kind":"skipped","reason":"breaker-open","detail":"dispatch breaker open","beat":{"n":2,"end":"breaker-open","breaker":{"code":"exit-1","message":"dispatch exited 1","fix":"see the agent log","sinceMs":1753174800000,"failures":3,"skippable":true,"backoff":2,"nextRunCycle":5,"advised":true}}}',
];

describe("a beat's receipt detail is WoterClip's to validate (issue 32)", () => {
  it("receipt files in today's format still read: the beat count, the breaker, history's line and --json's `beat`", async () => {
    const directory = join(root, 'receipts');
    mkdirSync(directory);
    writeFileSync(
      join(directory, `${Date.parse('2026-07-22T10:01:00Z')}-1-00000000-0000-4000-8000-000000000000.jsonl`),
      `${TODAY.join('\n')}\n`,
    );
    const listed = (
      await createFileReceiptStore({ directory, clock: { now: () => new Date('2026-07-22T11:00:00Z') } }).list()
    )._unsafeUnwrap();
    expect(listed.warnings).toEqual([]);
    expect(listed.receipts).toHaveLength(2);
    const state = priorBeatState(listed.receipts);
    expect(state.n).toBe(2);
    expect(state.breaker).toMatchObject({ failures: 3, nextRunCycle: 5 });
    expect(formatBeatReceipt(listed.receipts[0]!)).toBe(
      '2026-07-22T10:00:00.000Z  woterclip ran      beat #1 worked #12 completed, stop complete, report posted',
    );
    expect(beatReceiptView(listed.receipts[0]!)).toEqual({ ...JSON.parse(TODAY[0]!), at: '2026-07-22T10:01:00.000Z' });
  });

  it('a detail that does not validate, or another source, hands no state on and prints as a cycle', () => {
    const ran: Receipt = {
      v: 1,
      slot: '2026-07-22T10:00:00.000Z',
      at: '2026-07-22T10:00:00.000Z',
      source: 'woterclip',
      kind: 'ran',
      cycle: 4,
      status: 'ok',
      delivery: 'none',
      sourceDetail: { n: 'four' },
    };
    expect(beatDetailOf(ran)).toBeUndefined();
    expect(priorBeatState([ran])).toEqual({ n: 0 });
    expect(beatDetailOf({ ...ran, source: 'cycle', sourceDetail: { n: 4, end: 'complete' } })).toBeUndefined();
    expect(formatBeatReceipt(ran)).toBe('2026-07-22T10:00:00.000Z  woterclip ran      cycle #4 HEARTBEAT_OK, delivery none');
    expect(beatReceiptView(ran)).not.toHaveProperty('sourceDetail');
  });
});
