import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeSize, judgeRefused, judgeSpool } from './judge-spool.js';

const whole = (text: string) => ({ text, size: Buffer.byteLength(text), readBytes: Buffer.byteLength(text) });
/** A spool of `text` read as the file adapter reads it under a cap of `cap` bytes. */
const readUpTo = (text: string, cap: number) => {
  const bytes = Buffer.from(text);
  return { text: bytes.subarray(0, cap).toString('utf8'), size: bytes.length, readBytes: Math.min(cap, bytes.length) };
};
const replyArb = fc.record({
  question_id: fc.string({ minLength: 1 }),
  session_id: fc.string(),
  reply_text: fc.string({ unit: 'grapheme' }),
  sender_name: fc.string({ minLength: 1 }),
});

describe('judgeSpool', () => {
  it('a whole output is delivered and removed; a blank one removed; garbage set aside naming the byte, never quoting it', () => {
    const poll = JSON.stringify({ replies: [{ question_id: 'q-1', session_id: 's', reply_text: 'yes' }], pending_count: 0 });
    expect(judgeSpool('a.out', whole(poll))).toMatchObject({ then: 'remove', replies: [{ questionId: 'q-1' }] });
    expect(judgeSpool('a.out', whole(' \n'))).toEqual({ id: 'a.out', replies: [], then: 'remove' });
    const shadow = judgeSpool('a.out', whole('root:*:20210:0:99999:7:::\n'));
    expect(shadow).toEqual({
      id: 'a.out',
      replies: [],
      then: 'aside',
      code: 'GCHAT_SPOOL_SET_ASIDE',
      why: 'not the poll JSON (26 bytes; not valid JSON at byte 0)',
      fix: 'it is not the poll JSON: read it, act by hand on any reply in it, then delete it',
    });
  });

  it('a spool over the read cap keeps exactly the replies that end before the cap, and is set aside naming its size and where reading stopped', () => {
    fc.assert(
      fc.property(fc.array(replyArb, { maxLength: 6 }), fc.boolean(), fc.nat(), (replies, pretty, capSeed) => {
        const text = JSON.stringify({ replies, pending_count: 0 }, null, pretty ? 2 : undefined);
        const size = Buffer.byteLength(text);
        const cap = 1 + (capSeed % size);
        // Where each reply ends (the byte after its closing brace), from the same printing of a shorter list.
        const ends = replies.map((_, i) => {
          const upTo = JSON.stringify({ replies: replies.slice(0, i + 1), pending_count: 0 }, null, pretty ? 2 : undefined);
          return Buffer.byteLength(upTo.slice(0, upTo.lastIndexOf('}', upTo.lastIndexOf(']')) + 1));
        });
        const fitting = ends.filter((end) => end <= cap).length;
        const verdict = judgeSpool('s.out', readUpTo(text, cap));
        if (cap >= size) {
          expect(verdict).toMatchObject({ then: 'remove' });
          expect(verdict.replies).toHaveLength(replies.length);
          return;
        }
        expect(verdict.then).toBe('aside');
        expect(verdict.code).toBe('GCHAT_SPOOL_OVER_CAP');
        expect(verdict.replies.map((r) => r.questionId)).toEqual(replies.slice(0, fitting).map((r) => r.question_id));
        expect(verdict.replies.map((r) => r.replyText)).toEqual(replies.slice(0, fitting).map((r) => r.reply_text));
        expect(verdict.why).toContain(`${describeSize(size)}, over the ${cap}-byte read cap; `);
        if (fitting === 0) expect(verdict.why).toContain('no whole reply within it, none delivered');
        else {
          const stop = ends[fitting - 1] ?? -1;
          expect(verdict.why).toContain(`delivered, the rest (from byte ${stop}) not read`);
          expect(verdict.fix).toContain(`from byte ${stop} of the set-aside file`);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('a 700 MB spool read up to 4 MiB: one reply that long is none delivered, set aside with both sizes', () => {
    const cap = 4 * 1024 * 1024;
    const head = '{"replies": [{"question_id": "q-big", "session_id": "s", "reply_text": "';
    const verdict = judgeSpool('big.out', { text: `${head}${'x'.repeat(cap - head.length)}`, size: 734_003_312, readBytes: cap });
    expect(verdict).toMatchObject({ then: 'aside', code: 'GCHAT_SPOOL_OVER_CAP', replies: [] });
    expect(verdict.why).toBe('734003312 bytes (700.0 MiB), over the 4.0 MiB read cap; no whole reply within it, none delivered');
  });

  it('a cut-off output keeps its whole replies and names where it was cut', () => {
    const poll = JSON.stringify({
      replies: [
        { question_id: 'q-1', session_id: 's', reply_text: 'a' },
        { question_id: 'q-2', session_id: 's', reply_text: 'b' },
      ],
      pending_count: 0,
    });
    const cut = poll.slice(0, poll.indexOf('q-2'));
    expect(judgeSpool('c.out', whole(cut))).toEqual({
      id: 'c.out',
      replies: [{ questionId: 'q-1', sessionId: 's', replyText: 'a', senderName: 'unknown' }],
      then: 'aside',
      code: 'GCHAT_SPOOL_SET_ASIDE',
      why: `cut off or damaged (JSON cut off at byte ${cut.length}); 1 whole reply recovered`,
      fix: `read the replies from byte ${cut.length} of the set-aside file and act on them by hand, then delete it`,
    });
  });

  it('an entry refused as no spool is set aside by what it is', () => {
    expect(judgeRefused({ id: 'l.out', kind: 'not-a-file', reason: 'a symbolic link, not a spool heartbeat-kit wrote' })).toMatchObject({
      then: 'aside',
      code: 'GCHAT_SPOOL_REFUSED',
      why: 'a symbolic link, not a spool heartbeat-kit wrote',
    });
  });
});
