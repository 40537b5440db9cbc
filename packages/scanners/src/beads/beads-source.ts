import { err, ok, type Result } from 'neverthrow';
import type { CommandOutput, CommandRunner } from '@heartbeat-kit/core';
import { oncePerCycle, runTool, firstStderrLine, type DurationMeter } from '../scanner-support.js';
import type { Bead } from './bead.js';
import { parseBdJson } from './parse-bd-json.js';
import { parseBdText } from './parse-bd-text.js';

/** Why bd could not give a list of beads. `tool-missing` and `not-configured` make a scanner skip. */
export type BeadsSourceError =
  | { readonly kind: 'tool-missing'; readonly message: string }
  | { readonly kind: 'not-configured'; readonly message: string }
  /** `cause`: the failure without the bd command's arguments, shared by every bd call that fails this way. */
  | { readonly kind: 'failed'; readonly message: string; readonly cause?: string };

/** Reads beads through bd, once per cycle for the in-progress list that two scanners share. */
export interface BeadsSource {
  /** `bd ready` (JSON, or a text form when `--json` is unsupported). */
  readonly ready: (signal: AbortSignal, meter: DurationMeter) => Promise<Result<readonly Bead[], BeadsSourceError>>;
  /**
   * `bd list --status=in_progress`; calls with the same `cycleKey` (the cycle's `now`) share one run,
   * so the orchestrator and stale-task scanners do not both spawn bd.
   */
  readonly inProgress: (cycleKey: Date, signal: AbortSignal, meter: DurationMeter) => Promise<Result<readonly Bead[], BeadsSourceError>>;
}

/** Dependencies of {@link createBeadsSource}. */
export interface BeadsSourceDeps {
  readonly runner: CommandRunner;
  /** Where bd looks for its database. */
  readonly cwd: string;
  /** The bd executable (default `bd`). */
  readonly bdFile?: string;
}

const UNKNOWN_FLAG = /unknown (?:shorthand )?flag/i;

function bdErrorMessage(output: CommandOutput): string {
  // In JSON mode bd may print {"error": …} on stderr or stdout.
  for (const text of [output.stderr, output.stdout]) {
    try {
      const value: unknown = JSON.parse(text);
      if (typeof value === 'object' && value !== null && 'error' in value && typeof value.error === 'string') return value.error;
    } catch {
      // not JSON: fall through to the text form
    }
  }
  return firstStderrLine(output.stderr) || `bd exited with ${output.exitCode}`;
}

/**
 * Runs the first supported variant of a bd command: JSON first, then the text forms for builds
 * whose `--json` or `--flat` is unknown.
 */
async function runBd(
  deps: BeadsSourceDeps,
  variants: readonly (readonly string[])[],
  signal: AbortSignal,
  meter: DurationMeter,
): Promise<Result<readonly Bead[], BeadsSourceError>> {
  const file = deps.bdFile ?? 'bd';
  let lastError: BeadsSourceError = { kind: 'failed', message: 'bd: no command variant ran' };
  for (const args of variants) {
    const outcome = await runTool(deps.runner, { file, args, cwd: deps.cwd, profile: 'bd', speculative: true }, signal, meter);
    if (outcome.kind === 'missing') return err({ kind: 'tool-missing', message: outcome.reason });
    if (outcome.kind === 'failed') return err({ kind: 'failed', message: outcome.reason });
    const { output } = outcome;
    if (output.exitCode !== 0) {
      const message = bdErrorMessage(output);
      if (/no beads database found/i.test(message) || /no beads database found/i.test(output.stderr))
        return err({ kind: 'not-configured', message: 'no beads database found' });
      if (UNKNOWN_FLAG.test(output.stderr)) {
        lastError = { kind: 'failed', message };
        continue;
      }
      return err({ kind: 'failed', message: `bd ${args.join(' ')}: ${message}`, cause: `bd: ${message}` });
    }
    const json = args.includes('--json');
    // A build that ignores --json prints its text form; output that opens like JSON but does not
    // parse (cut short, say) is broken JSON, and saying so beats "unrecognised line 1".
    const opensLikeJson = /^\s*[[{]/.test(output.stdout);
    const parsed = json
      ? parseBdJson(output.stdout).orElse((e) => (e.kind === 'invalid-json' && !opensLikeJson ? parseBdText(output.stdout) : err(e)))
      : parseBdText(output.stdout);
    if (parsed.isErr()) {
      const e = parsed.error;
      const detail =
        e.kind === 'unrecognised-line'
          ? `unrecognised line ${e.line}`
          : e.kind === 'invalid-json'
            ? `invalid JSON (${output.stdout.length} characters): ${e.message}`
            : e.message;
      return err(
        e.kind === 'bd-error' && /no beads database/i.test(e.message)
          ? { kind: 'not-configured', message: `bd ${args.join(' ')}: ${detail}` }
          : { kind: 'failed', message: `bd ${args.join(' ')}: ${detail}`, cause: `bd: ${detail}` },
      );
    }
    return ok(parsed.value);
  }
  return err(lastError);
}

/** Creates a {@link BeadsSource} over a command runner. */
export function createBeadsSource(deps: BeadsSourceDeps): BeadsSource {
  // Keyed by the instant: the two scanners of a cycle share it (their `now` may be distinct objects).
  const inProgress = oncePerCycle(
    (cycle) => cycle.getTime(),
    (signal, meter) =>
      runBd(
        deps,
        [
          ['list', '--status=in_progress', '--json', '--limit', '0'],
          ['list', '--status=in_progress', '--json'],
          ['list', '--status=in_progress', '--flat'],
          ['list', '--status=in_progress'],
        ],
        signal,
        meter,
      ),
  );
  return {
    ready: (signal, meter) => runBd(deps, [['ready', '--json'], ['ready', '--plain'], ['ready']], signal, meter),
    inProgress,
  };
}
