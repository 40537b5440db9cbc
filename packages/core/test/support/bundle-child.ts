/**
 * Bundles a TypeScript child script (and the real adapters it imports from src/) into one .mjs
 * file that plain `node` can run. Node 20 cannot strip types, and the child must exercise the
 * real adapter code, not a copy. esbuild comes from tsup's own dependency, so nothing new is
 * installed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface EsbuildLike {
  readonly build: (options: {
    readonly entryPoints: readonly string[];
    readonly outfile: string;
    readonly bundle: true;
    readonly platform: 'node';
    readonly format: 'esm';
    readonly target: string;
    readonly conditions: readonly string[];
    readonly external: readonly string[];
    readonly logLevel: 'error';
  }) => Promise<unknown>;
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

/** Options of {@link bundleChild}. */
export interface BundleChildOptions {
  /** Packages left as imports (they must then resolve from `parentDir`'s node_modules). */
  readonly external?: readonly string[];
  /** Where the temp directory is made (default the OS temp dir). */
  readonly parentDir?: string;
}

/** Bundles `entry` (absolute path of a .ts file) into a temp directory. */
export async function bundleChild(entry: string, options: BundleChildOptions = {}): Promise<BundledChild> {
  const dir = mkdtempSync(join(options.parentDir ?? tmpdir(), 'hb-child-'));
  const file = join(dir, 'child.mjs');
  await loadEsbuild().build({
    entryPoints: [entry],
    outfile: file,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['source'],
    external: options.external ?? [],
    logLevel: 'error',
  });
  return { file, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}
