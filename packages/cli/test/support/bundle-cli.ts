import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

/** The CLI's bin bundled into one file, to run as a real process (signals, pipes, exit codes). */
export interface BundledCli {
  readonly bin: string;
  readonly dispose: () => void;
}

/**
 * Bundles `src/bin.ts` from the TypeScript sources (no package build needed). `external` packages
 * stay imports; in the temp directory nothing resolves them, as in an install without them.
 */
export async function bundleCli(options: { readonly external?: readonly string[] } = {}): Promise<BundledCli> {
  const dir = mkdtempSync(join(tmpdir(), 'hk-cli-bundle-'));
  const bin = join(dir, 'bin.mjs');
  await build({
    entryPoints: { bin: resolve(import.meta.dirname, '../../src/bin.ts') },
    // Code splitting as in the tsup build: a lazily loaded command stays its own chunk.
    outdir: dir,
    splitting: true,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['source'],
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    external: [...(options.external ?? [])],
    logLevel: 'error',
  });
  return { bin, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}
