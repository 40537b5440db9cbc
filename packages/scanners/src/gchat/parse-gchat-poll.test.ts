import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fixture } from '../../test/support/fixtures.js';
import { parseGChatPoll, salvageGChatPoll } from './parse-gchat-poll.js';

describe('parseGChatPoll', () => {
  it('reads the reference example', () => {
    expect(parseGChatPoll(fixture('gchat', 'poll-replies.json'))._unsafeUnwrap()).toEqual({
      replies: [
        {
          questionId: 'q-1',
          sessionId: 's-1',
          replyText: 'yes, ship it',
          repliedAt: '2026-02-19T14:21:07.000Z',
          senderName: 'Alice',
          threadName: 'spaces/AAA/threads/BBB',
        },
      ],
      pendingCount: 0,
      checkedAt: '2026-02-19T14:22:00.123456+00:00',
    });
  });

  it('reads "no pending markers" and falls back to sender "unknown"', () => {
    expect(parseGChatPoll(fixture('gchat', 'poll-none.json'))._unsafeUnwrap()).toEqual({ replies: [], pendingCount: 0 });
    const poll = parseGChatPoll(fixture('gchat', 'poll-pending-no-sender.json'))._unsafeUnwrap();
    expect(poll.pendingCount).toBe(3);
    expect(poll.replies[0]).toEqual({
      questionId: 'q-2',
      sessionId: 's-9',
      replyText: 'Use the "blue" one @channel [click](http://x.invalid)',
      senderName: 'unknown',
    });
  });

  it('types invalid JSON and wrong shapes, naming the byte where they go wrong in words of its own', () => {
    expect(parseGChatPoll('Traceback (most recent call last):')._unsafeUnwrapErr()).toEqual({
      kind: 'invalid-json',
      message: 'not valid JSON at byte 0',
      offset: 0,
    });
    expect(parseGChatPoll('{"replies": {}, "pending_count": 0}')._unsafeUnwrapErr()).toEqual({
      kind: 'unexpected-shape',
      message: 'replies: expected array at byte 12',
      offset: 12,
    });
    expect(parseGChatPoll('{"replies": [], "pending_count": -1}')._unsafeUnwrapErr()).toMatchObject({
      kind: 'unexpected-shape',
      offset: 33,
    });
    // The byte, not the character: 'é' takes two.
    expect(parseGChatPoll('{"replies": [{"question_id": "é"}, {"question_id": 7}], "pending_count": 0}')._unsafeUnwrapErr()).toEqual({
      kind: 'unexpected-shape',
      message: 'replies[0].session_id: expected string at byte 13',
      offset: 13,
    });
    expect(parseGChatPoll('{"replies": [{"question_id": "é"} {}]}')._unsafeUnwrapErr()).toEqual({
      kind: 'invalid-json',
      message: 'not valid JSON at byte 35',
      offset: 35,
    });
    expect(parseGChatPoll('{"replies": [{"question_id": "q-1", "sess')._unsafeUnwrapErr().message).toBe('JSON cut off at byte 41');
    expect(parseGChatPoll(' \n')._unsafeUnwrapErr().message).toBe('no output');
  });

  it('never quotes the text it could not read (a spool once was a link to /etc/shadow)', () => {
    const secret = 'root:*:20210:0:99999:7:::';
    const anywhere = fc
      .tuple(fc.oneof(fc.json(), fc.string(), fc.constant('{"replies": [{"question_id": 1}], "pending_count": 0}')), fc.nat())
      .map(([text, at]) => {
        const cut = at % (text.length + 1);
        return `${text.slice(0, cut)}${secret}${text.slice(cut)}`;
      });
    fc.assert(
      fc.property(
        fc.oneof(
          anywhere,
          anywhere.map((t) => JSON.stringify({ replies: [{ question_id: t }], pending_count: 0 })),
        ),
        (text) => {
          const parsed = parseGChatPoll(text);
          if (parsed.isErr()) expect(parsed.error.message).not.toMatch(/root|2021|99999/);
          const salvaged = salvageGChatPoll(text);
          const message = salvaged.isErr() ? salvaged.error.message : (salvaged.value.problem?.message ?? '');
          expect(message).not.toMatch(/root|2021|99999/);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('round-trips generated polls and never throws', () => {
    const replyArb = fc.record({
      question_id: fc.string(),
      session_id: fc.string(),
      reply_text: fc.string(),
      sender_name: fc.string({ minLength: 1 }),
    });
    fc.assert(
      fc.property(fc.array(replyArb, { maxLength: 4 }), fc.nat(), (replies, pending) => {
        const poll = parseGChatPoll(JSON.stringify({ replies, pending_count: pending, extra: true }, null, 2))._unsafeUnwrap();
        expect(poll.pendingCount).toBe(pending);
        expect(poll.replies.map((r) => [r.questionId, r.sessionId, r.replyText, r.senderName])).toEqual(
          replies.map((r) => [r.question_id, r.session_id, r.reply_text, r.sender_name]),
        );
      }),
    );
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), (text) => {
        expect(() => parseGChatPoll(text)).not.toThrow();
      }),
    );
  });
});

describe('salvageGChatPoll (a spool left by a killed cycle)', () => {
  const replyArb = fc.record({
    question_id: fc.string(),
    session_id: fc.string(),
    reply_text: fc.string(),
    sender_name: fc.string({ minLength: 1 }),
  });

  it('a whole output is complete; blank, garbage and a cut before the first whole reply are errors', () => {
    expect(salvageGChatPoll('{"replies":[],"pending_count":0}')._unsafeUnwrap()).toEqual({ replies: [], complete: true, readUpTo: 32 });
    expect(salvageGChatPoll('')._unsafeUnwrapErr().kind).toBe('invalid-json');
    expect(salvageGChatPoll('Traceback (most recent call last):')._unsafeUnwrapErr().kind).toBe('invalid-json');
    expect(salvageGChatPoll('{"replies":[{"question_id":"q-1","sess')._unsafeUnwrapErr().kind).toBe('invalid-json');
  });

  it('keeps the well-formed replies of an output with one bad entry, as incomplete', () => {
    const text =
      '{"replies":[{"question_id":"q-1","session_id":"s","reply_text":"a"},{"question_id":7},{"question_id":"q-3","session_id":"s","reply_text":"c"}],"pending_count":0}';
    const salvaged = salvageGChatPoll(text)._unsafeUnwrap();
    expect(salvaged.complete).toBe(false);
    expect(salvaged.replies.map((r) => r.questionId)).toEqual(['q-1', 'q-3']);
    // Where the bad entry starts, and how far the replies read go.
    expect(salvaged.problem).toEqual({ offset: 68, message: 'replies[1].question_id: expected string at byte 68' });
    expect(text.slice(68, 70)).toBe('{"');
    expect(salvaged.readUpTo).toBe(text.indexOf(']'));
  });

  it('any cut of any output keeps exactly the replies printed whole before the cut, pretty-printed or not, and never throws', () => {
    fc.assert(
      fc.property(fc.array(replyArb, { maxLength: 5 }), fc.boolean(), fc.nat(), fc.string(), (replies, pretty, cutSeed, checked) => {
        const text = JSON.stringify({ checked_at: checked, replies, pending_count: 0 }, null, pretty ? 2 : undefined);
        const cut = cutSeed % (text.length + 1);
        const prefix = text.slice(0, cut);
        // How many replies end (their closing brace) inside the prefix.
        const whole = replies.filter((_, i) => {
          const upTo = JSON.stringify(
            { checked_at: checked, replies: replies.slice(0, i + 1), pending_count: 0 },
            null,
            pretty ? 2 : undefined,
          );
          const end = upTo.lastIndexOf('}', upTo.lastIndexOf(']'));
          return end < cut;
        }).length;
        const salvaged = salvageGChatPoll(prefix);
        if (cut === text.length) {
          expect(salvaged._unsafeUnwrap()).toMatchObject({ complete: true });
          expect(salvaged._unsafeUnwrap().replies).toHaveLength(replies.length);
        } else if (whole === 0) {
          expect(salvaged.isErr()).toBe(true);
        } else {
          const got = salvaged._unsafeUnwrap();
          expect(got.complete).toBe(false);
          expect(got.replies.map((r) => r.questionId)).toEqual(replies.slice(0, whole).map((r) => r.question_id));
          expect(got.replies.map((r) => r.replyText)).toEqual(replies.slice(0, whole).map((r) => r.reply_text));
        }
      }),
      { numRuns: 500 },
    );
  });
});
