import { z } from 'zod';
import {
  type CommandRunner,
  defineStatefulScanner,
  type ScanContext,
  type Scanner,
  type ScannerSliceSpec,
  scanOk,
  type ScanResult,
} from '@heartbeat-kit/core';
import { checkDueAtMs, checkSchema, type CheckSpec, describeCheckEvery, isCheckDue, NOT_DUE_SKIP_CODE } from '@heartbeat-kit/core/host';
import { firstStderrLine, guardScan, type DurationMeter } from '../scanner-support.js';
import { checkFinding, confirmFindings, type UnconfirmedCheckFinding } from './check-findings.js';
import { nonZeroExitResult, quoted, runFailure } from './check-run-problems.js';
import { parseCheckOutput } from './parse-check-output.js';

/** Default cap on a check's stdout and stderr, each (1 MiB): more is a scanner problem, the check killed. */
export const DEFAULT_CHECK_OUTPUT_BYTES = 1024 * 1024;

/** What {@link commandScanner} needs: the check and the one process runner its command goes through. */
export interface CommandScannerSpec {
  /** The check, as `## Checks` in HEARTBEAT.md describes it (defaults are filled in by `checkSchema`). */
  readonly check: z.input<typeof checkSchema>;
  /** The process runner (its env policy applies: give a check with `env` its own runner). */
  readonly runner: CommandRunner;
  /** The project directory: the check runs here, or in its `cwd` relative to it. */
  readonly cwd: string;
  /** Cap on stdout and on stderr, each; default {@link DEFAULT_CHECK_OUTPUT_BYTES}. */
  readonly maxOutputBytes?: number;
  /** The shell of `shell: true` (default `/bin/sh`). */
  readonly shellFile?: string;
}

/** A check's slice of the state: when it last ran, and how many runs in a row saw each finding (hysteresis). */
export interface CheckSlice {
  readonly lastRunMs?: number | undefined;
  readonly streaks: Readonly<Record<string, number>>;
}

/** The slice spec of every check scanner. */
export const CHECK_SLICE: ScannerSliceSpec<CheckSlice> = {
  version: 1,
  schema: z.object({ lastRunMs: z.number().optional(), streaks: z.record(z.string(), z.number().int().min(1).max(100)) }),
  initial: () => ({ streaks: {} }),
};

/** Everything one run of a check gave: the scan result, and what `check run` shows besides. */
export interface CheckRun {
  readonly result: ScanResult;
  /** The slice to keep (absent: keep the previous one). */
  readonly next?: CheckSlice;
  /** False when `every:` said not now (the result is then a SCANNER_NOT_DUE skip). */
  readonly due: boolean;
  /** With `due` false: when it is due (epoch ms). */
  readonly dueAtMs?: number;
  /** The command's exit code, when it exited. */
  readonly exitCode?: number;
  /** How stdout was read. */
  readonly form?: 'quiet' | 'json-lines' | 'text';
  readonly unconfirmed: readonly UnconfirmedCheckFinding[];
}

/** The argv a check runs: its list, or `sh -c STRING` with `shell: true`. */
export function checkArgv(check: Pick<CheckSpec, 'run' | 'shell'>, shellFile = '/bin/sh'): readonly string[] {
  return typeof check.run === 'string' ? [shellFile, '-c', check.run] : check.run;
}

function joinDir(base: string, dir: string | undefined): string {
  if (dir === undefined) return base;
  if (dir.startsWith('/')) return dir;
  return base.endsWith('/') ? `${base}${dir}` : `${base}/${dir}`;
}

// The run of a check whose lines do not pass `checkSchema`: an error result naming it, never run.
function invalidCheckRun(rawName: unknown, issue: string | undefined): CheckRun {
  const fallbackName = typeof rawName === 'string' ? rawName : 'check';
  return {
    result: {
      scanner: fallbackName,
      status: 'error',
      error: `check ${quoted(fallbackName)} is not valid: ${quoted(issue ?? 'invalid')}`,
      durationMs: 0,
      fix: 'see docs/checks.md',
    },
    due: true,
    unconfirmed: [],
  };
}

// The run of a check that is not due: skipped (not configured-off), saying when it next is.
function notDueRun(check: CheckSpec, previous: CheckSlice, nowMs: number, intervalMs: number): CheckRun {
  const dueAtMs = checkDueAtMs(check, previous.lastRunMs, nowMs, intervalMs);
  const every = describeCheckEvery(check, (ms) => `${Math.round(ms / 60_000)}m`);
  return {
    result: {
      scanner: check.name,
      status: 'skipped',
      reason: `not due (${every}; next at ${new Date(dueAtMs).toISOString()})`,
      code: NOT_DUE_SKIP_CODE,
      configured: false,
      durationMs: 0,
    },
    due: false,
    dueAtMs,
    unconfirmed: [],
  };
}

/**
 * Runs one check now, by the contract of docs/checks.md: exit 0 and nothing on stdout is quiet,
 * JSON lines are findings, plain text one finding; exit 2 is a skip (not applicable now); anything
 * else — another exit, a timeout, a signal, too much output, malformed JSON — an error result
 * naming the check and the fix. Never rejects. `previous` is the check's slice (cadence, hysteresis).
 */
export async function runCheck(spec: CommandScannerSpec, context: ScanContext, previous: CheckSlice): Promise<CheckRun> {
  const parsed = checkSchema.safeParse(spec.check);
  if (!parsed.success) return invalidCheckRun(spec.check.name, parsed.error.issues[0]?.message);
  // A loop re-reads HEARTBEAT.md every cycle: the check's current lines win over those it was built with.
  const check = context.config.checks.find((c) => c.name === parsed.data.name) ?? parsed.data;
  const name = check.name;
  const nowMs = context.now.getTime();
  if (!isCheckDue(check, previous.lastRunMs, nowMs, context.config.intervalMs))
    return notDueRun(check, previous, nowMs, context.config.intervalMs);
  const meter: DurationMeter = { ms: 0 };
  const maxOutputBytes = spec.maxOutputBytes ?? DEFAULT_CHECK_OUTPUT_BYTES;
  const [file, ...args] = checkArgv(check, spec.shellFile);
  let run: Omit<CheckRun, 'result'> = { due: true, unconfirmed: [] };
  const result = await guardScan(name, meter, async () => {
    const outcome = await spec.runner.run(
      {
        file: file!,
        args,
        cwd: joinDir(spec.cwd, check.cwd),
        // NO_COLOR: a check's output is read, not shown on a terminal.
        env: { NO_COLOR: '1', HEARTBEAT_CHECK: name },
        profile: 'command',
        timeoutMs: check.timeoutMs,
        maxOutputBytes,
      },
      context.signal,
    );
    if (outcome.isErr()) {
      const failure = runFailure(name, outcome.error, check.timeoutMs, maxOutputBytes);
      return { scanner: name, status: 'error', error: failure.error, fix: failure.fix, cause: failure.error, durationMs: meter.ms };
    }
    const output = outcome.value;
    meter.ms += output.durationMs;
    run = { ...run, exitCode: output.exitCode };
    const exited = nonZeroExitResult(name, output.exitCode, firstStderrLine(output.stderr), meter.ms);
    if (exited !== undefined) return exited;
    const read = parseCheckOutput(output.stdout, name);
    if (read.kind === 'malformed')
      return {
        scanner: name,
        status: 'error',
        error: `check ${name} printed output the contract does not allow: ${read.reason}`,
        fix: 'print nothing when all is well, one JSON object per line ({"subject","line",…}), or one line of plain text (heartbeat-kit help checks)',
        durationMs: meter.ms,
      };
    const findings = read.kind === 'quiet' ? [] : read.findings.map((_, i) => checkFinding(check, read, i));
    const { streaks, confirmed, unconfirmed } = confirmFindings(findings, check.confirm, previous.streaks);
    run = { ...run, form: read.kind === 'quiet' ? 'quiet' : read.form, unconfirmed, next: { lastRunMs: nowMs, streaks } };
    const dropped = read.kind === 'findings' ? read.dropped : 0;
    return scanOk(name, {
      findings: confirmed,
      warnings:
        dropped === 0
          ? []
          : [
              {
                code: 'CHECK_FINDINGS_CAPPED',
                message: `check ${name} printed ${dropped} more findings than the ${findings.length} read`,
                fix: 'print fewer, broader findings',
              },
            ],
      durationMs: meter.ms,
    });
  });
  return { ...run, result };
}

/**
 * A scanner from one check (HEARTBEAT.md `## Checks`): its command through the one process runner
 * (process group, deadline and grace, output cap, env policy), its output read by the check
 * contract and sanitised like every tool's, its cadence and hysteresis kept in its own slice. The
 * cycle gives it what the built-ins get: breaker, dedup and change-aware repeats, receipts.
 *
 * @example
 * ```ts
 * import { commandScanner } from '@heartbeat-kit/scanners';
 * import { createProcessRunner } from '@heartbeat-kit/core/node';
 *
 * // Quiet on exit 0 with no output; a line of text or JSON lines are findings (category CHECK_DISK).
 * const disk = commandScanner({
 *   check: { name: 'disk', run: ['sh', '-c', 'df --output=pcent / | tail -1 | tr -d " %" | awk \'$1 > 90 { print "disk " $1 "% full" }\''], every: { cycles: 3 } },
 *   runner: createProcessRunner(),
 *   cwd: process.cwd(),
 * });
 * ```
 */
export function commandScanner(spec: CommandScannerSpec): Scanner {
  const parsed = checkSchema.safeParse(spec.check);
  const name = parsed.success ? parsed.data.name : typeof spec.check.name === 'string' ? spec.check.name : 'check';
  return defineStatefulScanner({
    name,
    runsOutsideActiveHours: parsed.success && parsed.data.outsideHours === 'run',
    slice: CHECK_SLICE,
    scan: async (context, previous) => {
      const { result, next } = await runCheck(spec, context, previous);
      return next === undefined ? { result } : { result, next };
    },
  });
}
