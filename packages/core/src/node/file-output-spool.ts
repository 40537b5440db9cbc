import { randomBytes } from 'node:crypto';
import { close, closeSync, constants, fstat, fsync, mkdirSync, openSync, read, renameSync, type Stats } from 'node:fs';
import { lstat, open, readdir, readlink, rename, type FileHandle } from 'node:fs/promises';
import { promisify } from 'node:util';
import { basename, dirname, join, resolve } from 'node:path';
import { ResultAsync, errAsync, okAsync } from 'neverthrow';
import type { Clock } from '../ports/clock.js';
import type {
  LeftoverSpool,
  LeftoverSpools,
  OpenSpool,
  OutputSpool,
  OutputSpoolError,
  RefusedSpool,
  SpoolText,
} from '../ports/output-spool.js';
import { describeError, errorCode, syncDirectory, syncDirectorySync, unlinkQuietly } from './durable-fs.js';
import { DEFAULT_MAX_OUTPUT_BYTES } from './process-runner.js';
import { processGroupAlive } from './process-liveness.js';
import { spoolWriterRuns, startMarkSync, startedAtMs } from './spool-writer.js';
import { systemClock } from './system-clock.js';

/** Options of {@link createFileOutputSpool}. */
export interface FileOutputSpoolOptions {
  /** Where the spools live (the state directory, beside the reply inbox). */
  readonly directory: string;
  /** First part of every spool's name (see {@link gchatSpoolPrefixFor}). */
  readonly prefix: string;
  /** Names the set-aside copy of an unreadable spool; defaults to the system clock. */
  readonly clock?: Clock;
  /**
   * How much of one spool is read (and about how much of all leftovers one listing reads): the
   * process runner's output cap, 4 MiB, by default. A poller may print without limit into a file.
   */
  readonly maxReadBytes?: number;
}

/**
 * The GChat poll's spool prefix beside a state file: `state.json` → `state.gchat-spool`, so the
 * spools follow the state (and its inbox) wherever it is kept.
 */
export function gchatSpoolPrefixFor(statePath: string): string {
  return `${basename(statePath).replace(/\.json$/i, '')}.gchat-spool`;
}

/**
 * Whether another process of this host holds `path` open (Linux `/proc`); false where that cannot
 * be told. Asked only of a spool without its writer's pid (its cycle was killed between starting
 * the poller and renaming the spool): the poller may still be about to print into it.
 */
async function heldOpenElsewhere(path: string): Promise<boolean> {
  let pids: string[];
  try {
    pids = await readdir('/proc');
  } catch {
    return false;
  }
  for (const pid of pids) {
    if (!/^\d+$/.test(pid) || Number(pid) === process.pid) continue;
    let fds: string[];
    try {
      fds = await readdir(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        if ((await readlink(`/proc/${pid}/fd/${fd}`)) === path) return true;
      } catch {
        // Closed meanwhile.
      }
    }
  }
  return false;
}

const fsyncAsync = promisify(fsync);
const closeAsync = promisify(close);
const readAsync = promisify(read);
const fstatAsync = promisify(fstat);

/**
 * Reads at most `max` bytes of the regular file open as `fd`, from its start (positional reads: the
 * file offset a child shares is left alone): never the whole of a spool a poller filled without limit.
 */
async function readCapped(fd: number, size: number, max: number): Promise<SpoolText> {
  const buffer = Buffer.alloc(Math.min(size, max));
  let readBytes = 0;
  while (readBytes < buffer.length) {
    const { bytesRead } = await readAsync(fd, buffer, readBytes, buffer.length - readBytes, readBytes);
    if (bytesRead === 0) break;
    readBytes += bytesRead;
  }
  return { text: buffer.toString('utf8', 0, readBytes), size: Math.max(size, readBytes), readBytes };
}

/** What a non-regular entry is, for a message. */
function kindOf(stats: Stats): string {
  if (stats.isSymbolicLink()) return 'a symbolic link';
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSocket()) return 'a socket';
  if (stats.isBlockDevice() || stats.isCharacterDevice()) return 'a device';
  return 'not a regular file';
}

// Never follows a link the name may have become since it was examined, and never blocks on a FIFO.
const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** The reason an entry named like a spool is refused; names what it is, never what it holds or points to. */
function notASpool(stats: Stats): string {
  return `${kindOf(stats)}, not a spool heartbeat-kit wrote: not followed or read`;
}

/** An error's code (ELOOP, EACCES…): its message could quote a path, its code quotes nothing. */
const codeOf = (error: unknown): string => errorCode(error) ?? 'unknown error';

/**
 * Opens a leftover without following a link or blocking, checks it is a regular file, and reads it
 * up to `max` bytes. Undefined when it is gone; a reason when it is refused.
 */
async function readLeftover(path: string, max: number): Promise<SpoolText | Omit<RefusedSpool, 'id'> | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(path, READ_FLAGS);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    // Replaced by a link since the lstat.
    if (errorCode(error) === 'ELOOP')
      return { kind: 'not-a-file', reason: 'a symbolic link, not a spool heartbeat-kit wrote: not followed or read' };
    return { kind: 'unreadable', reason: `could not be opened (${codeOf(error)})` };
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return { kind: 'not-a-file', reason: notASpool(stats) };
    return await readCapped(handle.fd, stats.size, max);
  } catch (error) {
    return { kind: 'unreadable', reason: `could not be read (${codeOf(error)})` };
  } finally {
    await handle.close();
  }
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * An {@link OutputSpool} of files `<prefix>-<ms>-<pid>-<random>.out` in one directory. `open`
 * creates the file exclusively and fsyncs the directory before the child starts; the runner hands
 * the descriptor to the child, so the kernel writes the child's bytes even when this process is
 * SIGKILLed. As soon as the child exists the spool is renamed to `…w<child pid>-s<start mark>.out`:
 * a later cycle leaves a spool alone while that process group runs (an orphaned poller still
 * printing), and reads it once it has exited or its pid belongs to a later process (another start
 * mark). A spool is read up to `maxReadBytes` (the runner's output cap): `size` says how much more
 * there was. An entry with a spool's name that is a symbolic link, a directory or a FIFO is never
 * followed, opened or read: it is listed as refused. A spool without a writer's pid (its cycle was killed before the
 * rename) is left alone while any other process holds it open (Linux), else read: a cycle killed
 * before starting the child leaves an empty spool, which reads as empty. Set-aside spools are renamed to
 * `<name>.unreadable-<timestamp>`, which no later listing picks up.
 *
 * @example
 * ```ts
 * import { createFileOutputSpool, gchatSpoolPrefixFor } from '@heartbeat-kit/core/node';
 *
 * const spool = createFileOutputSpool({ directory: '.git/heartbeat-kit', prefix: gchatSpoolPrefixFor('.git/heartbeat-kit/state.json') });
 * const left = await spool.leftovers(); // what killed cycles' pollers printed
 * if (left.isOk()) console.log(left.value.spools.length);
 * ```
 */
export function createFileOutputSpool(options: FileOutputSpoolOptions): OutputSpool {
  const { directory, prefix } = options;
  const clock = options.clock ?? systemClock;
  const spool: SpoolDirectory = {
    directory,
    prefix,
    clock,
    maxReadBytes: options.maxReadBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
    pattern: new RegExp(`^${escapeRegExp(prefix)}-(\\d+)-(\\d+)-([0-9a-f]+)(?:\\.w(\\d+)(?:-s(\\d+))?)?\\.out$`),
    mine: new Map<string, string>(),
  };
  const pathOf = (id: string): string => spool.mine.get(id) ?? join(directory, id);
  return {
    open: () => {
      try {
        return okAsync(openSpool(spool));
      } catch (error) {
        return errAsync(ioError(directory, 'create')(error));
      }
    },
    leftovers: () => ResultAsync.fromPromise(listLeftovers(spool), ioError(directory, 'list')),
    remove: (id) =>
      ResultAsync.fromPromise(
        (async () => {
          await unlinkQuietly(pathOf(id));
          spool.mine.delete(id);
          await syncDirectory(directory);
        })(),
        ioError(directory, 'remove'),
      ),
    setAside: (id) =>
      ResultAsync.fromPromise(
        (async () => {
          const from = pathOf(id);
          const aside = `${from}.unreadable-${clock.now().toISOString().replace(/[:.]/g, '-')}`;
          await rename(from, aside);
          spool.mine.delete(id);
          await syncDirectory(dirname(aside));
          return aside;
        })(),
        ioError(directory, 'set aside'),
      ),
  };
}

/** What every operation of one spool directory shares. */
interface SpoolDirectory {
  readonly directory: string;
  readonly prefix: string;
  readonly clock: Clock;
  readonly maxReadBytes: number;
  /** A spool's name: start ms, pid, random, and the writer's pid and start mark once renamed. */
  readonly pattern: RegExp;
  /** Spools this process opened, by id → current path (renamed once the child exists). */
  readonly mine: Map<string, string>;
}

/** Maps an error of `action` to the port's error, naming the directory. */
function ioError(directory: string, action: string): (error: unknown) => OutputSpoolError {
  return (error) => ({ kind: 'io', message: `Could not ${action} output spool in ${directory}: ${describeError(error)}` });
}

// Synchronous up to the descriptor: the spool exists (and its directory entry is on disk) in the
// same tick the scanner asks for it, so the poll starts at once instead of queueing three event
// loop turns behind every other scanner's spawns (the GChat poll was the cycle's last process to
// start). The id is registered before the file exists, so a concurrent `leftovers` listing never
// takes this process's own fresh spool for a killed cycle's.
function openSpool(spool: SpoolDirectory): OpenSpool {
  const { directory, mine } = spool;
  const stem = `${spool.prefix}-${spool.clock.now().getTime()}-${process.pid}-${randomBytes(4).toString('hex')}`;
  const id = `${stem}.out`;
  const path = join(directory, id);
  mine.set(id, path);
  let fd: number;
  try {
    mkdirSync(directory, { recursive: true });
    // Read and write: `collect` reads back through this descriptor, never through a name someone could swap.
    fd = openSync(path, 'wx+', 0o600);
  } catch (error) {
    mine.delete(id);
    throw error;
  }
  try {
    syncDirectorySync(directory);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  let collected: Promise<SpoolText> | undefined;
  return {
    id,
    stdout: {
      fd,
      onSpawn: (pid) => {
        // With its start mark: a later process that gets the same pid is not taken for the writer.
        const start = startMarkSync(pid);
        const named = join(directory, `${stem}.w${pid}${start === undefined ? '' : `-s${start}`}.out`);
        try {
          renameSync(mine.get(id) ?? path, named);
          mine.set(id, named);
        } catch {
          // Unnamed writer: a later cycle reads the spool without waiting for it.
        }
      },
    },
    collect: () => {
      // Once: the descriptor is closed after it; a second call gets the same answer.
      collected ??= collectSpool(fd, directory, spool.maxReadBytes);
      return ResultAsync.fromPromise(collected, ioError(directory, 'read'));
    },
  };
}

/** Reads back what the child wrote through the spool's own descriptor, then closes it. */
async function collectSpool(fd: number, directory: string, maxReadBytes: number): Promise<SpoolText> {
  try {
    await fsyncAsync(fd);
    const text = await readCapped(fd, (await fstatAsync(fd)).size, maxReadBytes);
    await syncDirectory(directory);
    return text;
  } finally {
    await closeAsync(fd);
  }
}

/** Whether the writer a spool's name records may still print into it. */
async function stillPrinting(directory: string, name: string, match: RegExpExecArray, stats: Stats): Promise<boolean> {
  if (match[4] === undefined) return heldOpenElsewhere(resolve(directory, name));
  const pid = Number(match[4]);
  if (!(await processGroupAlive(pid))) return false;
  const currentStart = startMarkSync(pid);
  // A leader reaped between the two looks leaves no stat, which spoolWriterRuns takes for a group
  // printing without its leader: ask the group again first (the race processGroupAlive closes too).
  if (currentStart === undefined && !(await processGroupAlive(pid))) return false;
  const currentStartedAtMs = currentStart === undefined ? undefined : startedAtMs(currentStart);
  return spoolWriterRuns({
    ...(match[5] === undefined ? {} : { recordedStart: match[5] }),
    ...(currentStart === undefined ? {} : { currentStart }),
    ...(currentStartedAtMs === undefined ? {} : { currentStartedAtMs }),
    spoolChangedAtMs: stats.ctimeMs,
  });
}

/** The spools of the directory other processes left, oldest first; none when the directory does not exist. */
async function spoolNames(spool: SpoolDirectory): Promise<{ name: string; match: RegExpExecArray }[]> {
  let names: string[];
  try {
    names = await readdir(spool.directory);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return [];
    throw error;
  }
  return names
    .map((name) => ({ name, match: spool.pattern.exec(name) }))
    .filter(
      // Never this process's own: by its first name or its renamed one (a listing may see either).
      (x): x is { name: string; match: RegExpExecArray } =>
        x.match !== null && ![...spool.mine].some(([id, path]) => id === x.name || basename(path) === x.name),
    )
    .sort((a, b) => Number(a.match[1]) - Number(b.match[1]) || a.name.localeCompare(b.name));
}

async function listLeftovers(spool: SpoolDirectory): Promise<LeftoverSpools> {
  const { directory, maxReadBytes } = spool;
  const spools: LeftoverSpool[] = [];
  const refused: RefusedSpool[] = [];
  let stillWritten = 0;
  let readInAll = 0;
  for (const { name, match } of await spoolNames(spool)) {
    const path = join(directory, name);
    let stats: Stats;
    try {
      // lstat: a link is judged as the link, never by what it points to.
      stats = await lstat(path);
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') refused.push({ id: name, kind: 'unreadable', reason: `could not be examined (${codeOf(error)})` });
      continue;
    }
    if (!stats.isFile()) {
      refused.push({ id: name, kind: 'not-a-file', reason: notASpool(stats) });
      continue;
    }
    if (await stillPrinting(directory, name, match, stats)) {
      stillWritten += 1;
      continue;
    }
    // About one cap's worth per listing, and at least one spool: the rest wait for the next listing.
    if (spools.length > 0 && readInAll + Math.min(stats.size, maxReadBytes) > maxReadBytes) break;
    const read = await readLeftover(path, maxReadBytes);
    if (read === undefined) continue;
    if ('reason' in read) refused.push({ id: name, ...read });
    else {
      spools.push({ id: name, ...read });
      readInAll += read.readBytes;
    }
  }
  return { spools, refused, stillWritten };
}
