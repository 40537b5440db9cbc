/**
 * @heartbeat-kit/core/testing — in-memory fakes of the core ports for tests and examples:
 * a hand-moved clock with sleep, state and lock stores, a recording sink, operator activity and
 * a command runner answered by a handler, a reply inbox and an output spool.
 * @module @heartbeat-kit/core/testing
 */
export { createFakeClock, type FakeClock } from './fake-clock.js';
export { createMemoryStateStore, type MemoryStateStore, type MemoryStateStoreOptions } from './memory-state-store.js';
export { createMemoryLockStore, type MemoryLockStore, type MemoryLockStoreOptions } from './memory-lock-store.js';
export { createRecordingSink, type RecordingSink, type RecordingSinkOptions } from './recording-sink.js';
export { createFakeOperatorActivity, type FakeOperatorActivity } from './fake-operator-activity.js';
export {
  createFakeCommandRunner,
  type FakeCommandHandler,
  type FakeCommandResponse,
  type FakeCommandRunner,
} from './fake-command-runner.js';
export { createMemoryReceiptStore, type MemoryReceiptStore } from './memory-receipt-store.js';
export { createMemoryReplyInbox, type MemoryReplyInbox } from './memory-reply-inbox.js';
export { createMemoryOutputSpool, type MemoryOutputSpool, type MemoryOutputSpoolOptions } from './memory-output-spool.js';
export { createMemoryAckStore, type MemoryAckStore } from './memory-ack-store.js';
export { createMemoryPauseStore, type MemoryPauseStore } from './memory-pause-store.js';
