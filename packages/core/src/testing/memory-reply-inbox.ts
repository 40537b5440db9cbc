import { okAsync } from 'neverthrow';
import { addToInbox, inboxEntrySchema, type InboxEntry } from '../inbox/inbox-entries.js';
import type { ReplyInbox } from '../ports/reply-inbox.js';

/** An in-memory {@link ReplyInbox} that also shows what it holds without going through a Result. */
export interface MemoryReplyInbox extends ReplyInbox {
  /** The entries held now, in arrival order. */
  readonly entries: () => readonly InboxEntry[];
}

/**
 * An in-memory reply inbox with the file adapter's semantics (entries are copied through the
 * stored schema, so a test sees what a file round trip would give).
 *
 * @example
 * ```ts
 * import { createFinding } from '@heartbeat-kit/core';
 * import { createMemoryReplyInbox } from '@heartbeat-kit/core/testing';
 *
 * const inbox = createMemoryReplyInbox();
 * const reply = createFinding({ category: 'GCHAT_REPLY_RECEIVED', subject: 'q-1', line: '- q-1', action: 'Answer', short: 'reply' });
 * await inbox.add([reply], new Date('2026-02-19T10:00:00Z'));
 * console.log(inbox.entries().length); // 1 — until the cycle removes it after saving its state
 * ```
 */
export function createMemoryReplyInbox(): MemoryReplyInbox {
  let held: InboxEntry[] = [];
  return {
    add: (findings, receivedAt) => {
      const copied = findings.map((f) => inboxEntrySchema.shape.finding.parse(JSON.parse(JSON.stringify(f))));
      const next = addToInbox(held, copied, receivedAt.getTime());
      held = next.entries;
      return okAsync({ entries: [...held], warnings: [] });
    },
    list: () => okAsync({ entries: [...held], warnings: [] }),
    remove: (ids) => {
      const gone = new Set(ids);
      held = held.filter((e) => !gone.has(e.id));
      return okAsync(undefined);
    },
    entries: () => [...held],
  };
}
