import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { MARKER } from './service-plan.js';
import type { ServiceFile } from './systemd-units.js';

/** What is at a unit's path now. */
export type FileState = 'missing' | 'current' | 'outdated' | 'foreign';

/** One unit file on disk, compared with what `install` would write. */
export interface FileStatus {
  readonly path: string;
  readonly state: FileState;
}

/** Ours: the marker is in the first three lines (after the XML declaration in a plist). */
function isOurs(text: string): boolean {
  return text
    .split('\n')
    .slice(0, 3)
    .some((line) => line.includes(MARKER));
}

/**
 * Each planned file's state in `dir`: missing, someone else's, ours and current (as planned, or
 * running this node and bin with other loop options), or ours but older (another node or bin).
 */
export async function fileStatuses(dir: string, files: readonly ServiceFile[]): Promise<FileStatus[]> {
  return Promise.all(
    files.map(async (file): Promise<FileStatus> => {
      const path = join(dir, file.name);
      let text: string;
      try {
        text = await readFile(path, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { path, state: 'missing' };
        throw error;
      }
      if (!isOurs(text)) return { path, state: 'foreign' };
      const current = text === file.text || (file.program !== undefined && text.includes(file.program));
      return { path, state: current ? 'current' : 'outdated' };
    }),
  );
}

/** Writes `text` at `path` whole or not at all (a sibling renamed over it), mode 0644 as unit files are. */
export async function writeUnitFile(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temp, text, { flag: 'wx', mode: 0o644 });
    // The umask may have narrowed the mode; a unit must be readable by its manager.
    await chmod(temp, 0o644);
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}

/** Removes `path`; already gone is fine. */
export async function removeUnitFile(path: string): Promise<void> {
  await unlink(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
}
