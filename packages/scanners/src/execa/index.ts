/**
 * `@heartbeat-kit/scanners/execa` — the I/O adapters of the scanners: the execa `CommandRunner`
 * (the only execa import of the package), a Node `fileExists` and the Node `PipelineFiles`.
 * @packageDocumentation
 */
export { createExecaCommandRunner, buildChildEnv, classifyExecaOutcome, ALLOWED_ENV_KEYS } from './execa-command-runner.js';
export type { ExecaCommandRunnerOptions } from './execa-command-runner.js';
export { nodeFileExists } from './node-file-exists.js';
export { createNodePipelineFiles, type NodePipelineFilesOptions } from './node-pipeline-files.js';
