import { performance } from 'node:perf_hooks';
import { main } from '../../src/main.js';
import type { CliIo, LoopTime } from '../../src/io.js';

/** What an in-process CLI run printed and returned. */
export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Where an in-process run starts and what it sees. */
export interface CliRunOptions {
  readonly cwd: string;
  readonly env?: Record<string, string | undefined>;
}

/** A {@link CliIo} that collects what a command prints; `out()` and `err()` read it so far. */
export interface CapturedIo extends CliIo {
  readonly out: () => string;
  readonly err: () => string;
}

/** An io for an in-process run whose output a test reads afterwards; `extra` completes it (signal, stdin, time). */
export function captureIo(options: CliRunOptions, extra: Partial<CliIo> = {}): CapturedIo {
  let stdout = '';
  let stderr = '';
  return {
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    cwd: options.cwd,
    env: options.env ?? process.env,
    shutdownSignal: new AbortController().signal,
    ...extra,
    out: () => stdout,
    err: () => stderr,
  };
}

/** A command as `main` and the command factories (`createWoterclipCommand`) are called. */
export type CliCommand = (argv: readonly string[], io: CliIo) => Promise<number>;

/** Runs `command(argv)` in-process with stdout and stderr captured; `extra` completes the io. */
export async function runCommand(
  command: CliCommand,
  argv: readonly string[],
  options: CliRunOptions,
  extra: Partial<CliIo> = {},
): Promise<CliRun> {
  const io = captureIo(options, extra);
  const code = await command(argv, io);
  return { code, stdout: io.out(), stderr: io.err() };
}

/** Runs `main(argv)` with stdout and stderr captured; `extra` completes the io (signal, stdin, time). */
function captured(argv: readonly string[], options: CliRunOptions, extra: Pick<CliIo, 'shutdownSignal'> & Partial<CliIo>) {
  return runCommand(main, argv, options, extra);
}

/**
 * Runs `heartbeat-kit ...argv` in-process with captured output. `at` stops the command's wall clock
 * at that instant: a real run (it writes state and receipts), unlike `--now`, which rehearses.
 */
export async function runCli(
  argv: readonly string[],
  options: CliRunOptions & { signal?: AbortSignal; stdin?: string; at?: string | Date },
): Promise<CliRun> {
  const at = options.at === undefined ? undefined : new Date(options.at);
  return captured(argv, options, {
    shutdownSignal: options.signal ?? new AbortController().signal,
    stdin: () => Promise.resolve(options.stdin ?? ''),
    ...(at === undefined ? {} : { clock: { now: () => at } }),
  });
}

/**
 * Scripted time for an in-process `loop`: each sleep runs the next step, which says how far the wall
 * and the monotonic clocks move (a suspended machine or a clock jump moves the wall further); when the
 * steps are used up the loop is stopped. Both clocks start at 0 (the epoch): `from(at)` sets the wall.
 */
export interface ScriptedTime {
  readonly time: LoopTime;
  /** What each sleep asked for, in order. */
  readonly sleeps: readonly number[];
  /** Aborted when the steps are used up: the loop's shutdown signal. */
  readonly signal: AbortSignal;
  /** Sets the wall clock to `at` (before the loop starts): a real, writing loop at that instant. */
  readonly from: (at: string) => ScriptedTime;
}

/** One sleep of a {@link ScriptedTime}: given what the loop asked to sleep, how far each clock moves. */
export type TimeStep = (ms: number) => { readonly wall: number; readonly mono: number };

/** A sleep that moves both clocks by exactly what was asked: no suspension, no jump. */
export const STEADY: TimeStep = (ms) => ({ wall: ms, mono: ms });

/** Builds a {@link ScriptedTime} from its steps. */
export function scriptedTime(steps: readonly TimeStep[]): ScriptedTime {
  let wall = 0;
  let mono = 0;
  const sleeps: number[] = [];
  const controller = new AbortController();
  const time: LoopTime = {
    clock: { now: () => new Date(wall) },
    monotonicMs: () => mono,
    sleep: {
      sleep: (ms) => {
        sleeps.push(ms);
        const step = steps[sleeps.length - 1];
        if (step === undefined) controller.abort();
        else {
          const moved = step(ms);
          wall += moved.wall;
          mono += moved.mono;
        }
        return Promise.resolve();
      },
    },
  };
  const script: ScriptedTime = {
    time,
    sleeps,
    signal: controller.signal,
    from: (at) => {
      wall = Date.parse(at);
      return script;
    },
  };
  return script;
}

/** Runs `heartbeat-kit loop ...argv` in-process under scripted time, to the end of its script. */
export async function runScriptedLoop(argv: readonly string[], options: CliRunOptions, script: ScriptedTime): Promise<CliRun> {
  return captured(['loop', ...argv], options, { shutdownSignal: script.signal, time: script.time });
}

/**
 * Runs `heartbeat-kit loop ...argv` in-process and stops it at its first wait (a scripted sleep that
 * aborts), so exactly the first slot's output is seen, with no timing involved.
 */
export async function runLoopUntilFirstWait(argv: readonly string[], options: CliRunOptions): Promise<CliRun> {
  const controller = new AbortController();
  return captured(['loop', ...argv], options, {
    shutdownSignal: controller.signal,
    time: {
      clock: { now: () => new Date() },
      sleep: { sleep: () => Promise.resolve(controller.abort()) },
      monotonicMs: () => performance.now(),
    },
  });
}
