import {
  createMemoryLockStore,
  createMemoryReceiptStore,
  createMemoryReplyInbox,
  createMemoryStateStore,
} from '../../src/testing/index.js';
import { replyInboxContract } from './reply-inbox-contract.js';
import { receiptStoreContract } from './receipt-store-contract.js';
import { lockStoreContract } from './lock-store-contract.js';
import { stateStoreContract } from './state-store-contract.js';

stateStoreContract('memory', () => createMemoryStateStore());
lockStoreContract('memory', () => createMemoryLockStore());
lockStoreContract('memory with fencing', () => createMemoryLockStore({ fencing: true }));
receiptStoreContract('memory', (bounds, clock) => createMemoryReceiptStore({ bounds, clock }));
replyInboxContract('memory', { makeInbox: () => createMemoryReplyInbox(), reopen: (inbox) => inbox });
