#!/usr/bin/env node
import { setFlagsFromString } from 'node:v8';
import packageJson from '../package.json' with { type: 'json' };
import { EXIT } from './exit-codes.js';
import { endBySignal } from './force-exit.js';
import { main } from './main.js';
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
      process.stderr.write(
        `heartbeat-kit: internal error (a bug in heartbeat-kit; please report it): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
    } finally {
      process.exit(EXIT.internal);
    }
  });
}

const controller = new AbortController();
let signalled = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    // A second signal ends the process at once, even while a read is stuck in the kernel (a dead
    // NFS mount), where nothing else can (force-exit.ts).
    if (signalled) endBySignal(signal);
    signalled = true;
    // The signal's name is the reason: a one-shot `cycle` exits 130 or 143 with it (stopSignalExit).
    controller.abort(signal);
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
    controller.abort();
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
        { cwd: process.cwd(), env, shutdownSignal: controller.signal },
        packageJson.version,
      )
    : undefined;

const code = await main(process.argv.slice(2), {
  stdout: (text) => void (closed.stdout || process.stdout.write(text)),
  stderr: (text) => void (closed.stderr || process.stderr.write(text)),
  cwd: process.cwd(),
  env,
  shutdownSignal: controller.signal,
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
