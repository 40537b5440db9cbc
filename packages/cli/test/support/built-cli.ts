import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const PACKAGE = resolve(import.meta.dirname, '../..');

/**
 * The CLI as users run it: the package's bin, which loads `dist/bin.js` from the package's own
 * build (tsup.config.ts). vitest's global setup (scripts/build-once-for-tests.ts) builds it once
 * per test run; no test bundles the CLI with options of its own.
 */
export const BUILT_CLI_BIN = join(PACKAGE, 'bin', 'heartbeat-kit.js');

/** A copy of the built CLI in an install of its own (see {@link installBuiltCliWithout}). */
export interface InstalledCli {
  /** The copied package's bin. */
  readonly bin: string;
  readonly dispose: () => void;
}

/**
 * The built CLI as `npm install heartbeat-kit` lays it out, minus the `missing` packages: the
 * package's bin/, dist/ and package.json copied into a temp `node_modules/heartbeat-kit`, beside
 * links to every dependency the workspace installed for it except those. Node then resolves the
 * missing ones from nowhere, as in a user's project without the optional @heartbeat-kit/bullmq.
 */
export function installBuiltCliWithout(missing: readonly string[]): InstalledCli {
  const dir = mkdtempSync(join(tmpdir(), 'hk-cli-install-'));
  const modules = join(dir, 'node_modules');
  const own = join(modules, 'heartbeat-kit');
  mkdirSync(own, { recursive: true });
  for (const entry of ['bin', 'dist', 'package.json']) cpSync(join(PACKAGE, entry), join(own, entry), { recursive: true });
  const installed = join(PACKAGE, 'node_modules');
  for (const name of readdirSync(installed)) {
    if (name.startsWith('.')) continue;
    const scoped = name.startsWith('@') ? readdirSync(join(installed, name)).map((n) => `${name}/${n}`) : [name];
    for (const full of scoped) {
      if (missing.includes(full)) continue;
      mkdirSync(join(modules, full, '..'), { recursive: true });
      symlinkSync(join(installed, full), join(modules, full));
    }
  }
  return { bin: join(own, 'bin', 'heartbeat-kit.js'), dispose: () => rmSync(dir, { recursive: true, force: true }) };
}
