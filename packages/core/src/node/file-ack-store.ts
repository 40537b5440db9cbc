import { ResultAsync } from 'neverthrow';
import type { JsonValue } from '../domain/json.js';
import { decodeAckBook, encodeAckBook, type AckBook } from '../operator/ack-book.js';
import type { AckStore, AckStoreError, LoadedAcks } from '../operator/ack-store.js';
import { describeError, errorCode, replaceFileDurably, sweepOrphanedSiblings } from './durable-fs.js';
import { readRegularFile } from './regular-file.js';

/** Options of {@link createFileAckStore}. */
export interface FileAckStoreOptions {
  /** The JSON file that holds the acks (the CLI's: {@link ackPathFor} the state file). */
  readonly path: string;
  /**
   * Called after the new book is durable in its temp file and before the rename that publishes it.
   * For crash tests only (a kill here must leave the previous book in place).
   */
  readonly beforeRename?: (tempPath: string) => Promise<void> | void;
}

const TEMP_TAG = 'tmp';

/** The ack file beside a state file: `<state>.acks.json` (the operator writes it, the cycle only reads it). */
export function ackPathFor(statePath: string): string {
  return `${statePath.replace(/\.json$/i, '')}.acks.json`;
}

function ioError(action: string, path: string, error: unknown): AckStoreError {
  return { kind: 'io', message: `Could not ${action} ack file ${path}: ${describeError(error)}` };
}

/**
 * An {@link AckStore} on one JSON file, written as the state file is: a unique temp file beside
 * it, fsynced, renamed over it, the directory fsynced. A cycle reading while an ack is written sees
 * the old book or the new one, never half. A file that is not JSON holds nothing and says so (a
 * warning); it is left in place for the operator, and the next `ack` replaces it.
 *
 * @example
 * ```ts
 * import { createFileAckStore, ackPathFor } from '@heartbeat-kit/core/node';
 *
 * const store = createFileAckStore({ path: ackPathFor('.git/heartbeat-kit/state.json') });
 * const loaded = await store.load();
 * if (loaded.isOk()) console.log(loaded.value.book.acks.length);
 * ```
 */
export function createFileAckStore(options: FileAckStoreOptions): AckStore {
  const { path } = options;
  const load = async (): Promise<LoadedAcks> => {
    await sweepOrphanedSiblings(path, TEMP_TAG);
    let text: string;
    try {
      text = await readRegularFile(path);
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return decodeAckBook(undefined);
      throw error;
    }
    let document: JsonValue;
    try {
      document = JSON.parse(text) as JsonValue;
    } catch (error) {
      const decoded = decodeAckBook(undefined);
      return {
        book: decoded.book,
        warnings: [
          `ack file ${path} is not valid JSON (${describeError(error)}); no ack holds anything until the next 'heartbeat-kit ack' rewrites it`,
        ],
      };
    }
    const decoded = decodeAckBook(document);
    return { book: decoded.book, warnings: decoded.warnings.map((w) => `${path}: ${w}`) };
  };
  const save = async (book: AckBook): Promise<void> => {
    await replaceFileDurably(path, `${JSON.stringify(encodeAckBook(book))}\n`, TEMP_TAG, options.beforeRename);
  };
  return {
    load: () => ResultAsync.fromPromise(load(), (error) => ioError('read', path, error)),
    save: (book) => ResultAsync.fromPromise(save(book), (error) => ioError('write', path, error)),
  };
}
