import { constants } from 'node:fs';
import { access, mkdir, realpath } from 'node:fs/promises';
import { delimiter, dirname, isAbsolute, join, normalize, sep } from 'node:path';
import { openRegularFileForAppend, readRegularFile } from '@heartbeat-kit/core/node';
import { ResultAsync } from 'neverthrow';
import { parseLogText, serializeLogLine } from '../log/log-lines.js';
import type { BeatLog, BeatLogError } from '../ports/beat-log.js';
import type { ToolProbe, WorkspaceError, WorkspaceFiles } from '../ports/workspace.js';

const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error));
const codeOf = (error: unknown): string | undefined =>
  typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;

/**
 * The JSONL log file. Each append is one write of one line followed by fsync; when the file ends
 * in a torn line (a crash mid-append), a newline is written first so the new line stays whole.
 * A link to the log is followed (it is the user's file, in the repository), but a FIFO or device
 * there is refused with an error naming it: reading or appending to one could block forever.
 */
export function createFileBeatLog(path: string): BeatLog {
  return {
    append: (line) =>
      ResultAsync.fromPromise(
        (async () => {
          await mkdir(dirname(path), { recursive: true });
          const handle = await openRegularFileForAppend(path, 0o644, { followSymlinks: true });
          try {
            const { size } = await handle.stat();
            let prefix = '';
            if (size > 0) {
              const last = Buffer.alloc(1);
              await handle.read(last, 0, 1, size - 1);
              if (last[0] !== 0x0a) prefix = '\n';
            }
            await handle.write(prefix + serializeLogLine(line));
            await handle.sync();
          } finally {
            await handle.close();
          }
        })(),
        (error): BeatLogError => ({ kind: 'io', message: describe(error) }),
      ),
    read: () =>
      ResultAsync.fromPromise(
        readRegularFile(path, { followSymlinks: true }).catch((error: unknown) => {
          if (codeOf(error) === 'ENOENT') return '';
          throw error;
        }),
        (error): BeatLogError => ({ kind: 'io', message: describe(error) }),
      ).map(parseLogText),
  };
}

/** Options of {@link createDirectoryWorkspace}. */
export interface DirectoryWorkspaceOptions {
  /** The repository root every file must resolve into (default: the parent of `root`). */
  readonly boundary?: string;
}

class OutsideRepository extends Error {}

/**
 * Reads files under `root` (the `.woterclip/` directory). A path that escapes it is refused, and
 * so is a file whose real path (symlinks resolved) lies outside the repository: a persona's
 * SOUL.md linked to `~/.ssh/id_rsa` must not end up in an agent prompt. The resolved path is the
 * one read, so the link cannot be swapped between the check and the read.
 */
export function createDirectoryWorkspace(root: string, options: DirectoryWorkspaceOptions = {}): WorkspaceFiles {
  const boundaryDir = options.boundary ?? dirname(root);
  let boundaryReal: Promise<string> | undefined;
  return {
    readText: (relativePath) => {
      const full = normalize(join(root, relativePath));
      if (isAbsolute(relativePath) || !(full + sep).startsWith(normalize(root) + sep)) {
        return ResultAsync.fromPromise(Promise.reject(new Error('path escapes .woterclip/')), (): WorkspaceError => ({
          kind: 'io',
          message: `${relativePath}: path escapes .woterclip/`,
        }));
      }
      return ResultAsync.fromPromise(
        (async () => {
          let real: string;
          try {
            real = await realpath(full);
          } catch (error) {
            if (codeOf(error) === 'ENOENT') return undefined;
            throw error;
          }
          boundaryReal ??= realpath(boundaryDir);
          const bound = await boundaryReal;
          if (real !== bound && !real.startsWith(bound.endsWith(sep) ? bound : bound + sep)) throw new OutsideRepository(real);
          // Links are resolved above; a FIFO or device (a read would block) is refused.
          return await readRegularFile(real);
        })(),
        (error): WorkspaceError =>
          error instanceof OutsideRepository
            ? {
                kind: 'outside-repository',
                path: relativePath,
                message: `resolves outside the repository (to ${error.message}); copy the file into the repository instead of linking to it`,
              }
            : { kind: 'io', message: describe(error) },
      );
    },
  };
}

/** A {@link ToolProbe} that looks executables up on `PATH` (no shell, no `command -v`). */
export function createPathToolProbe(pathVariable: string | undefined): ToolProbe {
  const dirs = (pathVariable ?? '').split(delimiter).filter((d) => d !== '');
  return {
    hasExecutable: (name) =>
      ResultAsync.fromPromise(
        (async () => {
          if (name.includes('/') || name.includes('\\') || name.startsWith('-')) return false;
          for (const dir of dirs) {
            try {
              await access(join(dir, name), constants.X_OK);
              return true;
            } catch {
              // not in this directory
            }
          }
          return false;
        })(),
        (error): WorkspaceError => ({ kind: 'io', message: describe(error) }),
      ),
  };
}
