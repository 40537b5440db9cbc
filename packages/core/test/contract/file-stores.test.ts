import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { createFileLockStore, createFileReceiptStore, createFileReplyInbox, createFileStateStore } from '../../src/node/index.js';
import type { ReplyInbox } from '../../src/ports/reply-inbox.js';
import { replyInboxContract } from './reply-inbox-contract.js';
import { receiptStoreContract } from './receipt-store-contract.js';
import { lockStoreContract } from './lock-store-contract.js';
import { stateStoreContract } from './state-store-contract.js';

const root = mkdtempSync(join(tmpdir(), 'hb-core-contract-'));
let counter = 0;
const fresh = (name: string): string => join(root, `case-${(counter += 1)}`, name);
afterAll(() => rmSync(root, { recursive: true, force: true }));

stateStoreContract('file', () => createFileStateStore({ path: fresh('state.json') }));
// The contract's holders are all this one process, so liveness cannot tell them apart: the age
// rule is what is exercised (`identity: false`); liveness has its own tests beside the adapter.
lockStoreContract('file (JSON codec)', () => createFileLockStore({ path: fresh('heartbeat.lock'), identity: false }));
lockStoreContract('file (JSON codec, identity of another host)', () =>
  createFileLockStore({ path: fresh('heartbeat.lock'), identity: { pid: 1, host: 'elsewhere.invalid' } }),
);
receiptStoreContract('file', (bounds, clock) => createFileReceiptStore({ directory: fresh('state.receipts'), bounds, clock }));

const inboxPaths = new WeakMap<ReplyInbox, string>();
replyInboxContract('file', {
  makeInbox: () => {
    const path = fresh('state.inbox.json');
    const inbox = createFileReplyInbox({ path });
    inboxPaths.set(inbox, path);
    return inbox;
  },
  // A new adapter on the same file: what the next process would read.
  reopen: (inbox) => createFileReplyInbox({ path: inboxPaths.get(inbox) ?? '' }),
});
