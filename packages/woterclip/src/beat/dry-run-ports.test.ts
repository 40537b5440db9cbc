import { createFakeClock, createMemoryLockStore, createMemoryReceiptStore } from '@heartbeat-kit/core/testing';
import type { Receipt } from '@heartbeat-kit/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { harness } from '../../test/beat-harness.js';
import { createMemoryBeatLog, createMemoryIssueTracker } from '../testing/index.js';
import { EMPTY_SUMMARY, foldNotes, joinNotes, type StepNotes } from './beat-summary.js';
import { readOnlyBeatLog, readOnlyIssueTracker, readOnlyLockStore, readOnlyReceiptStore } from './dry-run-ports.js';

const HOUR = 3_600_000;

describe('read-only ports of a dry run', () => {
  it('the tracker reads GitHub and answers every write ok without making it, saying what a real beat would do', async () => {
    const tracker = createMemoryIssueTracker({ issues: [{ number: 7, title: 'seven', labels: ['agent-working'] }] });
    const said: string[] = [];
    const ro = readOnlyIssueTracker(tracker, (line) => said.push(line));
    expect((await ro.viewLabels(7))._unsafeUnwrap()).toEqual(['agent-working']);
    expect((await ro.editLabels(7, { add: ['agent-blocked'], remove: ['agent-working'] })).isOk()).toBe(true);
    expect((await ro.comment(7, 'hello')).isOk()).toBe(true);
    expect((await ro.close(7)).isOk()).toBe(true);
    expect((await ro.createIssue({ title: 'child', body: '', labels: [] })).isOk()).toBe(true);
    expect((await ro.addSubIssue(7, 1)).isOk()).toBe(true);
    expect((await ro.createLabel('x')).isOk()).toBe(true);
    expect(tracker.mutations()).toEqual([]);
    expect(tracker.issues.get(7)?.labels).toEqual(['agent-working']);
    expect(said).toEqual([
      'Dry run: a real beat would edit the labels of #7 (+agent-blocked -agent-working).',
      'Dry run: a real beat would comment on #7.',
      'Dry run: a real beat would close #7.',
      'Dry run: a real beat would create the issue "child".',
      'Dry run: a real beat would attach a sub-issue to #7.',
      'Dry run: a real beat would create the label x.',
    ]);
  });

  it('the log and the receipts are read as they are and appended nowhere', async () => {
    const log = createMemoryBeatLog();
    const ro = readOnlyBeatLog(log);
    expect(
      (
        await ro.append({ type: 'beat', started_at: 'a', ended_at: 'b', beat_elapsed_sec: 0, issues_worked: 0, stop_reason: 'queue_empty' })
      ).isOk(),
    ).toBe(true);
    expect(log.text).toBe('');
    const receipts = createMemoryReceiptStore({ clock: createFakeClock(new Date('2026-07-22T10:00:00Z')) });
    const roReceipts = readOnlyReceiptStore(receipts);
    const receipt: Receipt = {
      v: 1,
      kind: 'skipped',
      slot: '2026-07-22T10:00:00.000Z',
      at: '2026-07-22T10:00:00.000Z',
      source: 'woterclip',
      reason: 'quiet-hours',
      detail: 'x',
    };
    expect((await roReceipts.append(receipt)).isOk()).toBe(true);
    expect((await receipts.list())._unsafeUnwrap().receipts).toEqual([]);
  });

  it('the lock is judged as the store would, held on paper, and never written', async () => {
    const live = { owner: '100-1', acquiredAtMs: 0 };
    const held = createMemoryLockStore({ initial: live, liveness: () => 'alive' });
    const said: string[] = [];
    const roHeld = readOnlyLockStore(held, (line) => said.push(line));
    const conflict = await roHeld.acquire({ owner: '200-2', nowMs: 10 * HOUR, staleAfterMs: 4 * HOUR });
    expect(conflict.isErr() && conflict.error.kind).toBe('held');

    const stale = createMemoryLockStore({ initial: live });
    const ro = readOnlyLockStore(stale, (line) => said.push(line));
    const taken = await ro.acquire({ owner: '200-2', nowMs: 10 * HOUR, staleAfterMs: 4 * HOUR });
    expect(taken._unsafeUnwrap()).toEqual({ kind: 'acquired', record: { owner: '200-2', acquiredAtMs: 10 * HOUR } });
    expect(said).toEqual([
      'Dry run: a real beat would clean the stale lockfile. It was left by beat 100-1 at 1970-01-01T00:00:00Z, older than stale_lock_hours (4 h).',
    ]);
    // Held on paper: the beat's ownership checks see it; the store still holds the old record.
    expect((await ro.read())._unsafeUnwrap()).toEqual({ owner: '200-2', acquiredAtMs: 10 * HOUR });
    expect((await stale.read())._unsafeUnwrap()).toEqual(live);
    expect((await ro.release('someone-else'))._unsafeUnwrap()).toBe('not-owner');
    expect((await ro.release('200-2'))._unsafeUnwrap()).toBe('released');
    expect((await ro.read())._unsafeUnwrap()).toEqual(live);
  });

  it('a dry run over a stale working label leaves it and mutates nothing (the beat wires it once)', async () => {
    const h = harness({ issues: [{ number: 30, title: 'stuck', labels: ['backend', 'agent-working'] }] });
    const result = await h.run({ dryRun: true });
    expect(result.exit).toBe('dry-run');
    expect(result.messages.join()).not.toContain('Cleaned stale');
    expect(h.tracker.mutations()).toEqual([]);
    expect(h.log.text).toBe('');
  });
});

describe('foldNotes (the one place a beat summary grows)', () => {
  const notes: fc.Arbitrary<StepNotes> = fc.record(
    {
      messages: fc.array(fc.string(), { maxLength: 3 }),
      warnings: fc.array(fc.string(), { maxLength: 3 }),
      recorded: fc.nat(5),
      releaseDue: fc.constant(true as const),
      reportNotPosted: fc.nat(99),
    },
    { requiredKeys: [] },
  );

  it('property: folding appends lines in order, adds recorded, keeps releaseDue once set, and is associative', () => {
    fc.assert(
      fc.property(fc.array(notes, { maxLength: 6 }), fc.nat(6), (all, cut) => {
        const folded = foldNotes(EMPTY_SUMMARY, ...all);
        expect(folded.messages).toEqual(all.flatMap((n) => n.messages ?? []));
        expect(folded.warnings).toEqual(all.flatMap((n) => n.warnings ?? []));
        expect(folded.recorded).toBe(all.reduce((s, n) => s + (n.recorded ?? 0), 0));
        expect(folded.releaseDue).toBe(all.some((n) => n.releaseDue === true));
        expect(folded.reportNotPosted).toBe([...all].reverse().find((n) => n.reportNotPosted !== undefined)?.reportNotPosted);
        const k = Math.min(cut, all.length);
        expect(foldNotes(foldNotes(EMPTY_SUMMARY, ...all.slice(0, k)), joinNotes(...all.slice(k)))).toEqual(folded);
      }),
    );
  });
});
