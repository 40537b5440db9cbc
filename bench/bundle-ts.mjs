// Bundles a TypeScript module to a temporary .mjs so plain `node` scripts (the benchmarks)
// can import sources without a build step of their own.
import { build } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Bundles `entry` (a .ts file) and imports it; the bundle's temp directory is removed once loaded. */
export async function importTs(entry) {
  const outdir = mkdtempSync(join(tmpdir(), 'hk-bench-'));
  const outfile = join(outdir, 'bundle.mjs');
  try {
    await build({
      entryPoints: [entry],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      conditions: ['source'],
      logLevel: 'error',
    });
    return await import(pathToFileURL(outfile).href);
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}
