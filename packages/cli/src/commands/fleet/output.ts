// What every fleet subcommand prints the same way: its usage errors, its Redis failures and ages.
import { EXIT } from '../../exit-codes.js';
import type { CliIo } from '../../io.js';

/** Prints `heartbeat-kit fleet SUB: message` on stderr and returns the usage exit code. */
export function usageError(io: CliIo, sub: string, message: string): number {
  io.stderr(`heartbeat-kit fleet${sub === '' ? '' : ` ${sub}`}: ${message}\n`);
  return EXIT.usage;
}

/** Prints a Redis command that failed after Redis answered the probe, and returns exit 3. */
export function redisFailed(io: CliIo, sub: string, message: string): number {
  io.stderr(`heartbeat-kit fleet ${sub}: Redis failed: ${message}. Fix: check --redis and that redis-server runs.\n`);
  return EXIT.failure;
}

/** Milliseconds as seconds for a table (`0.30s`, `600s`), `-` when unknown. */
export const seconds = (ms: number | undefined): string => (ms === undefined ? '-' : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 0)}s`);
