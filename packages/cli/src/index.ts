/**
 * The heartbeat-kit CLI as a library: `main(argv, io)` runs any command in-process.
 * @module heartbeat-kit
 */
export { main } from './main.js';
export { EXIT, type CliIo, type Command } from './io.js';
