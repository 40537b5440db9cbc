/**
 * vitest's global setup: builds the packages with their own tsup configs (the JavaScript of
 * `pnpm build`, through scripts/build-changed.mjs, which skips packages whose inputs did not change)
 * once, before any test file runs. Every test that runs the CLI as a process then runs what ships,
 * `packages/cli/bin/heartbeat-kit.js` → `dist/bin.js`, never a bundle of its own (a test bundle
 * built with other options once hid a crash of three commands in the real bin).
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

export default function buildOnceForTests(): void {
  execFileSync(process.execPath, [join(import.meta.dirname, 'build-changed.mjs'), '--quiet'], { stdio: ['ignore', 'inherit', 'inherit'] });
}
