/**
 * @heartbeat-kit/woterclip/node — Node adapters of the WoterClip ports: the JSONL log file, the
 * `.woterclip/` file reader, and a PATH tool probe (the process runner is
 * `createProcessRunner` in `@heartbeat-kit/core/node`).
 * @module @heartbeat-kit/woterclip/node
 */
export { createFileBeatLog, createDirectoryWorkspace, createPathToolProbe, type DirectoryWorkspaceOptions } from './file-adapters.js';
