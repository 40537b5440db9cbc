import { stat } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * The directory step of `file`'s path that exists but is a file (or anything else not a
 * directory), so nothing can ever be created under it; undefined when there is none. Checked
 * before a cycle so `--state` under a regular file gets one clear line, not the lock's
 * `EEXIST … mkdir` and the receipts' `ENOTDIR`.
 */
export async function fileInStatePath(file: string): Promise<string | undefined> {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    try {
      return (await stat(dir)).isDirectory() ? undefined : dir;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // Missing (created later) or under a file (ENOTDIR): the culprit is further up.
      if (code !== 'ENOENT' && code !== 'ENOTDIR') return undefined;
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/** The usage error of a `--state` path that runs through a file (see {@link fileInStatePath}). */
export function stateUnderFileMessage(flag: string, file: string): string {
  return (
    `--state ${flag}: ${file} is a file, not a directory, so the state cannot be kept under it. ` +
    `Fix: pass --state a path whose directories are directories (e.g. ${file}.d/state.json), or move ${file} away.`
  );
}
