import { resolve } from 'node:path';
import { resolveTimeZone, stripTerminalEscapes } from '@heartbeat-kit/core/host';
import { ok, type Result } from 'neverthrow';
import { usageFailure, type CommandFailure, type FlagSpecs } from '../../cli-kernel/index.js';
import type { CliIo } from '../../io.js';
import { parseInstantFlag } from '../../wiring/instant.js';
import { systemTimeZone } from '../../wiring/system-time-zone.js';

/** Flags every runbook subcommand takes (the help lists them under "Common options"). */
export const COMMON_FLAGS = {
  json: { type: 'boolean', help: 'print one JSON document instead of text' },
  now: { type: 'string', value: 'ISO', help: 'the instant to decide for (default: now)' },
  tz: { type: 'string', value: 'ZONE', help: 'the time zone that decides which day "today" is' },
} as const satisfies FlagSpecs;

/** The resolved common options. */
export interface Common {
  readonly json: boolean;
  readonly now: Date;
  readonly tz: string;
}

/** A usage error of `runbook SUB`: the problem, then `Fix:` (the help page when the message names none). */
export function runbookUsage(sub: string, message: string): Result<never, CommandFailure> {
  const fix = message.includes(' Fix: ') ? '' : ` Fix: see 'heartbeat-kit help runbook ${sub}'.`;
  return usageFailure(`${message.replace(/\.$/, '')}.${fix}`);
}

/** The one positional argument a subcommand takes (`what` and `example` name it in the refusal). */
export function onePositional(sub: string, positionals: readonly string[], what: string, example: string): Result<string, CommandFailure> {
  const [first] = positionals;
  if (positionals.length !== 1 || first === undefined) return runbookUsage(sub, `expected exactly one ${what}; e.g. ${example}`);
  return ok(first);
}

/** Refuses positional arguments for a subcommand that takes its files by flag (`hint` says which). */
export function noPositionals(sub: string, positionals: readonly string[], hint: string): Result<void, CommandFailure> {
  if (positionals.length === 0) return ok(undefined);
  return runbookUsage(sub, `unexpected argument ${JSON.stringify(positionals[0])}; ${hint}`);
}

/** Resolves `--now` and `--tz` (defaults: the current instant, `TZ` or the system zone). */
export function resolveCommon(
  sub: string,
  values: { json?: boolean | undefined; now?: string | undefined; tz?: string | undefined },
  io: CliIo,
): Result<Common, CommandFailure> {
  const parsed = parseInstantFlag('--now', values.now);
  if (parsed.isErr()) return runbookUsage(sub, parsed.error);
  const now = parsed.value ?? new Date();
  // The zone is read the way the heartbeat config's is (core's resolveTimeZone): one rule for every
  // command, and the stored spelling (trimmed, letter case corrected) is what the dates use.
  if (values.tz === undefined) {
    // No --tz: TZ or the system's zone, read as every command reads it (a bad TZ names TZ, not --tz).
    const system = systemTimeZone(io.env);
    if (system.isErr()) return runbookUsage(sub, `${system.error.message}; fix: pass --tz Europe/Berlin or ${system.error.fix}`);
    return ok({ json: values.json === true, now, tz: system.value });
  }
  const resolved = resolveTimeZone(values.tz, 'UTC');
  if (resolved.isErr() || values.tz.trim() === '')
    return runbookUsage(sub, `--tz ${JSON.stringify(values.tz)} is not an IANA time zone; use e.g. --tz Europe/Berlin`);
  return ok({ json: values.json === true, now, tz: resolved.value });
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
