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
import {
  outputSpoolContract,
  replyInboxContract,
  receiptStoreContract,
  lockStoreContract,
  stateStoreContract,
  ackStoreContract,
} from '../../src/testing/index.js';

await stateStoreContract('memory', () => createMemoryStateStore());
await ackStoreContract('memory', () => createMemoryAckStore());
await lockStoreContract('memory', () => createMemoryLockStore());
await lockStoreContract('memory with fencing', () => createMemoryLockStore({ fencing: true }));
await receiptStoreContract('memory', (bounds, clock) => createMemoryReceiptStore({ bounds, clock }));
await replyInboxContract('memory', { makeInbox: () => createMemoryReplyInbox(), reopen: (inbox) => inbox });

const liveFakePids = new Set<number>();
let nextFakePid = 4_000_000;
const memorySpools = new WeakMap<OutputSpool, MemoryOutputSpool>();
await outputSpoolContract('memory', {
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
