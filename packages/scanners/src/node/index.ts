/**
 * `@heartbeat-kit/scanners/node` — the scanners' own Node adapters: a Node `fileExists` and the
 * Node `PipelineFiles`. The process runner every package shares is `createProcessRunner` in
 * `@heartbeat-kit/core/node`.
 * @module @heartbeat-kit/scanners/node
 */
export { nodeFileExists } from './node-file-exists.js';
export { createNodePipelineFiles, type NodePipelineFilesOptions } from './node-pipeline-files.js';
