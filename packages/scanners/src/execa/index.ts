/**
 * `@heartbeat-kit/scanners/execa` — the I/O adapters of the scanners: the execa `CommandRunner`
 * (the only execa import of the package) and a Node `fileExists`.
 * @packageDocumentation
 */
export { createExecaCommandRunner, buildChildEnv, classifyExecaOutcome, ALLOWED_ENV_KEYS } from './execa-command-runner.js';
export type { ExecaCommandRunnerOptions } from './execa-command-runner.js';
export { nodeFileExists } from './node-file-exists.js';
export { createNodePipelineFiles, type NodePipelineFilesOptions } from '../pipelines/node-files.js';
