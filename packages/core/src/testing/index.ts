/**
 * @heartbeat-kit/core/testing — in-memory fakes of the core ports for tests and examples:
 * a hand-moved clock with sleep, state and lock stores, a recording sink, operator activity and
 * a command runner answered by a handler, a reply inbox and an output spool; and the contract
 * suite of every port, to run against an adapter of your own.
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
// The port contract suites: the behaviour every adapter of a port must have. Each registers a vitest
// `describe` block (vitest, and fast-check for the state and receipt stores, are optional peers: they
// are imported when a suite is called, so the fakes above need neither). Call one with `await` at
// the top of a *.test.ts file, with a factory that makes a fresh adapter per test.
export { stateStoreContract, type StateStoreFactory } from './contracts/state-store-contract.js';
export { lockStoreContract, type LockStoreFactory } from './contracts/lock-store-contract.js';
export { receiptStoreContract, type ReceiptStoreFactory } from './contracts/receipt-store-contract.js';
export { ackStoreContract, type AckStoreFactory } from './contracts/ack-store-contract.js';
export { pauseStoreContract, type PauseStoreFactory } from './contracts/pause-store-contract.js';
export { sinkContract, type SinkHarness } from './contracts/sink-contract.js';
export { replyInboxContract, type ReplyInboxFactory } from './contracts/reply-inbox-contract.js';
export { outputSpoolContract, type OutputSpoolFactory, type SpoolWriter } from './contracts/output-spool-contract.js';
export {
  describeCommandRunnerContract,
  type CommandRunnerContractOp,
  type CommandRunnerHarness,
} from './contracts/command-runner-contract.js';
