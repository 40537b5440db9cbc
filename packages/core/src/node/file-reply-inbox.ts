import { rename } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ResultAsync } from 'neverthrow';
import { z } from 'zod';
import { addToInbox, inboxEntrySchema, type InboxEntry } from '../inbox/inbox-entries.js';
import type { Clock } from '../ports/clock.js';
import type { ListedInbox, ReplyInbox, ReplyInboxError } from '../ports/reply-inbox.js';
import {
  describeError,
  ensureParentDirectory,
  errorCode,
  sweepOrphanedSiblings,
  syncDirectory,
  uniqueSibling,
  unlinkQuietly,
  writeNewFileSynced,
} from './durable-fs.js';
import { NotRegularFileError, readRegularFile } from './regular-file.js';
import { systemClock } from './system-clock.js';

/** Options of {@link createFileReplyInbox}. */
export interface FileReplyInboxOptions {
  /** The JSON file of the inbox (see {@link inboxPathFor}). */
  readonly path: string;
  /** Names the `.corrupt-<timestamp>` copy of a bad file; defaults to the system clock. */
  readonly clock?: Clock;
}

/**
 * The inbox beside a state file: `state.json` → `state.inbox.json`. Derived from the state path,
 * so the inbox moves wherever the state is kept.
 */
export function inboxPathFor(statePath: string): string {
  return join(dirname(statePath), `${basename(statePath).replace(/\.json$/i, '')}.inbox.json`);
}

const documentSchema = z.object({ version: z.literal(1), entries: z.array(inboxEntrySchema) });
const TEMP_TAG = 'tmp';

/**
 * A {@link ReplyInbox} on one JSON file beside the cycle state. Every change writes a unique temp
 * file, fsyncs it, renames it over the inbox and fsyncs the directory before it returns, so once
 * `add` is ok the findings survive a SIGKILL or power loss, and a crash at any point leaves the
 * previous or the new inbox, never a torn one. A file that does not parse is moved aside to
 * `<path>.corrupt-<timestamp>` with a warning rather than overwritten. One writer at a time: the
 * cycle lock serialises the cycles that use it, and calls within one process run one after another
 * (a timed-out scan may still be adding while its cycle removes).
 *
 * @example
 * ```ts
 * import { createFileReplyInbox, inboxPathFor } from '@heartbeat-kit/core/node';
 *
 * const inbox = createFileReplyInbox({ path: inboxPathFor('.git/heartbeat-kit/state.json') });
 * const listed = await inbox.list(); // replies read by a cycle that died before saving its state
 * if (listed.isOk()) console.log(listed.value.entries.length);
 * ```
 */
export function createFileReplyInbox(options: FileReplyInboxOptions): ReplyInbox {
  const { path } = options;
  const clock = options.clock ?? systemClock;

  // Read-modify-write must not interleave within this process.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(task: () => Promise<T>): Promise<T> => {
    const run = queue.then(task, task);
    queue = run.catch(() => undefined);
    return run;
  };

  const ioError =
    (action: string) =>
    (error: unknown): ReplyInboxError => ({ kind: 'io', message: `Could not ${action} reply inbox ${path}: ${describeError(error)}` });
  return {
    add: (findings, receivedAt) =>
      ResultAsync.fromPromise(
        serial(async () => {
          const current = await readInbox(path, clock);
          const next = addToInbox(current.entries, findings, receivedAt.getTime());
          if (next.added.length > 0) await writeInbox(path, next.entries);
          return { entries: next.entries, warnings: current.warnings };
        }),
        ioError('write'),
      ),
    list: () =>
      ResultAsync.fromPromise(
        serial(() => readInbox(path, clock)),
        ioError('read'),
      ),
    remove: (ids) =>
      ResultAsync.fromPromise(
        serial(async () => {
          const gone = new Set(ids);
          const current = await readInbox(path, clock);
          const kept = current.entries.filter((e) => !gone.has(e.id));
          if (kept.length !== current.entries.length) await writeInbox(path, kept);
        }),
        ioError('update'),
      ),
  };
}

/** Reads the inbox; a file that is not one is set aside with a warning, never overwritten. */
async function readInbox(path: string, clock: Clock): Promise<ListedInbox> {
  let text: string | undefined;
  let reason = 'not JSON';
  try {
    text = await readRegularFile(path);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return { entries: [], warnings: [] };
    // A FIFO, device or link is never read (it could block, or point anywhere): set aside like a damaged file.
    if (!(error instanceof NotRegularFileError) || error.kind === 'directory') throw error;
    reason = `a ${error.kind}, not a regular file`;
  }
  let parsed: z.ZodSafeParseResult<z.infer<typeof documentSchema>> | undefined;
  try {
    parsed = text === undefined ? undefined : documentSchema.safeParse(JSON.parse(text));
    if (parsed?.success === false) reason = `does not match inbox version 1 at ${parsed.error.issues[0]?.path.join('.') || '(root)'}`;
  } catch {
    parsed = undefined;
  }
  if (parsed?.success === true) return { entries: parsed.data.entries, warnings: [] };
  // Never overwrite what could still hold replies: keep it for the operator to read.
  const aside = `${path}.corrupt-${clock.now().toISOString().replace(/[:.]/g, '-')}`;
  try {
    await rename(path, aside);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error;
  }
  return {
    entries: [],
    warnings: [`Reply inbox ${path} was unreadable (${reason}); moved it to ${aside}. Replies in it were not delivered: read them there.`],
  };
}

/** Replaces the inbox durably (temp file, fsync, rename, fsync of the directory); no entries removes it. */
async function writeInbox(path: string, entries: readonly InboxEntry[]): Promise<void> {
  await ensureParentDirectory(path);
  if (entries.length === 0) {
    await unlinkQuietly(path);
    await syncDirectory(dirname(path));
    return;
  }
  await sweepOrphanedSiblings(path, TEMP_TAG);
  const temp = uniqueSibling(path, TEMP_TAG);
  try {
    await writeNewFileSynced(temp, `${JSON.stringify({ version: 1, entries })}\n`);
    await rename(temp, path);
  } catch (error) {
    await unlinkQuietly(temp).catch(() => undefined);
    throw error;
  }
  await syncDirectory(dirname(path));
}
