import { basename, dirname, join } from 'node:path';
import { ResultAsync } from 'neverthrow';
import { pauseSchema, type Pause } from '../operator/pause-model.js';
import type { PauseStore, PauseStoreError } from '../operator/pause-store.js';
import { describeError, errorCode, replaceFileDurably, syncDirectory, unlinkQuietly } from './durable-fs.js';
import { readRegularFile } from './regular-file.js';

const TEMP_TAG = 'tmp';

/** Options of {@link createFilePauseStore}. */
export interface FilePauseStoreOptions {
  /** The pause file, e.g. {@link pausePathFor}(statePath). */
  readonly path: string;
}

/** The pause file beside a state file: `state.json` → `state.pause.json`. */
export function pausePathFor(statePath: string): string {
  return join(dirname(statePath), `${basename(statePath).replace(/\.json$/i, '')}.pause.json`);
}

class InvalidPause extends Error {}

/**
 * A {@link PauseStore} in one JSON file. A write goes to a synced temporary sibling renamed over
 * the file (atomic on POSIX), so a cycle reading it mid-write sees the old pause or the new one.
 */
export function createFilePauseStore(options: FilePauseStoreOptions): PauseStore {
  const { path } = options;
  const fail =
    (verb: string) =>
    (error: unknown): PauseStoreError =>
      error instanceof InvalidPause
        ? { kind: 'invalid', message: `${path} is not a pause (${error.message}); fix: run 'heartbeat-kit resume' to remove it` }
        : { kind: 'io', message: `cannot ${verb} ${path}: ${describeError(error)}` };

  const read = async (): Promise<Pause | undefined> => {
    let text: string;
    try {
      text = await readRegularFile(path);
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return undefined;
      throw error;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new InvalidPause(`not valid JSON: ${describeError(error)}`);
    }
    const parsed = pauseSchema.safeParse(value);
    if (!parsed.success) throw new InvalidPause(parsed.error.issues.map((i) => `${i.path.join('.') || 'pause'}: ${i.message}`).join('; '));
    return parsed.data;
  };

  const write = async (pause: Pause): Promise<void> => {
    const checked = pauseSchema.safeParse(pause);
    if (!checked.success)
      throw new InvalidPause(checked.error.issues.map((i) => `${i.path.join('.') || 'pause'}: ${i.message}`).join('; '));
    const text = `${JSON.stringify(checked.data)}\n`;
    await replaceFileDurably(path, text, TEMP_TAG);
  };

  const clear = async (): Promise<Pause | undefined> => {
    let previous: Pause | undefined;
    try {
      previous = await read();
    } catch (error) {
      if (!(error instanceof InvalidPause)) throw error;
      // A damaged pause is still removed: resume must always be able to end a pause.
    }
    await unlinkQuietly(path);
    await syncDirectory(dirname(path)).catch(() => undefined);
    return previous;
  };

  return {
    read: () => ResultAsync.fromPromise(read(), fail('read')),
    write: (pause) => ResultAsync.fromPromise(write(pause), fail('write')),
    clear: () => ResultAsync.fromPromise(clear(), fail('remove')),
  };
}
