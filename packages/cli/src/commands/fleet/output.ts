// What every fleet subcommand ends with and prints the same way: its Redis failures and ages.
import type { Result } from 'neverthrow';
import { commandFailure, usageFailure, type CommandFailure } from '../../cli-kernel/index.js';
import type { ExitCode } from '../../exit-codes.js';

/** How a fleet subcommand ends: its exit code, or the failure the kernel prints under its name. */
export type FleetOutcome = Result<ExitCode, CommandFailure>;

/** A Redis command that failed after Redis answered the probe (exit 3). */
export function redisFailed(message: string): Result<never, CommandFailure> {
  return commandFailure(`Redis failed: ${message}. Fix: check --redis and that redis-server runs.`);
}

/** A heartbeat ID this fleet has not registered (exit 2). */
export function notInFleet(id: string): Result<never, CommandFailure> {
  return usageFailure(`no heartbeat "${id}" in this fleet. Fix: see 'heartbeat-kit fleet list' (and --prefix).`);
}

/** The message of something a Redis client threw. */
export const thrownMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Milliseconds as seconds for a table (`0.30s`, `600s`), `-` when unknown. */
export const seconds = (ms: number | undefined): string => (ms === undefined ? '-' : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 0)}s`);
