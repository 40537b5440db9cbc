/**
 * @heartbeat-kit/woterclip/node — Node adapters of the WoterClip ports: the JSONL log file, the
 * `.woterclip/` file reader, a PATH tool probe and a small execa command runner.
 * @packageDocumentation
 */
export { createFileBeatLog, createDirectoryWorkspace, createPathToolProbe } from './file-adapters.js';
export { createProcessRunner, type ProcessRunnerOptions } from './process-runner.js';
