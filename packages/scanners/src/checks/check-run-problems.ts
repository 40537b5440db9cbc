import { type CommandError, sanitizeForMessage, type ScanResult } from '@heartbeat-kit/core';

// The results of a check run that gave nothing to read: the command did not run to an exit, or exited non-zero.

/** Skip code of a check that exited 2: it does not apply now (not a failure). */
export const CHECK_NOT_APPLICABLE = 'CHECK_NOT_APPLICABLE';

/** Text from a check (its program, its directory, an error) as a message may quote it: sanitised, short. */
export function quoted(text: string): string {
  return sanitizeForMessage(text, { maxLength: 120 });
}

/** Why the command produced no exit code, with the fix, in the check's own words. */
export function runFailure(name: string, error: CommandError, timeoutMs: number, maxOutputBytes: number): { error: string; fix: string } {
  const program = quoted(error.file);
  const fixRun = `correct "run:" of check ${name} in HEARTBEAT.md`;
  switch (error.kind) {
    case 'not-found':
      return {
        error: `check ${name} could not run: ${program} not found on PATH`,
        fix: `install ${program}, or ${fixRun} (the PATH heartbeat-kit runs with counts, e.g. cron's)`,
      };
    case 'not-executable':
      return { error: `check ${name} could not run: ${program} is not executable`, fix: `chmod +x ${program}, or ${fixRun}` };
    case 'bad-cwd':
      return {
        error: `check ${name} could not run: its directory ${quoted(error.cwd)} does not exist`,
        fix: `correct "cwd:" of check ${name} (relative to the project directory)`,
      };
    case 'timeout':
      return {
        error: `check ${name} timed out after ${timeoutMs} ms; its process group was killed`,
        fix: `make it finish sooner, or raise "timeout:" of check ${name} (at most 25s)`,
      };
    case 'output-limit':
      return {
        error: `check ${name} printed more than ${maxOutputBytes} bytes; it was killed`,
        fix: `print less: nothing when all is well, one JSON line per finding otherwise`,
      };
    case 'killed':
    case 'aborted':
      // describeCommandError's wording: the cycle reads it as a cut-off, not a failure of the check.
      return {
        error: `check ${name}: ${program} was ${error.kind === 'killed' ? `killed by ${error.signal}` : 'aborted'}`,
        fix: 'none if heartbeat-kit was stopped',
      };
    case 'spawn-failed':
      return { error: `check ${name} could not run: ${program} could not start: ${quoted(error.message)}`, fix: fixRun };
  }
}

/** Exit 2 is a skip, any other non-zero exit an error; undefined for exit 0 (its output is read). */
export function nonZeroExitResult(name: string, exitCode: number, said: string, durationMs: number): ScanResult | undefined {
  if (exitCode === 2)
    return {
      scanner: name,
      status: 'skipped',
      code: CHECK_NOT_APPLICABLE,
      reason: `check ${name} does not apply now (exit 2)${said === '' ? '' : `: ${said}`}`,
      fix: 'none: exit 2 is the check saying it has nothing to look at now',
      durationMs,
    };
  if (exitCode !== 0)
    return {
      scanner: name,
      status: 'error',
      error: `check ${name} exited ${exitCode}${said === '' ? '' : `: ${said}`}`,
      fix: `run it by hand to see why (heartbeat-kit check run ${name} shows what it prints); exit 0 = looked, 2 = not applicable now`,
      durationMs,
    };
  return undefined;
}
