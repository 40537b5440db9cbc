/**
 * Bundles a TypeScript child script with the package's real sources into one .mjs that plain
 * `node` runs (Node 20 cannot strip types). bullmq and ioredis stay external and resolve from
 * this package's node_modules, which is why the bundle is written under it.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

interface EsbuildLike {
  readonly build: (options: Record<string, unknown>) => Promise<unknown>;
}

function loadEsbuild(): EsbuildLike {
  const require = createRequire(import.meta.url);
  return createRequire(require.resolve('tsup'))('esbuild') as EsbuildLike;
}

/** A bundled child script and how to remove it. */
export interface BundledChild {
  readonly file: string;
  readonly dispose: () => void;
}

/** Bundles `entry` (absolute path of a .ts file). */
export async function bundleChild(entry: string): Promise<BundledChild> {
  const cache = fileURLToPath(new URL('../../node_modules/.cache', import.meta.url));
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, 'hb-fleet-child-'));
  const file = join(dir, 'child.mjs');
  await loadEsbuild().build({
    entryPoints: [entry],
    outfile: file,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['source'],
    external: ['bullmq', 'ioredis'],
    logLevel: 'error',
  });
  return { file, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}
