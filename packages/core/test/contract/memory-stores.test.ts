import {
  createMemoryLockStore,
  createMemoryOutputSpool,
  createMemoryReceiptStore,
  createMemoryReplyInbox,
  createMemoryStateStore,
  createMemoryAckStore,
  type MemoryOutputSpool,
} from '../../src/testing/index.js';
import type { OutputSpool } from '../../src/ports/output-spool.js';
import { outputSpoolContract } from './output-spool-contract.js';
import { replyInboxContract } from './reply-inbox-contract.js';
import { receiptStoreContract } from './receipt-store-contract.js';
import { lockStoreContract } from './lock-store-contract.js';
import { stateStoreContract } from './state-store-contract.js';
import { ackStoreContract } from './ack-store-contract.js';

stateStoreContract('memory', () => createMemoryStateStore());
ackStoreContract('memory', () => createMemoryAckStore());
lockStoreContract('memory', () => createMemoryLockStore());
lockStoreContract('memory with fencing', () => createMemoryLockStore({ fencing: true }));
receiptStoreContract('memory', (bounds, clock) => createMemoryReceiptStore({ bounds, clock }));
replyInboxContract('memory', { makeInbox: () => createMemoryReplyInbox(), reopen: (inbox) => inbox });

const liveFakePids = new Set<number>();
let nextFakePid = 4_000_000;
const memorySpools = new WeakMap<OutputSpool, MemoryOutputSpool>();
outputSpoolContract('memory', {
  makeSpool: (clock, maxReadBytes) => {
    const spool = createMemoryOutputSpool({
      clock,
      writerAlive: (pid) => liveFakePids.has(pid),
      ...(maxReadBytes === undefined ? {} : { maxReadBytes }),
    });
    memorySpools.set(spool, spool);
    return spool;
  },
  reopen: (spool, clock) => {
    const other = (memorySpools.get(spool) ?? createMemoryOutputSpool()).reopen(clock);
    memorySpools.set(other, other);
    return other;
  },
  write: (spool, opened, text) => memorySpools.get(spool)?.write(opened.id, text),
  startWriter: () => {
    const pid = (nextFakePid += 1);
    liveFakePids.add(pid);
    return Promise.resolve({ pid, stop: () => Promise.resolve(void liveFakePids.delete(pid)) });
  },
});
