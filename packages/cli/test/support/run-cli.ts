import { performance } from 'node:perf_hooks';
import { main } from '../../src/main.js';
import type { CliIo } from '../../src/io.js';

/** What an in-process CLI run printed and returned. */
export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `heartbeat-kit ...argv` in-process with captured output. */
export async function runCli(
  argv: readonly string[],
  options: { cwd: string; env?: Record<string, string | undefined>; signal?: AbortSignal; stdin?: string },
): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    cwd: options.cwd,
    env: options.env ?? process.env,
    shutdownSignal: options.signal ?? new AbortController().signal,
    stdin: () => Promise.resolve(options.stdin ?? ''),
  };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}

/**
 * Runs `heartbeat-kit loop ...argv` in-process and stops it at its first wait (a scripted sleep that
 * aborts), so exactly the first slot's output is seen, with no timing involved.
 */
export async function runLoopUntilFirstWait(
  argv: readonly string[],
  options: { cwd: string; env?: Record<string, string | undefined> },
): Promise<CliRun> {
  const controller = new AbortController();
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    cwd: options.cwd,
    env: options.env ?? process.env,
    shutdownSignal: controller.signal,
    time: {
      clock: { now: () => new Date() },
      sleep: { sleep: () => Promise.resolve(controller.abort()) },
      monotonicMs: () => performance.now(),
    },
  };
  const code = await main(['loop', ...argv], io);
  return { code, stdout, stderr };
}
