import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A fresh temporary directory (real path, so git's reported paths compare equal). */
export function tempDir(prefix: string): { readonly path: string; readonly remove: () => void } {
  const path = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** Folder of the fake `bd` executable. */
export const FAKE_BIN = fileURLToPath(new URL('../fake-bin', import.meta.url));

/** A base environment for the execa runner with the fake tools first on PATH. */
export function envWithFakeBin(extra: Record<string, string> = {}): Record<string, string | undefined> {
  return { ...process.env, PATH: `${FAKE_BIN}:${process.env.PATH ?? ''}`, ...extra };
}
