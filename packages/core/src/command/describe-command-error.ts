import { sanitizeForMessage } from '../text/sanitize.js';
import type { CommandError } from '../ports/command-runner.js';

/**
 * One line for a runner failure, safe for a result, a log or a message: names the program and
 * the cause, never the environment and never the arguments.
 */
export function describeCommandError(error: CommandError): string {
  switch (error.kind) {
    case 'not-found':
      return `${error.file} not found on PATH`;
    case 'not-executable':
      return `${error.file} is not executable`;
    case 'bad-cwd':
      return `${error.file} could not start: directory ${sanitizeForMessage(error.cwd, { maxLength: 160 })} does not exist`;
    case 'timeout':
      return `${error.file} timed out after ${error.timeoutMs} ms`;
    case 'output-limit':
      return `${error.file} printed more than ${error.maxOutputBytes} bytes`;
    case 'killed':
      return `${error.file} was killed by ${error.signal}`;
    case 'aborted':
      return `${error.file} was aborted`;
    case 'spawn-failed':
      return `${error.file} could not start: ${sanitizeForMessage(error.message, { maxLength: 160 })}`;
  }
}

const INTERRUPTED = /\bwas (?:aborted|killed by SIG[A-Z0-9]+)\b/;

/**
 * True when `text` holds {@link describeCommandError}'s line for a call a signal cut off (`aborted`
 * by the shutdown, or `killed` by a signal from outside), so a scan result built from it can be
 * told apart from a tool that failed on its own.
 */
export function describesInterruption(text: string): boolean {
  return INTERRUPTED.test(text);
}
