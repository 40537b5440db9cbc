/**
 * The behaviour every {@link ReplyInbox} adapter must have. `makeInbox()` returns a fresh, empty
 * inbox; `reopen(inbox)` returns an inbox on the same storage as a new process would see it (the
 * memory adapter returns the same object).
 */
import { createFinding, type Finding } from '../../domain/finding.js';
import type { ReplyInbox } from '../../ports/reply-inbox.js';

/** Makes a fresh, empty inbox for one test, and a second view of the same storage. */
export interface ReplyInboxFactory {
  readonly makeInbox: () => ReplyInbox;
  readonly reopen: (inbox: ReplyInbox) => ReplyInbox;
}

const AT = new Date('2026-02-19T10:00:00Z');

function reply(question: string, text = 'yes'): Finding {
  return createFinding({
    category: 'GCHAT_REPLY_RECEIVED',
    subject: question,
    line: `- Question ID: ${question}`,
    action: `Process the answer to ${question}`,
    short: 'reply from Ana',
    details: { questionId: question, replyText: text, senderName: 'Ana' },
  });
}

/** Registers the ReplyInbox contract suite under `describe(name)`. */
export async function replyInboxContract(name: string, factory: ReplyInboxFactory): Promise<void> {
  const { describe, expect, it } = await import('vitest');
  describe(`ReplyInbox contract: ${name}`, () => {
    it('a fresh inbox lists nothing', async () => {
      expect((await factory.makeInbox().list())._unsafeUnwrap()).toEqual({ entries: [], warnings: [] });
    });

    it('add answers with everything held, in arrival order, and a reopened inbox sees the same', async () => {
      const inbox = factory.makeInbox();
      (await inbox.add([reply('q-1')], AT))._unsafeUnwrap();
      const after = (await inbox.add([reply('q-2'), reply('q-3')], new Date(AT.getTime() + 1000)))._unsafeUnwrap();
      expect(after.entries.map((e) => e.finding.subject)).toEqual(['q-1', 'q-2', 'q-3']);
      expect(after.entries[0]?.receivedAtMs).toBe(AT.getTime());
      expect(new Set(after.entries.map((e) => e.id)).size).toBe(3);
      expect((await factory.reopen(inbox).list())._unsafeUnwrap().entries).toEqual(after.entries);
    });

    it('keeps a finding exactly as it was added (details included)', async () => {
      const inbox = factory.makeInbox();
      const finding = reply('q-"quoted"\n', 'line one\nline two ✓');
      (await inbox.add([finding], AT))._unsafeUnwrap();
      expect((await factory.reopen(inbox).list())._unsafeUnwrap().entries[0]?.finding).toEqual(finding);
    });

    it('an identical finding is held once; a different reply to the same question is held too', async () => {
      const inbox = factory.makeInbox();
      (await inbox.add([reply('q-1')], AT))._unsafeUnwrap();
      (await inbox.add([reply('q-1'), reply('q-1')], AT))._unsafeUnwrap();
      const listed = (await inbox.add([reply('q-1', 'no, wait')], AT))._unsafeUnwrap();
      expect(listed.entries.map((e) => e.finding.details['replyText'])).toEqual(['yes', 'no, wait']);
    });

    it('adding nothing changes nothing', async () => {
      const inbox = factory.makeInbox();
      expect((await inbox.add([], AT))._unsafeUnwrap()).toEqual({ entries: [], warnings: [] });
    });

    it('remove drops exactly the named entries; unknown ids are ignored', async () => {
      const inbox = factory.makeInbox();
      const held = (await inbox.add([reply('q-1'), reply('q-2'), reply('q-3')], AT))._unsafeUnwrap().entries;
      (await inbox.remove([held[1]?.id ?? '', 'no-such-id']))._unsafeUnwrap();
      expect((await factory.reopen(inbox).list())._unsafeUnwrap().entries.map((e) => e.finding.subject)).toEqual(['q-1', 'q-3']);
      (await inbox.remove(held.map((e) => e.id)))._unsafeUnwrap();
      expect((await inbox.list())._unsafeUnwrap().entries).toEqual([]);
    });

    it('ids stay unique after removals and new arrivals', async () => {
      const inbox = factory.makeInbox();
      const first = (await inbox.add([reply('q-1'), reply('q-2')], AT))._unsafeUnwrap().entries;
      (await inbox.remove([first[0]?.id ?? '']))._unsafeUnwrap();
      const next = (await inbox.add([reply('q-3')], AT))._unsafeUnwrap().entries;
      expect(new Set(next.map((e) => e.id)).size).toBe(next.length);
      expect(next.map((e) => e.finding.subject)).toEqual(['q-2', 'q-3']);
    });

    it('calls made at once are applied one after another, none lost', async () => {
      const inbox = factory.makeInbox();
      const held = (await inbox.add([reply('q-0')], AT))._unsafeUnwrap().entries;
      await Promise.all([inbox.remove([held[0]?.id ?? '']), ...Array.from({ length: 8 }, (_, i) => inbox.add([reply(`q-${i + 1}`)], AT))]);
      const subjects = (await inbox.list())
        ._unsafeUnwrap()
        .entries.map((e) => e.finding.subject)
        .sort();
      expect(subjects).toEqual(Array.from({ length: 8 }, (_, i) => `q-${i + 1}`).sort());
    });
  });
}
