import { access } from 'node:fs/promises';
import type { FileExists } from '../file-exists.js';

/** The Node implementation of {@link FileExists}: any access error counts as absent. */
export const nodeFileExists: FileExists = async (path) => {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
};
