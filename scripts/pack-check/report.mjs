// The pieces every pack-check step shares: a group of ok/FAIL lines, a child process run with
// argument arrays (never a shell string) and a backstop timeout, and the check of one CLI run.
import { spawn } from 'node:child_process';

/**
 * The ok/FAIL lines of one group of checks. Groups run concurrently; pack-check prints each group
 * once it is done, in a fixed order, so two runs print the same lines in the same order.
 */
export class Checks {
  lines = [];
  failed = [];

  /** One check: `ok` or `FAIL` and what was checked; on failure the detail follows. */
  check(ok, what, detail = '') {
    this.lines.push(`${ok ? 'ok  ' : 'FAIL'} ${what}${ok || detail === '' ? '' : `\n${clip(detail)}`}`);
    if (!ok) this.failed.push(what);
    return ok;
  }

  /**
   * One CLI invocation: its exit code exactly, then `shape` (returns '' when the output is right,
   * else what is wrong), and none of the signs of a crash on stdout or stderr.
   */
  run(what, result, code, shape = () => '') {
    const problems = [];
    if (result.timedOut) problems.push(`timed out after ${result.timeoutMs / 1000} s (backstop) and was killed`);
    // No command is ever expected to exit 70 (EXIT.internal: a bug), so this also fails on exit 70.
    if (result.status !== code)
      problems.push(`exit ${result.status ?? result.signal}${result.status === 70 ? ' (internal error)' : ''}, expected ${code}`);
    problems.push(...crashSigns(result));
    if (problems.length === 0) {
      const wrong = shape(result);
      if (wrong !== '') problems.push(wrong);
    }
    return this.check(problems.length === 0, what, `${problems.join('; ')}\n${output(result)}`);
  }

  /** Appends other groups' lines (in the order given: concurrent steps print in a fixed order). */
  add(...others) {
    for (const other of others) {
      this.lines.push(...other.lines);
      this.failed.push(...other.failed);
    }
    return this;
  }
}

/** What says "this is a bug in heartbeat-kit" on stdout or stderr, whatever the exit code. */
const CRASH_SIGNS = [
  [(r) => /^ {4}at \S/m.test(r.stdout + r.stderr) || (r.stdout + r.stderr).includes('at file://'), 'a stack trace'],
  [(r) => /internal error/i.test(r.stdout + r.stderr), '"internal error"'],
  [(r) => /Cannot find (module|package)/.test(r.stdout + r.stderr), '"Cannot find module/package"'],
];

/** The signs of a crash in one run's output ([] when there are none). */
const crashSigns = (result) => CRASH_SIGNS.filter(([test]) => test(result)).map(([, name]) => name);

/** A run's stdout and stderr for a FAIL line. */
const output = (r) => `--- stdout\n${r.stdout}${r.stdout.endsWith('\n') ? '' : '\n'}--- stderr\n${r.stderr}`;

const clip = (text, max = 40) => {
  const lines = text.trimEnd().split('\n');
  return lines.length <= max ? lines.join('\n') : [...lines.slice(0, max), `… (${lines.length - max} more lines)`].join('\n');
};

// At most this many children at once (the machines have two cores and run other work).
const MAX_CHILDREN = 4;
let running = 0;
const waiting = [];
const acquire = () => (running < MAX_CHILDREN ? ((running += 1), Promise.resolve()) : new Promise((resolve) => waiting.push(resolve)));
const release = () => {
  const next = waiting.shift();
  if (next) next();
  else running -= 1;
};

/**
 * Runs `cmd args` and resolves with { status, signal, stdout, stderr, timedOut }. `onStdout` sees
 * the stdout so far after every chunk (with the child, to signal it or end the stdin `input` opened). The timeout is a backstop
 * for a hung child, far above any normal run: nothing here waits for a fixed time.
 */
export async function run(cmd, args, { cwd, env, timeoutMs = 120_000, onStdout, input } = {}) {
  await acquire();
  try {
    return await new Promise((resolve) => {
      // With `input`, stdin is a pipe holding it, left open: `onStdout` ends it (an MCP session).
      const child = spawn(cmd, args, { cwd, env, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
      if (input !== undefined) child.stdin.write(input);
      const result = { status: null, signal: null, stdout: '', stderr: '', timedOut: false, timeoutMs };
      const timer = setTimeout(() => {
        result.timedOut = true;
        child.kill('SIGKILL');
      }, timeoutMs);
      child.stdout.setEncoding('utf8').on('data', (chunk) => {
        result.stdout += chunk;
        onStdout?.(result.stdout, child);
      });
      child.stderr.setEncoding('utf8').on('data', (chunk) => (result.stderr += chunk));
      child.on('error', (error) => (result.stderr += `${error.message}\n`));
      child.on('close', (status, signal) => {
        clearTimeout(timer);
        resolve({ ...result, status, signal });
      });
    });
  } finally {
    release();
  }
}

/** Parses JSON, or returns undefined. */
export const parseJson = (text) => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};
