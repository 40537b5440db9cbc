import { constants, type Stats } from 'node:fs';
import { lstat, open, stat, type FileHandle } from 'node:fs/promises';
import { errorCode } from './durable-fs.js';

/** Options of {@link readRegularFile} and {@link openRegularFileForAppend}. */
export interface RegularFileOptions {
  /**
   * Follow a symbolic link at the path's last component. Off by default: the heartbeat's own files
   * (state, receipts, locks) are never links, and following one would read or write wherever it
   * points. Turn it on for files a user owns and may link from a dotfiles checkout (HEARTBEAT.md,
   * `.woterclip/config.yaml`, a runbook); what the link reaches must still be a regular file.
   */
  readonly followSymlinks?: boolean;
}

/** What stands at a path instead of a regular file. */
export type NonRegularKind =
  'FIFO (named pipe)' | 'directory' | 'socket' | 'character device' | 'block device' | 'symbolic link' | 'special file';

// Why each kind is refused, said after the kind.
const WHY: Readonly<Record<NonRegularKind, string>> = {
  'FIFO (named pipe)': '; reading or writing one can block forever',
  directory: '',
  socket: '; reading one can block forever',
  'character device': '; reading one can block forever',
  'block device': '; heartbeat-kit keeps its data in regular files',
  'symbolic link': '; heartbeat-kit does not follow links among its own files',
  'special file': '; reading one can block forever',
};

/**
 * A file heartbeat-kit reads or appends to is not a regular file. Reading a FIFO, a device or a
 * socket can block forever (a FIFO's `open` waits for a writer), and a blocked read holds the cycle
 * lock and keeps the process from exiting; so such a file is refused, never opened for reading.
 * `code` is `ENOTREGULAR`, so callers that branch on error codes see it as neither ENOENT nor EISDIR.
 */
export class NotRegularFileError extends Error {
  /** A code of our own, beside Node's (`ENOENT`, `EACCES`, …). */
  readonly code = 'ENOTREGULAR';
  constructor(
    /** The path as given. */
    readonly path: string,
    /** What was found there. */
    readonly kind: NonRegularKind,
  ) {
    super(`${path} is a ${kind}, not a regular file${WHY[kind]}. Fix: move it away or replace it with a regular file.`);
    this.name = 'NotRegularFileError';
  }
}

function kindOf(info: Stats): NonRegularKind {
  if (info.isFIFO()) return 'FIFO (named pipe)';
  if (info.isDirectory()) return 'directory';
  if (info.isSocket()) return 'socket';
  if (info.isCharacterDevice()) return 'character device';
  if (info.isBlockDevice()) return 'block device';
  if (info.isSymbolicLink()) return 'symbolic link';
  return 'special file';
}

/**
 * `open` failed in a way a regular file never causes (ELOOP under O_NOFOLLOW: a link; ENXIO: a
 * socket, or a FIFO opened for writing without a reader; EISDIR): look at the path to name it.
 */
async function explainOpenFailure(path: string, error: unknown, follow: boolean): Promise<never> {
  const code = errorCode(error);
  if (code === 'ELOOP' || code === 'ENXIO' || code === 'EISDIR' || code === 'EOPNOTSUPP') {
    const info = await (follow ? stat(path) : lstat(path)).catch(() => undefined);
    if (info !== undefined && !info.isFile()) throw new NotRegularFileError(path, kindOf(info));
  }
  throw error;
}

async function openChecked(path: string, flags: number, follow: boolean, mode?: number): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await open(path, flags, mode);
  } catch (error) {
    return explainOpenFailure(path, error, follow);
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new NotRegularFileError(path, kindOf(info));
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

// O_NONBLOCK: opening a FIFO for reading returns at once instead of waiting for a writer, and a
// device's open has no chance to wait either; fstat then refuses either before a byte is read. On a
// regular file it changes nothing. O_NOCTTY: a terminal device never becomes our controlling tty.
const BASE = constants.O_NONBLOCK | constants.O_NOCTTY;
const noFollow = (options: RegularFileOptions): number => (options.followSymlinks === true ? 0 : constants.O_NOFOLLOW);

/**
 * Reads a regular file as UTF-8, never blocking on what is not one: the path is opened with
 * `O_NONBLOCK` (and `O_NOFOLLOW` unless `followSymlinks`), the descriptor is `fstat`ed, and a FIFO,
 * device, socket, directory or (without `followSymlinks`) symbolic link is refused with a
 * {@link NotRegularFileError} naming the path and the fix. A missing file rejects with Node's
 * `ENOENT` error as `readFile` does.
 */
export async function readRegularFile(path: string, options: RegularFileOptions = {}): Promise<string> {
  const handle = await openChecked(path, constants.O_RDONLY | BASE | noFollow(options), options.followSymlinks === true);
  try {
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

/**
 * Opens a file for appending (created with `mode` if missing; read-write, so a caller can look at
 * its last byte for a torn line), under the same rule as {@link readRegularFile}: a FIFO (a plain
 * open for writing waits for a reader), device, socket or link at the path is refused with a
 * {@link NotRegularFileError}. The caller closes it.
 */
export async function openRegularFileForAppend(path: string, mode = 0o644, options: RegularFileOptions = {}): Promise<FileHandle> {
  const flags = constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | BASE | noFollow(options);
  return openChecked(path, flags, options.followSymlinks === true, mode);
}
