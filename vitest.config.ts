import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Workspace packages resolve to their TypeScript sources through the `source` export condition
// for in-process tests; tests that run the CLI as a process run the built bin (see globalSetup).
export default defineConfig({
  resolve: { conditions: ['source', 'module', 'node', 'import', 'default'] },
  // Tests run in vite's SSR environment, and vitest hands these conditions to Node for the modules
  // it does not transform: no `module` here (a bundler's condition), so a dependency loads as Node
  // loads it for a user (@opentelemetry/api's `module` build has extensionless imports Node refuses).
  ssr: { resolve: { conditions: ['source', 'node', 'import', 'default'] } },
  test: {
    // The packages' own build, once per run: tests that run the CLI as a process run the built bin.
    globalSetup: ['scripts/build-once-for-tests.ts'],
    include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'examples/*/src/**/*.test.ts', 'scripts/**/*.test.ts'],
    // Backstops only: no test asserts on speed, but a 2-core machine at load 10–35 runs a
    // multi-process e2e test ten times slower than an idle one (two 75 s tests passed 300 s at
    // load 34 in a busy proof). Waits inside tests poll for behaviour with no deadline of their
    // own, so this is the one limit, set to catch a hang, not a slow machine.
    testTimeout: 900_000,
    hookTimeout: 900_000,
    // One process per test file (real child processes, signals, tmux servers).
    pool: 'forks',
    // vitest's default (availableParallelism - 1) ran one file at a time on two cores, yet the
    // slow files mostly wait on child processes (git, tmux, redis-server, the built bin): with one
    // more worker than cores the whole suite took 290 s instead of 579 s on the same 2-core machine
    // (both at load 5-8, 2026-12-02). Every file keeps its own temp dirs, sockets and servers, so
    // files do not contend for anything but the CPU.
    maxWorkers: availableParallelism() + 1,
  },
});
