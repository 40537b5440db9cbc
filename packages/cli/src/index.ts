/**
 * The heartbeat-kit CLI as a library: `main(argv, io)` runs any command in-process.
 * @module heartbeat-kit
 */
export { main } from './main.js';
export { type CliIo, type Command, type LoopTime } from './io.js';
export { type CyclePrefetch, type PrefetchStats } from './wiring/cycle-prefetch.js';
export { EXIT, EXIT_CODE_TABLE, type ExitCode, type ExitCodeRow } from './exit-codes.js';
