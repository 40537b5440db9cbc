import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { ResultAsync } from 'neverthrow';
import { z } from 'zod';
import type { OutboundMessage, Sink, SinkError } from '../ports/sink.js';
import { describeError, errorCode, replaceFileDurably, sweepOrphanedTemps, syncDirectory } from './durable-fs.js';

// Layout of an agent inbox DIR: `<id>.json` waiting, `.claimed/<pid>-<id>.json` being printed by a
// drain, `delivered/<id>.json` printed (the mark). Every move is one rename: a message is always
// in exactly one place, so a crash loses nothing.
const TEMP_TAG = 'inbox-tmp';
const CLAIMED = '.claimed';
const DELIVERED = 'delivered';

/** One message waiting in an agent inbox (or claimed by a drain). */
export interface AgentInboxMessage {
  /** The message id (`OutboundMessage.id`, or a hash of its kind, instant and content). */
  readonly id: string;
  readonly message: OutboundMessage;
}

/** A file in the inbox directory that is not a message: kept in place, named so a person can fix it. */
export interface AgentInboxProblem {
  readonly path: string;
  readonly message: string;
}

/** Why an inbox could not be read or changed; `message` names the path and the fix. */
export interface AgentInboxError {
  readonly kind: 'not-a-directory' | 'io';
  readonly path: string;
  readonly message: string;
}

/** What is waiting, and the files that are not messages. */
export interface AgentInboxListing {
  readonly waiting: readonly AgentInboxMessage[];
  readonly problems: readonly AgentInboxProblem[];
  /** False when the directory does not exist yet: nothing was ever delivered there (or the path is wrong). */
  readonly exists: boolean;
}

/**
 * Messages a drain took out of the waiting set: it prints some, then marks exactly those
 * delivered and releases the rest. A drain killed in between leaves its claims to the next
 * drain, which puts them back (the claimer's pid is gone): re-delivered, never lost.
 */
export interface AgentInboxClaim extends AgentInboxListing {
  readonly markDelivered: (ids: readonly string[]) => ResultAsync<void, AgentInboxError>;
  readonly release: (ids: readonly string[]) => ResultAsync<void, AgentInboxError>;
}

const storedSchema = z.object({
  version: z.literal(1),
  id: z.string().min(1),
  message: z.looseObject({
    kind: z.enum(['online', 'work_found', 'resolved', 'cost_alert', 'shutdown']),
    content: z.string(),
    summary: z.string(),
    at: z.string(),
    cycle: z.number().optional(),
    id: z.string().optional(),
  }),
});

/** The id a message is kept under: its own stable id, else a hash of what it says and when. */
export function agentInboxMessageId(message: OutboundMessage): string {
  if (message.id !== undefined && message.id !== '') return message.id;
  const hash = createHash('sha256').update(`${message.kind}\u0000${message.at}\u0000${message.content}`).digest('hex');
  return `hb-msg-${hash.slice(0, 20)}`;
}

/** The file name of an id: the id itself when it is a safe name, else a hash of it. */
function fileNameOf(id: string): string {
  if (/^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/.test(id)) return `${id}.json`;
  return `h-${createHash('sha256').update(id).digest('hex').slice(0, 32)}.json`;
}

function inboxError(directory: string, error: unknown, doing: string): AgentInboxError {
  const code = errorCode(error);
  if (code === 'ENOTDIR' || code === 'EEXIST')
    return {
      kind: 'not-a-directory',
      path: directory,
      message: `${directory} is not a directory. Fix: point the inbox at a directory (or move that file away)`,
    };
  const fix =
    code === 'EACCES' || code === 'EPERM' || code === 'EROFS'
      ? `make ${directory} and its files writable by this user (e.g. chmod u+rwx ${directory})`
      : `check that ${directory} is a readable, writable directory with space left`;
  return { kind: 'io', path: directory, message: `cannot ${doing} ${directory}: ${describeError(error)}. Fix: ${fix}` };
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return false;
    throw error;
  }
}

async function assertDirectory(directory: string): Promise<boolean> {
  try {
    const info = await stat(directory);
    if (!info.isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
    return true;
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return false;
    throw error;
  }
}

async function readEntry(path: string): Promise<AgentInboxMessage | AgentInboxProblem> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    if (errorCode(error) === 'EISDIR')
      return { path, message: `${path} is a directory, not an inbox message. Fix: move it out of the inbox` };
    if (errorCode(error) !== undefined) throw error;
    return { path, message: `${path} is not JSON, so not an inbox message. Fix: move it out of the inbox (it is left untouched)` };
  }
  const checked = storedSchema.safeParse(parsed);
  if (!checked.success)
    return {
      path,
      message: `${path} is not an inbox message (${checked.error.issues[0]?.path.join('.') || 'top level'}: ${checked.error.issues[0]?.message ?? 'invalid'}). Fix: move it out of the inbox (it is left untouched)`,
    };
  return { id: checked.data.id, message: checked.data.message as unknown as OutboundMessage };
}

function isProblem(entry: AgentInboxMessage | AgentInboxProblem): entry is AgentInboxProblem {
  return 'path' in entry;
}

function byArrival(a: AgentInboxMessage, b: AgentInboxMessage): number {
  return a.message.at === b.message.at ? (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) : a.message.at < b.message.at ? -1 : 1;
}

async function listWaiting(directory: string): Promise<{ files: Map<string, AgentInboxMessage>; problems: AgentInboxProblem[] }> {
  const files = new Map<string, AgentInboxMessage>();
  const problems: AgentInboxProblem[] = [];
  for (const name of (await readdir(directory)).sort()) {
    // Dot files are ours (claims, temps of a write in flight); `delivered` holds the marks.
    if (name.startsWith('.') || name === DELIVERED) continue;
    const path = join(directory, name);
    if (!name.endsWith('.json')) {
      problems.push({
        path,
        message: `${path} is not an inbox message (not NAME.json). Fix: move it out of the inbox (it is left untouched)`,
      });
      continue;
    }
    let entry;
    try {
      entry = await readEntry(path);
    } catch (error) {
      // Taken by a concurrent drain between readdir and read.
      if (errorCode(error) === 'ENOENT') continue;
      throw error;
    }
    if (isProblem(entry)) problems.push(entry);
    else if (fileNameOf(entry.id) !== name)
      problems.push({
        path,
        message: `${path} holds message ${entry.id}, whose file is ${fileNameOf(entry.id)}. Fix: move it out of the inbox`,
      });
    else files.set(name, entry);
  }
  return { files, problems };
}

async function processIsGone(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return errorCode(error) === 'ESRCH';
  }
  // A killed drain nobody reaped yet (a zombie) is gone too; /proc exists on Linux only.
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z';
  } catch {
    return false;
  }
}

/** Puts back the claims of drains that died (killed between print and mark): they are re-delivered. */
async function recoverDeadClaims(directory: string): Promise<void> {
  const claimed = join(directory, CLAIMED);
  let names: string[];
  try {
    names = await readdir(claimed);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return;
    throw error;
  }
  for (const name of names) {
    const dash = name.indexOf('-');
    const pid = Number.parseInt(name.slice(0, dash), 10);
    if (dash <= 0 || !Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid || !(await processIsGone(pid))) continue;
    try {
      await rename(join(claimed, name), join(directory, name.slice(dash + 1)));
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw error;
    }
  }
  await syncDirectory(directory);
}

/** Options of {@link claimAgentInbox}. */
export interface AgentInboxClaimOptions {
  /** How long a delivered mark keeps its id from being written again (default 30 days). */
  readonly keepDeliveredMs?: number;
  /** Now, for the marks' ages (default: the system clock). */
  readonly nowMs?: number;
}

const DEFAULT_KEEP_DELIVERED_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * Removes delivered marks older than `keepMs` (by mtime: the mark's rename keeps the message
 * file's write time, so the age counts from when the message was kept). Best effort: a mark left
 * behind only costs space.
 */
async function pruneDeliveredMarks(deliveredDir: string, nowMs: number, keepMs: number): Promise<void> {
  let names: string[];
  try {
    names = await readdir(deliveredDir);
  } catch {
    return;
  }
  for (const name of names) {
    const path = join(deliveredDir, name);
    try {
      if (nowMs - (await stat(path)).mtimeMs > keepMs) await unlink(path);
    } catch {
      // Housekeeping: the drain works without it.
    }
  }
}

/** What is waiting in `directory`, read only (a missing directory has nothing waiting). */
export function listAgentInbox(directory: string): ResultAsync<AgentInboxListing, AgentInboxError> {
  return ResultAsync.fromPromise(
    (async () => {
      if (!(await assertDirectory(directory))) return { waiting: [], problems: [], exists: false };
      const { files, problems } = await listWaiting(directory);
      return { waiting: [...files.values()].sort(byArrival), problems, exists: true };
    })(),
    (error) => inboxError(directory, error, 'read the inbox'),
  );
}

/**
 * Takes every waiting message of `directory` for this process (one rename each, so two drains
 * never take the same file), after putting back what dead drains had taken. A message whose id
 * is already marked delivered is dropped instead: at most one copy per id reaches the agent.
 */
export function claimAgentInbox(directory: string, options: AgentInboxClaimOptions = {}): ResultAsync<AgentInboxClaim, AgentInboxError> {
  const claimedDir = join(directory, CLAIMED);
  const deliveredDir = join(directory, DELIVERED);
  const claimedName = (id: string): string => `${process.pid}-${fileNameOf(id)}`;
  const move = (ids: readonly string[], to: (id: string) => string, doing: string): ResultAsync<void, AgentInboxError> =>
    ResultAsync.fromPromise(
      (async () => {
        if (ids.length === 0) return;
        await mkdir(deliveredDir, { recursive: true });
        for (const id of ids) await rename(join(claimedDir, claimedName(id)), to(id));
        await syncDirectory(claimedDir);
        await syncDirectory(deliveredDir);
        await syncDirectory(directory);
      })(),
      (error) => inboxError(directory, error, doing),
    );
  return ResultAsync.fromPromise(
    (async () => {
      const empty: AgentInboxClaim = {
        waiting: [],
        problems: [],
        exists: false,
        markDelivered: () => move([], () => '', ''),
        release: () => move([], () => '', ''),
      };
      if (!(await assertDirectory(directory))) return empty;
      await recoverDeadClaims(directory);
      await pruneDeliveredMarks(deliveredDir, options.nowMs ?? Date.now(), options.keepDeliveredMs ?? DEFAULT_KEEP_DELIVERED_MS);
      const { files, problems } = await listWaiting(directory);
      if (files.size > 0) await mkdir(claimedDir, { recursive: true });
      const waiting: AgentInboxMessage[] = [];
      for (const [name, entry] of files) {
        if (await exists(join(deliveredDir, name))) {
          await unlink(join(directory, name)).catch(() => undefined);
          continue;
        }
        try {
          await rename(join(directory, name), join(claimedDir, claimedName(entry.id)));
          waiting.push(entry);
        } catch (error) {
          if (errorCode(error) !== 'ENOENT') throw error;
        }
      }
      if (waiting.length > 0) await syncDirectory(claimedDir);
      return {
        waiting: waiting.sort(byArrival),
        problems,
        exists: true,
        markDelivered: (ids) => move(ids, (id) => join(deliveredDir, fileNameOf(id)), 'mark messages delivered in'),
        release: (ids) => move(ids, (id) => join(directory, fileNameOf(id)), 'put messages back in'),
      };
    })(),
    (error) => inboxError(directory, error, 'drain the inbox'),
  );
}

/** Options of {@link createAgentInboxSink}. */
export interface AgentInboxSinkOptions {
  /** The inbox directory; created when missing. */
  readonly directory: string;
}

/**
 * A {@link Sink} that keeps each message in `directory` as one file named by its id (written
 * durably: synced, renamed into place, directory synced) until `heartbeat-kit inbox drain` prints
 * it to an agent and marks it delivered. The same id delivered again (a retried cycle) is one
 * file; an id already delivered or being drained is not written again.
 *
 * @example
 * ```ts
 * import { createAgentInboxSink } from '@heartbeat-kit/core/node';
 *
 * const sink = createAgentInboxSink({ directory: '.git/heartbeat-kit/inbox' });
 * await sink.deliver({ kind: 'online', content: 'HEARTBEAT_ONLINE', summary: 'online', at: new Date().toISOString() });
 * ```
 */
export function createAgentInboxSink(options: AgentInboxSinkOptions): Sink {
  const { directory } = options;
  const keep = async (message: OutboundMessage): Promise<void> => {
    const id = agentInboxMessageId(message);
    const name = fileNameOf(id);
    await mkdir(directory, { recursive: true });
    if (!(await stat(directory)).isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
    await sweepOrphanedTemps(directory, TEMP_TAG, (target) => target.endsWith('.json'));
    if (await exists(join(directory, DELIVERED, name))) return;
    const claims = await readdir(join(directory, CLAIMED)).catch(() => [] as string[]);
    if (claims.some((claim) => claim.slice(claim.indexOf('-') + 1) === name)) return;
    await replaceFileDurably(join(directory, name), `${JSON.stringify({ version: 1, id, message })}\n`, TEMP_TAG);
  };
  return {
    name: 'inbox',
    deliver: (message) =>
      ResultAsync.fromPromise(keep(message), (error): SinkError => {
        const failed = inboxError(directory, error, 'write a message to');
        const code = errorCode(error);
        return {
          kind: 'delivery-failed',
          message: `Could not deliver to the inbox: ${failed.message}`,
          ...(code === undefined ? {} : { code }),
        };
      }),
  };
}
