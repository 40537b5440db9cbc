import { randomBytes } from 'node:crypto';
import { close, closeSync, fsync, mkdirSync, openSync, renameSync } from 'node:fs';
import { readFile, readdir, readlink, rename } from 'node:fs/promises';
import { promisify } from 'node:util';
import { basename, dirname, join, resolve } from 'node:path';
import { ResultAsync, errAsync, okAsync } from 'neverthrow';
import type { Clock } from '../ports/clock.js';
import type { LeftoverSpool, OpenSpool, OutputSpool, OutputSpoolError } from '../ports/output-spool.js';
import { describeError, errorCode, syncDirectory, syncDirectorySync, unlinkQuietly } from './durable-fs.js';
import { processGroupAlive } from './process-liveness.js';
import { systemClock } from './system-clock.js';

/** Options of {@link createFileOutputSpool}. */
export interface FileOutputSpoolOptions {
  /** Where the spools live (the state directory, beside the reply inbox). */
  readonly directory: string;
  /** First part of every spool's name (see {@link gchatSpoolPrefixFor}). */
  readonly prefix: string;
  /** Names the set-aside copy of an unreadable spool; defaults to the system clock. */
  readonly clock?: Clock;
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

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * An {@link OutputSpool} of files `<prefix>-<ms>-<pid>-<random>.out` in one directory. `open`
 * creates the file exclusively and fsyncs the directory before the child starts; the runner hands
 * the descriptor to the child, so the kernel writes the child's bytes even when this process is
 * SIGKILLed. As soon as the child exists the spool is renamed to `…w<child pid>.out`: a later
 * cycle leaves a spool alone while that process group runs (an orphaned poller still printing),
 * and reads it once it has exited. A spool without a writer's pid (its cycle was killed before the
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
  const pattern = new RegExp(`^${escapeRegExp(prefix)}-(\\d+)-(\\d+)-([0-9a-f]+)(?:\\.w(\\d+))?\\.out$`);
  // Spools this process opened, by id → current path (renamed once the child exists).
  const mine = new Map<string, string>();
  const pathOf = (id: string): string => mine.get(id) ?? join(directory, id);
  const ioError =
    (action: string) =>
    (error: unknown): OutputSpoolError => ({
      kind: 'io',
      message: `Could not ${action} output spool in ${directory}: ${describeError(error)}`,
    });

  // Synchronous up to the descriptor: the spool exists (and its directory entry is on disk) in the
  // same tick the scanner asks for it, so the poll starts at once instead of queueing three event
  // loop turns behind every other scanner's spawns (the GChat poll was the cycle's last process to
  // start). The id is registered before the file exists, so a concurrent `leftovers` listing never
  // takes this process's own fresh spool for a killed cycle's.
  const openSpool = (): OpenSpool => {
    const stem = `${prefix}-${clock.now().getTime()}-${process.pid}-${randomBytes(4).toString('hex')}`;
    const id = `${stem}.out`;
    const path = join(directory, id);
    mine.set(id, path);
    let fd: number;
    try {
      mkdirSync(directory, { recursive: true });
      fd = openSync(path, 'wx', 0o600);
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
    let closed = false;
    return {
      id,
      stdout: {
        fd,
        onSpawn: (pid) => {
          const named = join(directory, `${stem}.w${pid}.out`);
          try {
            renameSync(mine.get(id) ?? path, named);
            mine.set(id, named);
          } catch {
            // Unnamed writer: a later cycle reads the spool without waiting for it.
          }
        },
      },
      collect: () =>
        ResultAsync.fromPromise(
          (async () => {
            if (!closed) {
              closed = true;
              try {
                await fsyncAsync(fd);
              } finally {
                await closeAsync(fd);
              }
              await syncDirectory(directory);
            }
            return await readFile(pathOf(id), 'utf8');
          })(),
          ioError('read'),
        ),
    };
  };

  const listLeftovers = async (): Promise<{ spools: LeftoverSpool[]; stillWritten: number }> => {
    let names: string[];
    try {
      names = await readdir(directory);
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return { spools: [], stillWritten: 0 };
      throw error;
    }
    const found = names
      .map((name) => ({ name, match: pattern.exec(name) }))
      .filter(
        // Never this process's own: by its first name or its renamed one (a listing may see either).
        (x): x is { name: string; match: RegExpExecArray } =>
          x.match !== null && ![...mine].some(([id, path]) => id === x.name || basename(path) === x.name),
      )
      .sort((a, b) => Number(a.match[1]) - Number(b.match[1]) || a.name.localeCompare(b.name));
    const spools: LeftoverSpool[] = [];
    let stillWritten = 0;
    for (const { name, match } of found) {
      const writer = match[4] === undefined ? undefined : Number(match[4]);
      const still = writer === undefined ? await heldOpenElsewhere(resolve(directory, name)) : await processGroupAlive(writer);
      if (still) {
        stillWritten += 1;
        continue;
      }
      let text: string;
      try {
        text = await readFile(join(directory, name), 'utf8');
      } catch (error) {
        if (errorCode(error) === 'ENOENT') continue;
        throw error;
      }
      spools.push({ id: name, text });
    }
    return { spools, stillWritten };
  };

  return {
    open: () => {
      try {
        return okAsync(openSpool());
      } catch (error) {
        return errAsync(ioError('create')(error));
      }
    },
    leftovers: () => ResultAsync.fromPromise(listLeftovers(), ioError('list')),
    remove: (id) =>
      ResultAsync.fromPromise(
        (async () => {
          await unlinkQuietly(pathOf(id));
          mine.delete(id);
          await syncDirectory(directory);
        })(),
        ioError('remove'),
      ),
    setAside: (id) =>
      ResultAsync.fromPromise(
        (async () => {
          const from = pathOf(id);
          const aside = `${from}.unreadable-${clock.now().toISOString().replace(/[:.]/g, '-')}`;
          await rename(from, aside);
          mine.delete(id);
          await syncDirectory(dirname(aside));
          return aside;
        })(),
        ioError('set aside'),
      ),
  };
}
