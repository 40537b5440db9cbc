import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { defineConfig, type Options } from 'tsup';

// Two builds into dist/:
// - the library (`index`, what `import { main } from 'heartbeat-kit'` loads) and the `fleet`
//   command, with the workspace packages and npm dependencies left as imports, as before;
// - the bin (`bin.js` and its chunks under dist/bin-chunks/), with @heartbeat-kit/core, scanners,
//   woterclip, runbook and their dependencies bundled in and split by command. One process then
//   loads one file per chunk instead of ~170 modules (zod alone is 95 files, 64 of them locales),
//   and neverthrow as its ES build: Node loads the package's CommonJS build for a bare import, and
//   an ES import of CommonJS starts the WebAssembly export lexer (≈ 4 MiB of RSS by itself).
//   Measured on the bench's ×1 world (docs/performance.md): `cycle --help` 67.5 → 55 MiB peak RSS.
// The `fleet` command stays outside the bundle (the bin imports dist/commands/fleet.js): it hands
// the CLI's scanners and sinks to @heartbeat-kit/bullmq's worker, which runs them with its own
// import of @heartbeat-kit/core, so both must be the same copy of core and neverthrow.

const FLEET = './commands/fleet.js';
const BIN_CHUNKS = 'bin-chunks';

const bin: Options = {
  entry: { bin: 'src/bin.ts' },
  format: ['esm'],
  sourcemap: true,
  clean: false,
  target: 'node20',
  splitting: true,
  // prom-client stays an import too: only --metrics-textfile/--metrics-listen load it (a dynamic
  // import), and its CommonJS build requires Node built-ins, which an ES bundle cannot.
  // @heartbeat-kit/mcp (and the MCP SDK under it) stays an import too: an optional package that
  // only `heartbeat-kit mcp` loads, so neither the bin's size nor the cycle path carries the SDK.
  noExternal: [/^(?!@heartbeat-kit\/bullmq$|@heartbeat-kit\/mcp(?:$|\/)|prom-client$)[^./]/],
  esbuildPlugins: [
    {
      // A plugin, not esbuildOptions: scripts/build-changed.mjs passes its own esbuildOptions.
      name: 'heartbeat-kit-bin',
      setup(build) {
        // Maps without the sources inside (src/ is not published; the bin's maps held zod's and
        // date-fns's sources too): under --enable-source-maps a stack trace still names the source
        // file and line, which is what a bug report needs.
        build.initialOptions.sourcesContent = false;
        build.initialOptions.chunkNames = `${BIN_CHUNKS}/[name]-[hash]`;
        // ES builds first (neverthrow has `module` but no `exports`); packages with exports are unaffected.
        build.initialOptions.mainFields = ['module', 'main'];
        // The workspace packages from their TypeScript sources (their `source` export), not their
        // builds: esbuild then splits by source file, so the cycle prefetch's chunk holds the
        // process runner alone instead of the core build's chunk with zod (≈ 550 KB to compile).
        build.initialOptions.conditions = ['source', 'module'];
        build.onStart(() => rmSync(join(build.initialOptions.outdir ?? 'dist', BIN_CHUNKS), { recursive: true, force: true }));
        build.onResolve({ filter: /\/commands\/fleet\.js$/ }, () => ({ path: FLEET, external: true }));
        // The cycle prefetch runs while the command loads, so its chunk must be small: through
        // core/node's index, esbuild puts the process runner in one chunk with everything that index
        // reaches (zod, ≈ 550 KB to compile before the first command could start). The bin's third-
        // signal exit (force-exit.ts) is a static import of the bin for the same reason it must stay
        // small: through the index it loaded that chunk for every command, `--version` included
        // (cold start 78 → 130 ms, until the bench's comparison of builds found it). Neither imports
        // anything else from core/node (a new import fails this build: the file does not export it).
        build.onResolve({ filter: /^@heartbeat-kit\/core\/node$/ }, (args) =>
          /[\\/](?:wiring[\\/]cycle-prefetch|force-exit)\.ts$/.test(args.importer)
            ? { path: join(import.meta.dirname, '../core/src/node/process-runner.ts') }
            : undefined,
        );
        // Likewise the terminal filter every write of main and the bin passes (terminal-safe-io.ts):
        // through core's host index, main's static imports would load the ≈ 600 KB chunk with zod before
        // any command (and the cycle prefetch) could start. They import only terminal-escapes.ts's exports.
        build.onResolve({ filter: /^@heartbeat-kit\/core(?:\/host)?$/ }, (args) =>
          /[\\/]src[\\/](?:bin|terminal-safe-io)\.ts$/.test(args.importer)
            ? { path: join(import.meta.dirname, '../core/src/text/terminal-escapes.ts') }
            : undefined,
        );
        // yaml's `node` export is its CommonJS build, which calls require('process'): in an ES bundle
        // that require is esbuild's shim and throws at run time ("Dynamic require of "process" is not
        // supported": plan, check-liveness and every woterclip command crashed). Its ES build (the
        // package's `default` export) is the same code without Node built-ins, and without the node
        // build's LOG_TOKENS / LOG_STREAM switches, which print to stdout when a user's environment
        // happens to set them. pack-check fails the build if any chunk still holds the shim.
        build.onResolve({ filter: /^yaml$/ }, async (args) => {
          const manifest = await build.resolve('yaml/package.json', { kind: args.kind, resolveDir: args.resolveDir });
          if (manifest.errors.length > 0) return { errors: manifest.errors };
          return { path: join(dirname(manifest.path), 'browser/index.js') };
        });
        // zod's 63 other locales are reachable from its `z.locales` namespace, so the bundle kept them
        // all (≈ 2 MiB of RSS); heartbeat-kit's messages are English (the bin sets only zod's jitless).
        build.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, () => ({
          contents: "export { default as en } from './en.js';",
          loader: 'js',
        }));
      },
    },
  ],
};

export default defineConfig([
  {
    entry: { index: 'src/index.ts', 'commands/fleet': 'src/commands/fleet.ts' },
    format: ['esm'],
    dts: { entry: { index: 'src/index.ts' } },
    sourcemap: true,
    esbuildPlugins: [{ name: 'lean-source-maps', setup: (build) => void (build.initialOptions.sourcesContent = false) }],
    // Everything but the bin's own files, which the other build writes at the same time.
    clean: ['!bin.js', '!bin.js.map', `!${BIN_CHUNKS}/**`],
    target: 'node20',
  },
  bin,
]);
