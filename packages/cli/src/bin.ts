#!/usr/bin/env node
import { setFlagsFromString } from 'node:v8';
import { sanitizeForTerminal } from '@heartbeat-kit/core/host';
import packageJson from '../package.json' with { type: 'json' };
import { EXIT } from './exit-codes.js';
import { endBySignal } from './force-exit.js';
import { main } from './main.js';
import { createShutdown } from './shutdown.js';
import { isOneShotCommand, oneShotV8Flags } from './v8-flags.js';
import { preferJitlessZod } from './zod-jitless.js';

// Before main loads the command's modules: a one-shot command's peak RSS is mostly heap it grows
// and code TurboFan compiles in its first second, and zod's compiled parsers cost it more CPU than
// they save (docs/performance.md).
for (const flag of oneShotV8Flags(process.argv[2])) setFlagsFromString(flag);
if (isOneShotCommand(process.argv[2])) preferJitlessZod();

// A throw outside a command's own chain (a timer, a stream event) is a bug like one inside it
// (main maps those): same code, never 1 ("the answer is no"), which is Node's default.
for (const event of ['uncaughtException', 'unhandledRejection'] as const) {
  process.on(event, (error: unknown) => {
    try {
      // The one terminal filter of main's output (terminal-safe-io.ts): a message may quote input.
      process.stderr.write(
        sanitizeForTerminal(
          `heartbeat-kit: internal error (a bug in heartbeat-kit; please report it): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
          'text',
        ),
      );
    } finally {
      process.exit(EXIT.internal);
    }
  });
}

const shutdown = createShutdown();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    // The first asks to stop (a cycle or loop finishes the scan in flight), the second cuts off. The
    // signal's name is the reason: a `cycle` cut off exits 130 or 143 with it (stopSignalExit). One
    // more after the cut-off ends the process at once, even while a read is stuck in the kernel (a
    // dead NFS mount), where nothing else can (force-exit.ts).
    if (shutdown.cutOffSignal.aborted) endBySignal(signal);
    shutdown.receive(signal);
  });
}

// A reader that went away (`loop --json | head -3`, `cycle | head -0`) closes our stdout: the
// next write fails with EPIPE. That is the consumer saying "enough", not a crash: stop writing
// there, end like a shutdown request (a loop sends its summary nowhere and exits 0).
const closed = { stdout: false, stderr: false };
for (const name of ['stdout', 'stderr'] as const) {
  process[name].on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error;
    closed[name] = true;
    shutdown.stopNow();
  });
}

// A snapshot: every child's environment is built from it, and each read of process.env is a call
// into C++ (≈ 10× slower over ~60 spawns a cycle); nothing in the CLI writes to it.
const env = { ...process.env };
// A one-shot cycle starts its first commands now, while Node loads the command (cycle-prefetch.ts).
const prefetch =
  process.argv[2] === 'cycle'
    ? (await import('./wiring/cycle-prefetch.js')).startCyclePrefetch(
        process.argv.slice(3),
        // Its runs are the scan's first commands: only the cut-off kills them.
        { cwd: process.cwd(), env, shutdownSignal: shutdown.cutOffSignal },
        packageJson.version,
      )
    : undefined;

const code = await main(process.argv.slice(2), {
  stdout: (text) => void (closed.stdout || process.stdout.write(text)),
  stderr: (text) => void (closed.stderr || process.stderr.write(text)),
  flushStdout: () =>
    new Promise<void>((resolve, reject) => {
      if (closed.stdout) reject(new Error('stdout was closed by its reader'));
      // An empty write's callback runs after every earlier write was handed to the OS.
      else
        process.stdout.write('', (error) =>
          error ? reject(error) : closed.stdout ? reject(new Error('stdout was closed by its reader')) : resolve(),
        );
    }),
  cwd: process.cwd(),
  env,
  shutdownSignal: shutdown.shutdownSignal,
  cutOffSignal: shutdown.cutOffSignal,
  stdin: async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  },
  ...(prefetch === undefined ? {} : { prefetch }),
});
// What the cycle did not claim is killed, or its children would keep this process waiting.
prefetch?.discard();
process.exitCode = code;
