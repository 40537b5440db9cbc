import { okAsync, errAsync } from 'neverthrow';
import type { Clock } from '../ports/clock.js';
import type { LeftoverSpool, OpenSpool, OutputSpool, SpoolText } from '../ports/output-spool.js';

/** Options of {@link createMemoryOutputSpool}. */
export interface MemoryOutputSpoolOptions {
  /** Orders the spools (oldest first) and names set-aside copies; defaults to a clock at the epoch. */
  readonly clock?: Clock;
  /** Whether the process a spool was handed to still runs (default: none does). */
  readonly writerAlive?: (pid: number) => boolean;
  /** How much of one spool is read, in UTF-8 bytes (default 4 MiB, as the file adapter). */
  readonly maxReadBytes?: number;
}

/** `text` as the file adapter reads it back: its first `max` UTF-8 bytes, and its whole size. */
function capped(text: string, max: number): SpoolText {
  const bytes = new TextEncoder().encode(text);
  if (bytes.length <= max) return { text, size: bytes.length, readBytes: bytes.length };
  return { text: new TextDecoder().decode(bytes.subarray(0, max)), size: bytes.length, readBytes: max };
}

/**
 * An in-memory {@link OutputSpool} that a test writes into as the child would, and opens again as
 * another process would see it. Its `stdout.fd` is -1: no real child can write into it.
 */
export interface MemoryOutputSpool extends OutputSpool {
  /** Appends `text` to spool `id`, as the child holding its descriptor would print it. */
  readonly write: (id: string, text: string) => void;
  /** The same spools seen from another process (at `clock`'s time if given): this one's open spools are leftovers there. */
  readonly reopen: (clock?: Clock) => MemoryOutputSpool;
  /** Every spool held now (set-aside ones included), by name. */
  readonly files: () => ReadonlyMap<string, string>;
}

interface StoredSpool {
  text: string;
  readonly openedAtMs: number;
  writer?: number;
  aside: boolean;
}

/**
 * An in-memory output spool with the file adapter's semantics: a spool stays until `remove`, is a
 * leftover for every other process once its writer has exited (or never started), and a set-aside
 * one is listed no more.
 *
 * @example
 * ```ts
 * import { createMemoryOutputSpool } from '@heartbeat-kit/core/testing';
 *
 * const spool = createMemoryOutputSpool();
 * const opened = (await spool.open())._unsafeUnwrap();
 * spool.write(opened.id, '{"replies":[]}'); // what the poller printed before its cycle was killed
 * const left = (await spool.reopen().leftovers())._unsafeUnwrap();
 * console.log(left.spools[0]?.text, left.spools[0]?.size); // '{"replies":[]}' 14
 * ```
 */
export function createMemoryOutputSpool(options: MemoryOutputSpoolOptions = {}): MemoryOutputSpool {
  return view(new Map(), { counter: 0 }, options);
}

function view(store: Map<string, StoredSpool>, names: { counter: number }, options: MemoryOutputSpoolOptions): MemoryOutputSpool {
  const clock = options.clock ?? { now: () => new Date(0) };
  const writerAlive = options.writerAlive ?? (() => false);
  const maxReadBytes = options.maxReadBytes ?? 4 * 1024 * 1024;
  const mine = new Set<string>();
  const missing = (id: string) => errAsync({ kind: 'io' as const, message: `Could not find output spool ${id} (memory)` });

  const spool: MemoryOutputSpool = {
    open: () => {
      names.counter += 1;
      const openedAtMs = clock.now().getTime();
      const id = `spool-${openedAtMs}-${names.counter}.out`;
      store.set(id, { text: '', openedAtMs, aside: false });
      mine.add(id);
      const opened: OpenSpool = {
        id,
        stdout: {
          fd: -1,
          onSpawn: (pid) => {
            const stored = store.get(id);
            if (stored !== undefined) stored.writer = pid;
          },
        },
        collect: () => {
          const stored = store.get(id);
          return stored === undefined ? missing(id) : okAsync(capped(stored.text, maxReadBytes));
        },
      };
      return okAsync(opened);
    },
    leftovers: () => {
      const spools: LeftoverSpool[] = [];
      let stillWritten = 0;
      const candidates = [...store.entries()]
        .filter(([id, s]) => !s.aside && !mine.has(id))
        .sort(([a, x], [b, y]) => x.openedAtMs - y.openedAtMs || a.localeCompare(b));
      let readInAll = 0;
      for (const [id, stored] of candidates) {
        if (stored.writer !== undefined && writerAlive(stored.writer)) {
          stillWritten += 1;
          continue;
        }
        const read = capped(stored.text, maxReadBytes);
        // About one cap's worth per listing, at least one spool, as the file adapter.
        if (spools.length > 0 && readInAll + read.readBytes > maxReadBytes) break;
        spools.push({ id, ...read });
        readInAll += read.readBytes;
      }
      return okAsync({ spools, refused: [], stillWritten });
    },
    remove: (id) => {
      store.delete(id);
      mine.delete(id);
      return okAsync(undefined);
    },
    setAside: (id) => {
      const stored = store.get(id);
      if (stored === undefined || stored.aside) return missing(id);
      const aside = `${id}.unreadable-${clock.now().toISOString().replace(/[:.]/g, '-')}`;
      store.delete(id);
      store.set(aside, { ...stored, aside: true });
      mine.delete(id);
      return okAsync(aside);
    },
    write: (id, text) => {
      const stored = store.get(id);
      if (stored === undefined) throw new Error(`no output spool ${id}`);
      stored.text += text;
    },
    reopen: (other) => view(store, names, other === undefined ? options : { ...options, clock: other }),
    files: () => new Map([...store.entries()].map(([id, s]) => [id, s.text])),
  };
  return spool;
}
