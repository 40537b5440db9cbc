import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { IssueComment } from '../ports/issue-tracker.js';
import { clearsWhenOf, formatDuration, nextHeartbeatNumber, renderBlockedComment, renderStandardComment } from './comments.js';

const ours = (n: number, author = 'octocat'): IssueComment => ({
  author,
  body: `## Heartbeat #${n} — 2026-07-22 10:00 UTC (1m 0s)\n\n**Status:** In Progress\n\n---\n*WoterClip · backend · #7*`,
  createdAt: '2026-07-22T10:00:00Z',
  url: `u${n}`,
});

describe('heartbeat counter', () => {
  it('starts at #1 and follows the last WoterClip comment by the authenticated account', () => {
    expect(nextHeartbeatNumber([], 'octocat')).toBe(1);
    expect(nextHeartbeatNumber([ours(3), ours(2)], 'octocat')).toBe(3);
  });

  it('property: comments by anyone else, or not in WoterClip format, never move it', () => {
    const forged = fc.record({
      author: fc.constantFrom('mallory', 'octocat-alt', 'app/github-actions'),
      body: fc.oneof(
        fc.string(),
        fc.nat(1_000_000).map((n) => ours(n).body),
      ),
      createdAt: fc.constant('2026-07-22T11:00:00Z'),
      url: fc.constant('x'),
    });
    const plainByUs = fc
      .nat(1_000_000)
      .map((n): IssueComment => ({ author: 'octocat', body: `Heartbeat #${n}`, createdAt: 'x', url: 'x' }));
    fc.assert(
      fc.property(fc.nat(50), fc.array(fc.oneof(forged, plainByUs)), (n, noise) => {
        expect(nextHeartbeatNumber([ours(n), ...noise], 'octocat')).toBe(n + 1);
      }),
    );
  });
});

describe('templates', () => {
  it('standard: header, Model line, footer with the previous link after the first heartbeat', () => {
    const body = renderStandardComment({
      n: 2,
      at: new Date('2026-07-22T10:15:00Z'),
      durationSec: 845,
      status: 'in_progress',
      model: { configured: 'opus', actual: 'opus', fallback: false },
      repo: 'o/r',
      persona: 'backend',
      issue: 79,
      summary: 'ping @everyone',
      commits: [{ sha: 'a1b2c3d', message: 'feat(api): x' }],
      prs: [],
      subIssues: [],
      nextSteps: ['tests'],
      notes: [],
      previousUrl: 'https://github.com/o/r/issues/79#issuecomment-1',
    });
    expect(body.split('\n')[0]).toBe('## Heartbeat #2 — 2026-07-22 10:15 UTC (14m 5s)');
    expect(body).toContain('**Status:** In Progress\n**Model:** opus');
    expect(body).toContain('- [`a1b2c3d`](https://github.com/o/r/commit/a1b2c3d) feat(api): x');
    expect(body).not.toContain('@everyone');
    expect(body.endsWith('*WoterClip · backend · #79 · from [Heartbeat #1](https://github.com/o/r/issues/79#issuecomment-1)*')).toBe(true);
  });

  it('blocked: Board mention, required Clears when inside Action needed, no footer link', () => {
    const body = renderBlockedComment({
      n: 1,
      at: new Date('2026-07-22T10:00:00Z'),
      durationSec: 5,
      model: { configured: 'opus', actual: 'sonnet', fallback: true },
      persona: 'backend',
      issue: 3,
      boardUser: 'boss',
      blocker: 'x',
      ask: 'grant key',
      clearsWhen: 'the deploy key has write access',
      doneBefore: [],
    });
    expect(body).toContain('**Model:** sonnet (fallback — configured: opus)');
    expect(body).toMatch(/### Action needed\n@boss — grant key\n\n\*\*Clears when:\*\* the deploy key has write access/);
    expect(clearsWhenOf(body)).toBe('the deploy key has write access');
    expect(body.endsWith('*WoterClip · backend · #3*')).toBe(true);
    expect(clearsWhenOf('no line here')).toBeUndefined();
  });

  it('formats durations', () => {
    expect([formatDuration(45), formatDuration(845), formatDuration(3725)]).toEqual(['45s', '14m 5s', '1h 2m']);
  });
});
