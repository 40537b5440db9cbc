import { copyFile, constants, link, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ResultAsync } from 'neverthrow';
import type { JsonValue } from '../domain/json.js';
import type { Clock } from '../ports/clock.js';
import type { LoadedState, StateStore, StateStoreError } from '../ports/state-store.js';
import { describeError, errorCode, replaceFileDurably, sweepOrphanedSiblings, syncDirectory } from './durable-fs.js';
import { NotRegularFileError, readRegularFile } from './regular-file.js';
import { systemClock } from './system-clock.js';

/** Options of {@link createFileStateStore}. */
export interface FileStateStoreOptions {
  /** The JSON file that holds the document. */
  readonly path: string;
  /** Told about every warning as it happens (they are also returned by `load`). */
  readonly onWarning?: (warning: string) => void;
  /** Names the `.corrupt-<timestamp>` copy of a bad file; defaults to the system clock. */
  readonly clock?: Clock;
}

const TEMP_TAG = 'tmp';

function ioError(action: string, path: string, error: unknown): StateStoreError {
  return { kind: 'io', message: `Could not ${action} state file ${path}: ${describeError(error)}` };
}

/**
 * A {@link StateStore} on one JSON file. A save writes a unique temp file beside the target,
 * fsyncs it, renames it over the target and fsyncs the directory, so a crash at any point leaves
 * the previous or the new document, never a torn one. A file that is not JSON, or not a regular
 * file at all (a FIFO, whose read would block forever; a device; a symbolic link), is renamed aside to
 * `<path>.corrupt-<timestamp>` and reported as a warning: the heartbeat starts from empty state
 * instead of crashing or silently overwriting the evidence. A file that is JSON but does not fit
 * (the caller salvages what it can) is kept under the same `.corrupt-<timestamp>` name by
 * `setAside`, as a hard link (no free space needed), before the salvaged save replaces it; until
 * that save the original stays in place, so a crash in between loses nothing. `fence` is accepted and ignored: a
 * single file on one host has no competing writers once the lock is held.
 *
 * @example
 * ```ts
 * import { createFileStateStore } from '@heartbeat-kit/core/node';
 *
 * const store = createFileStateStore({ path: '.git/heartbeat-kit/state.json', onWarning: (w) => console.warn(w) });
 * await store.save({ version: 1 }); // atomic: readers see the old or the new file, never half
 * const loaded = await store.load(); // a corrupt file is set aside with a warning, never thrown
 * if (loaded.isOk()) console.log(loaded.value.document);
 * ```
 */
export function createFileStateStore(options: FileStateStoreOptions): StateStore {
  const { path, onWarning } = options;
  const clock = options.clock ?? systemClock;

  const setAside = async (reason: string): Promise<LoadedState> => {
    const stamp = clock.now().toISOString().replace(/[:.]/g, '-');
    const aside = `${path}.corrupt-${stamp}`;
    try {
      await rename(path, aside);
    } catch (error) {
      // Someone else already moved or replaced it; report what we saw and carry on empty.
      if (errorCode(error) !== 'ENOENT') throw error;
    }
    const warning = `State file ${path} was unreadable (${reason}); moved it to ${aside} and started from empty state.`;
    onWarning?.(warning);
    return { document: undefined, warnings: [warning] };
  };

  const keepCopy = async (): Promise<string> => {
    const stamp = clock.now().toISOString().replace(/[:.]/g, '-');
    for (let attempt = 0; ; attempt += 1) {
      const aside = `${path}.corrupt-${stamp}${attempt === 0 ? '' : `-${attempt}`}`;
      try {
        await link(path, aside);
      } catch (error) {
        const code = errorCode(error);
        if (code === 'EEXIST' && attempt < 100) continue;
        // Some file systems have no hard links: copy (this needs space; a full disk fails loudly).
        if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'EXDEV') throw error;
        await copyFile(path, aside, constants.COPYFILE_EXCL);
      }
      await syncDirectory(dirname(path));
      return aside;
    }
  };

  const load = async (): Promise<LoadedState> => {
    // Temp files of writers killed mid-save would otherwise pile up beside the state file.
    await sweepOrphanedSiblings(path, TEMP_TAG);
    let text: string;
    try {
      // Never a blocking read: a FIFO or device here would hold the cycle lock forever.
      text = await readRegularFile(path);
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return { document: undefined, warnings: [] };
      // Never read (a FIFO blocks, a link points anywhere): set aside like a damaged file, so the
      // cycle runs and its save puts a regular file back. A directory (`--state` naming one by
      // mistake) is never moved: it stays an error.
      if (error instanceof NotRegularFileError && error.kind !== 'directory') return setAside(`a ${error.kind}, not a regular file`);
      throw error;
    }
    let document: JsonValue;
    try {
      document = JSON.parse(text) as JsonValue;
    } catch (error) {
      return setAside(text.trim() === '' ? 'empty file' : `not valid JSON: ${describeError(error)}`);
    }
    return { document, warnings: [] };
  };

  const save = async (document: JsonValue): Promise<void> => {
    const text = `${JSON.stringify(document)}\n`;
    await replaceFileDurably(path, text, TEMP_TAG);
  };

  return {
    load: () => ResultAsync.fromPromise(load(), (error) => ioError('read', path, error)),
    save: (document) => ResultAsync.fromPromise(save(document), (error) => ioError('write', path, error)),
    setAside: (reason) =>
      ResultAsync.fromPromise(keepCopy(), (error) => ioError('keep a copy of', path, error)).map((aside) => {
        onWarning?.(`State file ${path} did not fit (${reason}); kept a copy at ${aside}.`);
        return aside;
      }),
  };
}
