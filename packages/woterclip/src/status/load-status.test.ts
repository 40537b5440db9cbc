import { createFakeClock, createMemoryReceiptStore } from '@heartbeat-kit/core/testing';
import { describe, expect, it } from 'vitest';
import { configYaml } from '../../test/beat-harness.js';
import { parseWoterclipConfig } from '../config/woterclip-config.js';
import { createMemoryBeatLog, createMemoryIssueTracker } from '../testing/index.js';
import { loadStatus } from './load-status.js';

const config = parseWoterclipConfig(configYaml())._unsafeUnwrap();
const blockedBody =
  '## Heartbeat #1 — 2026-07-21 09:00 UTC (1m 0s)\n\n**Status:** Blocked\n\n### Action needed\n@boss — key\n\n**Clears when:** the key has write access\n\n---\n*WoterClip · backend · #3*';

function world() {
  const clock = createFakeClock(new Date('2026-07-22T10:00:00Z'));
  const tracker = createMemoryIssueTracker({
    login: 'octocat',
    issues: [
      { number: 3, title: 'needs key', labels: ['backend', 'agent-blocked'] },
      { number: 5, title: 'todo', labels: ['backend'] },
    ],
  });
  tracker.addComment(3, 'octocat', blockedBody, '2026-07-21T09:00:00Z');
  const log = createMemoryBeatLog(
    '{"type": "beat", "started_at": "2026-07-22T06:00:00Z", "ended_at": "2026-07-22T06:01:00Z", "beat_elapsed_sec": 60, "issues_worked": 0, "stop_reason": "queue_empty"}\n{"heartbeat": 1, "timest',
  );
  return { clock, tracker, log };
}

describe('loadStatus (the logic of `woterclip status`, over ports)', () => {
  it('queue, blocked with its Clears when, Stopped after 2 h, the log warning', async () => {
    const w = world();
    const loaded = (await loadStatus(w, config))._unsafeUnwrap();
    expect(loaded.view).toMatchObject({
      queue: [{ persona: 'backend', issues: [5] }],
      blocked: [{ issue: 3, clearsWhen: 'the key has write access' }],
      stopped: true,
      lastBeatAt: '2026-07-22T06:01:00Z',
    });
    expect(loaded.view.dispatchBreaker).toBeUndefined();
    expect(loaded.warnings.join()).toContain('torn last line');
  });

  it('GitHub failing is a github error; the blocked detail failing shows "not stated"', async () => {
    const w = world();
    w.tracker.failOn('viewIssue', { kind: 'unavailable', message: 'HTTP 502' });
    expect((await loadStatus(w, config))._unsafeUnwrap().view.blocked).toMatchObject([{ issue: 3, clearsWhen: 'not stated' }]);
    w.tracker.failOn('listInbox', { kind: 'unavailable', message: 'HTTP 502' });
    expect((await loadStatus(w, config))._unsafeUnwrapErr()).toEqual({ kind: 'github', message: 'HTTP 502' });
  });

  it('an open dispatch breaker in the last beat receipt is shown with its next try', async () => {
    const w = world();
    const receipts = createMemoryReceiptStore({ clock: w.clock });
    const breaker = {
      code: 'DISPATCH_FAILED: dispatch exited 1',
      message: 'dispatch exited 1',
      fix: 'fix it',
      sinceMs: Date.parse('2026-07-22T09:00:00Z'),
      failures: 3,
      skippable: true,
      backoff: 2,
      nextRunCycle: 5,
      advised: true,
    };
    await receipts.append({
      v: 1,
      kind: 'ran',
      slot: '2026-07-22T09:40:00.000Z',
      at: '2026-07-22T09:41:00.000Z',
      source: 'woterclip',
      cycle: 3,
      status: 'report',
      delivery: 'delivered',
      sourceDetail: { n: 3, end: 'complete', breaker },
    });
    const loaded = (await loadStatus({ ...w, receipts }, config))._unsafeUnwrap();
    expect(loaded.view.dispatchBreaker).toEqual({
      failures: 3,
      message: 'dispatch exited 1',
      since: '2026-07-22T09:00:00.000Z',
      nextTryBeat: 5,
      lastBeat: 3,
    });
  });
});
