import type { ResultAsync } from 'neverthrow';
import type { InboxEntry } from '../inbox/inbox-entries.js';
import type { Finding } from '../domain/finding.js';

/** Why a reply inbox could not do its job. */
export interface ReplyInboxError {
  readonly kind: 'io';
  readonly message: string;
}

/** What listing the inbox gave: entries in arrival order; what had to be set aside is a warning. */
export interface ListedInbox {
  readonly entries: readonly InboxEntry[];
  readonly warnings: readonly string[];
}

/**
 * Holds findings read from a consuming source (the GChat poller hands each reply out once) from
 * the moment they are read until the cycle state owns them. An `add` that returned ok survives a
 * SIGKILL or power loss; an identical finding already held is not added twice, and it answers with
 * everything the inbox now holds (what earlier, killed cycles read included). Entries leave only
 * through `remove`, which the cycle calls once the state it saved records them as reported or
 * still undelivered.
 */
export interface ReplyInbox {
  readonly add: (findings: readonly Finding[], receivedAt: Date) => ResultAsync<ListedInbox, ReplyInboxError>;
  readonly list: () => ResultAsync<ListedInbox, ReplyInboxError>;
  readonly remove: (ids: readonly string[]) => ResultAsync<void, ReplyInboxError>;
}
