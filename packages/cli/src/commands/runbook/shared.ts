import { resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { resolveTimeZone, stripTerminalEscapes } from '@heartbeat-kit/core/host';
import { EXIT } from '../../exit-codes.js';
import type { CliIo } from '../../io.js';
import { parseInstantFlag } from '../../wiring/instant.js';
import { systemTimeZone } from '../../wiring/system-time-zone.js';

/** Options every runbook subcommand takes. */
export const COMMON_OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  json: { type: 'boolean' },
  now: { type: 'string' },
  tz: { type: 'string' },
} as const satisfies ParseArgsConfig['options'];

/** The resolved common options. */
export interface Common {
  readonly json: boolean;
  readonly now: Date;
  readonly tz: string;
}

/** A usage error: one line on stderr naming the fix. */
export class UsageError extends Error {}

/** Prints a usage error and returns the usage exit code. */
export function usageError(io: CliIo, sub: string, message: string): number {
  io.stderr(`heartbeat-kit runbook ${sub}: ${message}\n`);
  return EXIT.usage;
}

/** Parses argv with the common options plus `extra`; throws {@link UsageError} on bad input. */
export function parse<O extends NonNullable<ParseArgsConfig['options']>>(
  argv: readonly string[],
  extra: O,
): ReturnType<typeof parseArgs<{ args: string[]; options: typeof COMMON_OPTIONS & O; allowPositionals: true; strict: true }>> {
  try {
    return parseArgs({ args: [...argv], options: { ...COMMON_OPTIONS, ...extra }, allowPositionals: true, strict: true });
  } catch (cause) {
    throw new UsageError(cause instanceof Error ? cause.message.split('\n')[0] : String(cause));
  }
}

/** Resolves `--now` and `--tz` (defaults: the current instant, `TZ` or the system zone). */
export function resolveCommon(
  values: { json?: boolean | undefined; now?: string | undefined; tz?: string | undefined },
  io: CliIo,
): Common {
  const parsed = parseInstantFlag('--now', values.now);
  if (!parsed.ok) throw new UsageError(parsed.message);
  const now = parsed.date ?? new Date();
  // The zone is read the way the heartbeat config's is (core's resolveTimeZone): one rule for every
  // command, and the stored spelling (trimmed, letter case corrected) is what the dates use.
  if (values.tz === undefined) {
    // No --tz: TZ or the system's zone, read as every command reads it (a bad TZ names TZ, not --tz).
    const system = systemTimeZone(io.env);
    if (!system.ok) throw new UsageError(`${system.error.message}; fix: pass --tz Europe/Berlin or ${system.error.fix}`);
    return { json: values.json === true, now, tz: system.zone };
  }
  const resolved = resolveTimeZone(values.tz, 'UTC');
  if (resolved.isErr() || values.tz.trim() === '')
    throw new UsageError(`--tz ${JSON.stringify(values.tz)} is not an IANA time zone; use e.g. --tz Europe/Berlin`);
  return { json: values.json === true, now, tz: resolved.value };
}

/** Writes a JSON document followed by a newline. */
export function printJson(io: CliIo, value: unknown): void {
  io.stdout(`${JSON.stringify(value, null, 2)}\n`);
}

/** Resolves a path the user gave against the working directory. */
export function resolvePath(io: CliIo, path: string): string {
  return resolve(io.cwd, path);
}

/** Makes one line safe for a terminal: no escapes or control characters. */
export function oneLine(text: string): string {
  return stripTerminalEscapes(text).replace(/[\r\n\t]+/g, ' ');
}
