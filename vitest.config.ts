import { defineConfig } from 'vitest/config';

// Workspace packages resolve to their TypeScript sources through the `source`
// export condition, so tests never need a build first.
export default defineConfig({
  resolve: { conditions: ['source', 'module', 'node', 'import', 'default'] },
  ssr: { resolve: { conditions: ['source', 'module', 'node', 'import', 'default'] } },
  test: {
    // The packages' own build, once per run: tests that run the CLI as a process run the built bin.
    globalSetup: ['scripts/build-once-for-tests.ts'],
    include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'examples/*/src/**/*.test.ts', 'scripts/**/*.test.ts'],
    // Backstops only: no test asserts on speed, but a 2-core machine at load 10–20 runs a
    // multi-process e2e test several times slower than an idle one. Waits inside tests poll for
    // behaviour with no deadline of their own, so this is the one limit.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    // One process per test file (real child processes, signals, tmux servers); vitest runs
    // files on availableParallelism - 1 workers, i.e. one at a time on two cores.
    pool: 'forks',
  },
});
