import { isAbsolute, join, resolve } from 'node:path';
import { formatHeartbeatConfigError, type HeartbeatConfig, parseHeartbeatConfig } from '@heartbeat-kit/core';
import { DEFAULT_HEARTBEAT_FILE, resolveTimeZone } from '@heartbeat-kit/core/host';
import { NotRegularFileError, readRegularFile } from '@heartbeat-kit/core/node';
import { BUILTIN_CONFIG_SECTIONS, BUILTIN_SCANNERS, DEFAULT_CATEGORIES } from '@heartbeat-kit/scanners';
import { err, ok, type Result } from 'neverthrow';
import { systemTimeZone } from './system-time-zone.js';

/** A loaded HEARTBEAT.md with its resolved zone. */
export interface LoadedHeartbeatSettings {
  readonly config: HeartbeatConfig;
  readonly timeZone: string;
  readonly found: boolean;
  readonly file: string;
  readonly warnings: readonly string[];
  /** `found`, `empty` (defaults, by the spec) or `missing`. */
  readonly presence: 'found' | 'empty' | 'missing';
  /** The file has text but nothing heartbeat-kit recognises: one problem line (`heartbeat-kit: warning: config: …; fix: …`). */
  readonly problem?: { readonly message: string; readonly fix: string };
}

const UNRECOGNISED_FIX =
  'use "- Key: value" lines under the headings Active Hours, Heartbeat, Beads, Orchestrators, Git, Stale Tasks, Idle Orchestrators, GChat, Pipelines or Environment (see docs/reference/configuration.md)';

/**
 * Reads `DIR/.claude/HEARTBEAT.md` (or `--config FILE`). A missing default file means defaults,
 * silently, and is never created; a missing explicit `--config` file is an error.
 */
export async function loadHeartbeatSettings(
  cwd: string,
  configPath: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): Promise<Result<LoadedHeartbeatSettings, string>> {
  const file =
    configPath === undefined ? join(cwd, DEFAULT_HEARTBEAT_FILE) : isAbsolute(configPath) ? configPath : resolve(cwd, configPath);
  let text: string | undefined;
  try {
    // A link (dotfiles) is followed; a FIFO or device is refused instead of blocking the cycle.
    text = await readRegularFile(file, { followSymlinks: true });
  } catch (error) {
    if (error instanceof NotRegularFileError) return err(`config file ${error.message}`);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && configPath === undefined) text = undefined;
    else if (code === 'ENOENT')
      return err(`config file ${file} does not exist. Fix: pass an existing file to --config, or run 'heartbeat-kit init'.`);
    else return err(`cannot read config file ${file}: ${(error as Error).message}. Fix: check the path and its permissions.`);
  }
  const parsed = parseHeartbeatConfig(text, {
    file: configPath ?? DEFAULT_HEARTBEAT_FILE,
    categories: DEFAULT_CATEGORIES,
    scanners: BUILTIN_SCANNERS,
    sections: BUILTIN_CONFIG_SECTIONS,
  });
  if (parsed.isErr()) return err(formatHeartbeatConfigError(parsed.error));
  // The file's zone when it names one (its error names the file), else the system's (its error names TZ).
  const configured = parsed.value.config.activeHours.timeZone;
  let timeZone: string;
  if (configured !== undefined) {
    const zone = resolveTimeZone(configured, 'UTC');
    if (zone.isErr()) return err(`${configPath ?? DEFAULT_HEARTBEAT_FILE}: ${zone.error.message}`);
    timeZone = zone.value;
  } else {
    const system = systemTimeZone(env);
    if (system.isErr()) return err(`${system.error.message}. Fix: ${system.error.fix}.`);
    timeZone = system.value;
  }
  const problem = parsed.value.recognised
    ? {}
    : { problem: { message: `${file} has no heading or key heartbeat-kit recognises, so the defaults apply`, fix: UNRECOGNISED_FIX } };
  return ok({
    config: parsed.value.config,
    timeZone,
    found: parsed.value.found,
    presence: parsed.value.presence,
    file,
    warnings: boundWarnings(parsed.value.warnings),
    ...problem,
  });
}

/** How many config warnings are printed before the rest are summarised. */
export const MAX_CONFIG_WARNINGS = 10;

/**
 * Keeps the first {@link MAX_CONFIG_WARNINGS} warnings and summarises the rest in one line, so a
 * 10,000-line HEARTBEAT.md full of unknown lines does not print 10,000 warnings every cycle.
 */
export function boundWarnings(warnings: readonly string[]): readonly string[] {
  if (warnings.length <= MAX_CONFIG_WARNINGS) return warnings;
  return [
    ...warnings.slice(0, MAX_CONFIG_WARNINGS),
    `… and ${warnings.length - MAX_CONFIG_WARNINGS} more warnings like these in the config file (fix the ones above, then run again to see the rest)`,
  ];
}
