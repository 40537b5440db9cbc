import { accessSync } from 'node:fs';
import type { FileExists } from '../file-exists.js';

/**
 * The Node implementation of {@link FileExists}: any access error counts as absent. Answered in the
 * calling tick (one `access` call, microseconds): the GChat scanner asks it right before starting
 * its poll, and an asynchronous answer waited a whole event loop turn behind the other scanners.
 */
export const nodeFileExists: FileExists = (path) => {
  try {
    accessSync(path);
    return Promise.resolve(true);
  } catch {
    return Promise.resolve(false);
  }
};
