import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fixture } from '../../test/support/fixtures.js';
import { parseGChatPoll } from './parse-gchat-poll.js';

describe('parseGChatPoll', () => {
  it('reads the reference example', () => {
    expect(parseGChatPoll(fixture('gchat', 'poll-replies.json'))._unsafeUnwrap()).toEqual({
      replies: [{ questionId: 'q-1', sessionId: 's-1', replyText: 'yes, ship it', repliedAt: '2026-02-19T14:21:07.000Z', senderName: 'Alice', threadName: 'spaces/AAA/threads/BBB' }],
      pendingCount: 0,
      checkedAt: '2026-02-19T14:22:00.123456+00:00',
    });
  });

  it('reads "no pending markers" and falls back to sender "unknown"', () => {
    expect(parseGChatPoll(fixture('gchat', 'poll-none.json'))._unsafeUnwrap()).toEqual({ replies: [], pendingCount: 0 });
    const poll = parseGChatPoll(fixture('gchat', 'poll-pending-no-sender.json'))._unsafeUnwrap();
    expect(poll.pendingCount).toBe(3);
    expect(poll.replies[0]).toEqual({ questionId: 'q-2', sessionId: 's-9', replyText: 'Use the "blue" one @channel [click](http://x.invalid)', senderName: 'unknown' });
  });

  it('types invalid JSON and wrong shapes', () => {
    expect(parseGChatPoll('Traceback (most recent call last):')._unsafeUnwrapErr().kind).toBe('invalid-json');
    expect(parseGChatPoll('{"replies": {}, "pending_count": 0}')._unsafeUnwrapErr().kind).toBe('unexpected-shape');
    expect(parseGChatPoll('{"replies": [], "pending_count": -1}')._unsafeUnwrapErr().kind).toBe('unexpected-shape');
  });

  it('round-trips generated polls and never throws', () => {
    const replyArb = fc.record({ question_id: fc.string(), session_id: fc.string(), reply_text: fc.string(), sender_name: fc.string({ minLength: 1 }) });
    fc.assert(
      fc.property(fc.array(replyArb, { maxLength: 4 }), fc.nat(), (replies, pending) => {
        const poll = parseGChatPoll(JSON.stringify({ replies, pending_count: pending, extra: true }, null, 2))._unsafeUnwrap();
        expect(poll.pendingCount).toBe(pending);
        expect(poll.replies.map((r) => [r.questionId, r.sessionId, r.replyText, r.senderName])).toEqual(replies.map((r) => [r.question_id, r.session_id, r.reply_text, r.sender_name]));
      }),
    );
    fc.assert(fc.property(fc.oneof(fc.string(), fc.json()), (text) => { expect(() => parseGChatPoll(text)).not.toThrow(); }));
  });
});
