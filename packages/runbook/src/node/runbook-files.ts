import { randomBytes } from 'node:crypto';
import { open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { readRegularFile } from '@heartbeat-kit/core/node';
import { ResultAsync, errAsync } from 'neverthrow';
import { parseSystemStatus } from '../status/system-status.js';
import type { TaskStore, TaskStoreError } from '../ports/task-store.js';

/** Why a file could not be read or written. */
export type FileError =
  | { readonly kind: 'not-found'; readonly path: string; readonly message: string }
  | { readonly kind: 'io'; readonly path: string; readonly message: string }
  | { readonly kind: 'changed'; readonly path: string; readonly message: string };

function ioError(path: string, cause: unknown): FileError {
  const code = (cause as { code?: string } | undefined)?.code;
  const message = cause instanceof Error ? cause.message : String(cause);
  return code === 'ENOENT' ? { kind: 'not-found', path, message: `${path}: no such file` } : { kind: 'io', path, message };
}

/**
 * Reads a UTF-8 text file. A link is followed (a runbook may live in a dotfiles checkout); a FIFO,
 * device or directory is refused with an `io` error naming it (a read could block forever).
 */
export function readTextFile(path: string): ResultAsync<string, FileError> {
  return ResultAsync.fromPromise(readRegularFile(path, { followSymlinks: true }), (e) => ioError(path, e));
}

async function writeAtomic(path: string, text: string, expected: string | undefined): Promise<void> {
  const dir = dirname(path);
  const temp = join(dir, `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temp, 'wx', 0o644);
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    // A concurrent edit between plan and write must not be overwritten: re-read just before rename.
    if (expected !== undefined && (await readRegularFile(path, { followSymlinks: true })) !== expected) {
      throw Object.assign(new Error(`${path} changed since it was read; run the command again`), { changed: true });
    }
    await rename(temp, path);
  } catch (cause) {
    await unlink(temp).catch(() => undefined);
    throw cause;
  }
  // Make the rename itself durable; some platforms cannot open a directory, which is fine.
  const dirHandle = await open(dir, 'r').catch(() => undefined);
  if (dirHandle !== undefined) {
    await dirHandle.sync().catch(() => undefined);
    await dirHandle.close();
  }
}

/**
 * Replaces a file atomically: temp file in the same folder, fsync, rename, fsync of the folder. A
 * reader sees the old or the new text, never a torn one. With `expected`, the write is refused
 * (`changed`) when the file no longer holds that text.
 */
export function writeTextFileAtomic(
  path: string,
  text: string,
  options: { readonly expected?: string } = {},
): ResultAsync<void, FileError> {
  return ResultAsync.fromPromise(writeAtomic(path, text, options.expected), (e) =>
    (e as { changed?: boolean }).changed === true ? { kind: 'changed', path, message: (e as Error).message } : ioError(path, e),
  );
}

/** A TaskStore over a JSON status snapshot file, validated with the documented schema. */
export function createFileTaskStore(path: string): TaskStore {
  return {
    snapshot: () =>
      readTextFile(path)
        .mapErr((e): TaskStoreError => ({ kind: 'io', message: e.message }))
        .andThen((text) => {
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch (cause) {
            return errAsync<never, TaskStoreError>({
              kind: 'invalid-status',
              source: path,
              problems: [`${path}: not valid JSON (${cause instanceof Error ? cause.message : 'parse error'}); write one JSON object`],
            });
          }
          const parsed = parseSystemStatus(json, path);
          return parsed.isOk() ? ResultAsync.fromSafePromise(Promise.resolve(parsed.value)) : errAsync<never, TaskStoreError>(parsed.error);
        }),
  };
}
