/**
 * @heartbeat-kit/core/node — the Node adapters of the core ports: system clock and sleep,
 * an atomic JSON state file, a cross-process file lock, stdout and JSONL sinks, and operator
 * activity from a file's mtime, and the one process runner (node:child_process) every package uses.
 * @module @heartbeat-kit/core/node
 */
export { systemClock, nodeSleep } from './system-clock.js';
export { createFileStateStore, type FileStateStoreOptions } from './file-state-store.js';
export { createFileLockStore, takeoverGuardPath, type FileLockStoreOptions } from './file-lock-store.js';
export { currentProcessIdentity, holderLiveness, processStartMark, type ProcessIdentity } from './process-liveness.js';
export { createStdoutSink, createJsonlFileSink, type JsonlFileSinkOptions } from './sinks.js';
export {
  createAgentInboxSink,
  listAgentInbox,
  claimAgentInbox,
  agentInboxMessageId,
  type AgentInboxSinkOptions,
  type AgentInboxClaimOptions,
  type AgentInboxMessage,
  type AgentInboxProblem,
  type AgentInboxError,
  type AgentInboxListing,
  type AgentInboxClaim,
} from './agent-inbox.js';
export { createFileMtimeOperatorActivity } from './file-mtime-operator-activity.js';
export { jsonLockCodec, type LockCodec } from '../lock/lock-codecs.js';
export { createProcessRunner, killRunningProcessGroups, type ProcessRunnerOptions } from './process-runner.js';
export { createFileReceiptStore, receiptsDirectoryFor, type FileReceiptStoreOptions } from './file-receipt-store.js';
export { createFileReplyInbox, inboxPathFor, type FileReplyInboxOptions } from './file-reply-inbox.js';
export { createFileOutputSpool, gchatSpoolPrefixFor, type FileOutputSpoolOptions } from './file-output-spool.js';
export {
  NotRegularFileError,
  openRegularFileForAppend,
  readRegularFile,
  type NonRegularKind,
  type RegularFileOptions,
} from './regular-file.js';
export { createFileAckStore, ackPathFor, type FileAckStoreOptions } from './file-ack-store.js';
export { createFilePauseStore, pausePathFor, type FilePauseStoreOptions } from './file-pause-store.js';
export { replaceFileDurably } from './durable-fs.js';
