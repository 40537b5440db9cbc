/**
 * Node adapters of @heartbeat-kit/runbook: the command gate (over core's process runner), atomic runbook writes and a
 * TaskStore over a JSON status file.
 * @module @heartbeat-kit/runbook/node
 */
export { createCommandGate, type CommandGateOptions } from './command-gate.js';
export { readTextFile, writeTextFileAtomic, createFileTaskStore, type FileError } from './runbook-files.js';
