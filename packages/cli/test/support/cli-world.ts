/**
 * The one end-to-end setup of the CLI tests: a world per test (destroyed after it), with the CLI
 * bound to it in-process, and the built `bin` run as a real process where signals, pipes or exit
 * codes of a process are what a test is about. Before this, each e2e file kept its own world
 * variable, afterEach, `cycle` wrapper, bin hooks and spawn-and-collect code.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { eventually, processesMentioning } from '../../../core/test/support/processes.js';
import { BUILT_CLI_BIN, installBuiltCliWithout, type InstalledCli } from './built-cli.js';
import { frozenClockEnv, runningClockEnv } from './fake-time.js';
import { runCli, runLoopUntilFirstWait, runScriptedLoop, type CliRun, type ScriptedTime } from './run-cli.js';
import { createWorld, type World, type WorldSpec } from './world.js';

/** A {@link World} with the CLI bound to it: each run starts in the world's root, with its environment. */
export interface CliWorld extends World {
  /** `heartbeat-kit ...argv`, in-process. */
  readonly cli: (...argv: string[]) => Promise<CliRun>;
  /** `heartbeat-kit ...argv`, in-process, started in `cwd` (a subdirectory, a worktree) with the world's environment. */
  readonly cliIn: (cwd: string, ...argv: string[]) => Promise<CliRun>;
  /** `heartbeat-kit cycle --cwd <project> --tmux-socket <socket> ...extra`, in-process. */
  readonly cycle: (...extra: string[]) => Promise<CliRun>;
  /** A real (writing) `cycle` in-process with its wall clock stopped at `at` (`--now` only rehearses). */
  readonly cycleAt: (at: string, ...extra: string[]) => Promise<CliRun>;
  /** `heartbeat-kit ...argv` in-process with its wall clock stopped at `at`. */
  readonly cliAt: (at: string, ...argv: string[]) => Promise<CliRun>;
  /** {@link CliWorld.cliIn} with the wall clock stopped at `at`. */
  readonly cliInAt: (at: string, cwd: string, ...argv: string[]) => Promise<CliRun>;
  /** `heartbeat-kit loop --cwd <project> --tmux-socket <socket> ...extra`, stopped at its first wait. */
  readonly loopUntilFirstWait: (...extra: string[]) => Promise<CliRun>;
  /** `heartbeat-kit loop --cwd <project> --tmux-socket <socket> ...extra` under scripted time, to the end of the script. */
  readonly scriptedLoop: (script: ScriptedTime, ...extra: string[]) => Promise<CliRun>;
  /** Replaces the fake `bd` with a shell script of this body. */
  readonly replaceBd: (body: string) => void;
}

/** Binds the CLI to an existing world (for tests that build the world their own way). */
export function bindCli(world: World): CliWorld {
  const options = { cwd: world.root, env: world.env };
  const scope = ['--cwd', world.project, '--tmux-socket', world.tmuxSocket];
  return {
    ...world,
    cli: (...argv) => runCli(argv, options),
    cliIn: (cwd, ...argv) => runCli(argv, { cwd, env: world.env }),
    cycle: (...extra) => runCli(['cycle', ...scope, ...extra], options),
    cycleAt: (at, ...extra) => runCli(['cycle', ...scope, ...extra], { ...options, at }),
    cliAt: (at, ...argv) => runCli(argv, { ...options, at }),
    cliInAt: (at, cwd, ...argv) => runCli(argv, { cwd, env: world.env, at }),
    loopUntilFirstWait: (...extra) => runLoopUntilFirstWait([...scope, ...extra], options),
    scriptedLoop: (script, ...extra) => runScriptedLoop([...scope, ...extra], options, script),
    replaceBd: (body) => {
      writeFileSync(join(world.fakeBin, 'bd'), `#!/bin/sh\n${body}\n`);
      chmodSync(join(world.fakeBin, 'bd'), 0o755);
    },
  };
}

/** How {@link useCliWorlds} cleans up after each test. */
export interface CliWorldsOptions {
  /**
   * Before destroying a world, SIGKILL every process (and its group) whose command line names the
   * world's root, then fail the test if one is still alive: for tests whose kills leave a hanging
   * poller, a blocked sink or the cycle itself behind, which the killed cycle cannot take down.
   */
  readonly endProcesses?: boolean;
}

/**
 * Call at the top of a test file: returns a function that builds a {@link CliWorld}; every world it
 * built is destroyed after each test, passed or failed.
 */
export function useCliWorlds(options: CliWorldsOptions = {}): (spec?: WorldSpec) => CliWorld {
  const built: World[] = [];
  afterEach(async () => {
    for (const world of built.splice(0)) {
      if (options.endProcesses !== true) {
        world.destroy();
        continue;
      }
      for (const pid of processesMentioning(world.root)) {
        for (const target of [-pid, pid]) {
          try {
            process.kill(target, 'SIGKILL');
          } catch {
            // Not a group leader, or gone already.
          }
        }
      }
      const gone = await eventually(() => processesMentioning(world.root).length === 0, 240_000);
      const left = processesMentioning(world.root);
      world.destroy();
      expect(gone, `processes left behind: ${left.join(', ')}`).toBe(true);
    }
  }, 300_000);
  return (spec) => {
    const world = createWorld(spec);
    built.push(world);
    return bindCli(world);
  };
}

/**
 * Call at the top of a test file: returns a function that makes a temp directory (with `files`
 * written at their relative paths); every directory it made is removed after each test.
 */
export function useTempDirs(): (prefix: string, files?: Readonly<Record<string, string>>) => string {
  const made: string[] = [];
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return (prefix, files = {}) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    made.push(dir);
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      writeFileSync(join(dir, name), text);
    }
    return dir;
  };
}

/** Call at the top of a test file: one temp directory for all its tests, removed after the last. */
export function useFileTempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** What a CLI process printed and how it ended (`code` is null when a signal ended it). */
export interface BinRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A running CLI process; its output so far is read through `stdout()`/`stderr()`. */
export interface BinProcess {
  readonly child: ChildProcessByStdio<null, Readable, Readable>;
  readonly stdout: () => string;
  readonly stderr: () => string;
  /** The exit code, on the child's `exit` (a grandchild holding its pipes open does not delay it). */
  readonly exited: Promise<number | null>;
}

/** The built CLI run as a process (see {@link useBuiltCli}). */
export interface BuiltCliRunner {
  /** The bin that runs (the package's own, or a copy installed without some packages). */
  readonly bin: () => string;
  /** Starts `node bin ...argv` with stdin closed and stdout/stderr collected. */
  readonly spawn: (argv: readonly string[], env: Record<string, string | undefined>) => BinProcess;
  /** Runs `node bin ...argv` to the end (its pipes closed). */
  readonly run: (argv: readonly string[], env: Record<string, string | undefined>) => Promise<BinRun>;
  /** {@link BuiltCliRunner.run} with the process's OS clock stopped at `at` (libfaketime): a real run at that instant. */
  readonly runAt: (at: string, argv: readonly string[], env: Record<string, string | undefined>) => Promise<BinRun>;
  /** {@link BuiltCliRunner.spawn} with the process's OS clock at `at` (stopped; for `loop`, running from there). */
  readonly spawnAt: (at: string, argv: readonly string[], env: Record<string, string | undefined>) => BinProcess;
}

/**
 * The CLI as users run it, as a process: the package's built bin ({@link BUILT_CLI_BIN}), or with
 * `without`, a copy installed without those packages (set up before the file's tests, removed after).
 */
export function useBuiltCli(options: { readonly without?: readonly string[] } = {}): BuiltCliRunner {
  let installed: InstalledCli | undefined;
  if (options.without !== undefined) {
    const without = options.without;
    beforeAll(() => {
      installed = installBuiltCliWithout(without);
    });
    afterAll(() => installed?.dispose());
  }
  const bin = (): string => {
    if (options.without === undefined) return BUILT_CLI_BIN;
    if (installed === undefined) throw new Error('the install is made in beforeAll: call useBuiltCli() at the top of the file');
    return installed.bin;
  };
  const start = (argv: readonly string[], env: Record<string, string | undefined>) => {
    const child = spawn(process.execPath, [bin(), ...argv], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    return { child, stdout: () => stdout, stderr: () => stderr };
  };
  const spawnBin = (argv: readonly string[], env: Record<string, string | undefined>): BinProcess => {
    const started = start(argv, env);
    const exited = new Promise<number | null>((resolve) => started.child.on('exit', (code) => resolve(code)));
    return { ...started, exited };
  };
  const run = (argv: readonly string[], env: Record<string, string | undefined>): Promise<BinRun> =>
    new Promise((resolve, reject) => {
      const started = start(argv, env);
      started.child.on('error', reject);
      started.child.on('close', (code) => resolve({ code, stdout: started.stdout(), stderr: started.stderr() }));
    });
  return {
    bin,
    spawn: spawnBin,
    run,
    runAt: (at, argv, env) => run(argv, { ...env, ...frozenClockEnv(at) }),
    spawnAt: (at, argv, env) => spawnBin(argv, { ...env, ...(argv[0] === 'loop' ? runningClockEnv(at) : frozenClockEnv(at)) }),
  };
}
