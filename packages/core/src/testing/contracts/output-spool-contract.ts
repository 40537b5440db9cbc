/**
 * The behaviour every {@link OutputSpool} adapter must have: what a child printed into a spool stays
 * until `remove`, whoever dies in between, and a later process finds it among the leftovers once
 * its writer is gone (and not while it still writes).
 */
import type { Clock } from '../../ports/clock.js';
import type { OpenSpool, OutputSpool } from '../../ports/output-spool.js';

/** A process a spool can be handed to: it runs until `stop` resolves. */
export interface SpoolWriter {
  readonly pid: number;
  readonly stop: () => Promise<void>;
}

/** Makes spools on fresh, empty storage, and the other views the contract needs of them. */
export interface OutputSpoolFactory {
  /** A spool on fresh storage; its names and order follow `clock`; it reads up to `maxReadBytes` of a spool (default 4 MiB). */
  readonly makeSpool: (clock: Clock, maxReadBytes?: number) => OutputSpool;
  /** The same storage as another process (a later cycle) sees it, at the time of `clock` if given (with the spool's read cap). */
  readonly reopen: (spool: OutputSpool, clock?: Clock) => OutputSpool;
  /** Prints `text` into an open spool as the child holding its stdout would. */
  readonly write: (spool: OutputSpool, opened: OpenSpool, text: string) => void;
  /** A running process to name as a spool's writer. */
  readonly startWriter: () => Promise<SpoolWriter>;
}

const at = (ms: number): Clock => ({ now: () => new Date(ms) });
const NONE = { spools: [], refused: [], stillWritten: 0 };
/** A spool under the read cap, as read back: all of it. */
const whole = (text: string) => ({ text, size: Buffer.byteLength(text), readBytes: Buffer.byteLength(text) });
const T0 = 1_784_500_980_000;

/** Registers the OutputSpool contract suite under `describe(name)`. */
export async function outputSpoolContract(name: string, factory: OutputSpoolFactory): Promise<void> {
  const { describe, expect, it } = await import('vitest');
  describe(`OutputSpool contract: ${name}`, () => {
    it('a fresh spool has no leftovers', async () => {
      const spool = factory.makeSpool(at(T0));
      expect((await spool.leftovers())._unsafeUnwrap()).toEqual(NONE);
    });

    it('collect reads what the child printed; the spool stays, a leftover for another process only', async () => {
      const spool = factory.makeSpool(at(T0));
      const opened = (await spool.open())._unsafeUnwrap();
      factory.write(spool, opened, '{"replies":');
      factory.write(spool, opened, '[]}');
      expect((await opened.collect())._unsafeUnwrap()).toEqual(whole('{"replies":[]}'));
      expect((await spool.leftovers())._unsafeUnwrap()).toEqual(NONE);
      expect((await factory.reopen(spool).leftovers())._unsafeUnwrap()).toEqual({
        ...NONE,
        spools: [{ id: opened.id, ...whole('{"replies":[]}') }],
      });
    });

    it('what a killed cycle left (never collected) is read by the next one, and gone once removed', async () => {
      const killed = factory.makeSpool(at(T0));
      const opened = (await killed.open())._unsafeUnwrap();
      factory.write(killed, opened, 'printed before the kill');
      const next = factory.reopen(killed);
      const left = (await next.leftovers())._unsafeUnwrap();
      expect(left.spools).toEqual([{ id: opened.id, ...whole('printed before the kill') }]);
      (await next.remove(opened.id))._unsafeUnwrap();
      expect((await factory.reopen(killed).leftovers())._unsafeUnwrap()).toEqual(NONE);
      // Removing twice (a cycle killed after the first remove, before it knew) is not an error.
      (await next.remove(opened.id))._unsafeUnwrap();
    });

    it('a cycle killed before its child started leaves an empty spool, read as empty', async () => {
      const killed = factory.makeSpool(at(T0));
      const opened = (await killed.open())._unsafeUnwrap();
      expect((await factory.reopen(killed).leftovers())._unsafeUnwrap().spools).toEqual([{ id: opened.id, ...whole('') }]);
    });

    it('leaves a spool alone while its writer runs, and reads it once the writer has exited', async () => {
      const killed = factory.makeSpool(at(T0));
      const opened = (await killed.open())._unsafeUnwrap();
      const writer = await factory.startWriter();
      try {
        opened.stdout.onSpawn(writer.pid);
        factory.write(killed, opened, 'half a re');
        expect((await factory.reopen(killed).leftovers())._unsafeUnwrap()).toEqual({ ...NONE, stillWritten: 1 });
        factory.write(killed, opened, 'ply');
      } finally {
        await writer.stop();
      }
      const left = (await factory.reopen(killed).leftovers())._unsafeUnwrap();
      expect(left).toEqual({ ...NONE, spools: [{ id: expect.any(String) as string, ...whole('half a reply') }] });
      // The id a later cycle got is the one it removes by.
      const next = factory.reopen(killed);
      (await next.remove(left.spools[0]?.id ?? ''))._unsafeUnwrap();
      expect((await factory.reopen(killed).leftovers())._unsafeUnwrap().spools).toEqual([]);
    });

    it('lists leftovers oldest first, whichever process opened them', async () => {
      const first = factory.makeSpool(at(T0 + 2000));
      const b = (await first.open())._unsafeUnwrap();
      factory.write(first, b, 'second');
      const a = (await factory.reopen(first, at(T0)).open())._unsafeUnwrap();
      factory.write(first, a, 'first');
      const c = (await factory.reopen(first, at(T0 + 5000)).open())._unsafeUnwrap();
      factory.write(first, c, 'third');
      const texts = (await factory.reopen(first).leftovers())._unsafeUnwrap().spools.map((s) => s.text);
      expect(texts).toEqual(['first', 'second', 'third']);
    });

    it('a set-aside spool gets a new name and is no leftover any more', async () => {
      const killed = factory.makeSpool(at(T0));
      const opened = (await killed.open())._unsafeUnwrap();
      factory.write(killed, opened, 'Traceback (most recent call last):');
      const next = factory.reopen(killed);
      const id = (await next.leftovers())._unsafeUnwrap().spools[0]?.id ?? '';
      const aside = (await next.setAside(id))._unsafeUnwrap();
      expect(aside).not.toBe(id);
      expect(aside).toContain(id);
      expect((await factory.reopen(killed).leftovers())._unsafeUnwrap()).toEqual(NONE);
    });

    it('reads a spool only up to its read cap, in collect and in leftovers, and says how big it is', async () => {
      const spool = factory.makeSpool(at(T0), 8);
      const opened = (await spool.open())._unsafeUnwrap();
      // 'é' is two bytes: the cap counts bytes, never characters.
      factory.write(spool, opened, 'ééé-and-more-beyond');
      const cut = { text: 'ééé-a', size: 22, readBytes: 8 };
      expect((await opened.collect())._unsafeUnwrap()).toEqual(cut);
      expect((await factory.reopen(spool).leftovers())._unsafeUnwrap().spools).toEqual([{ id: opened.id, ...cut }]);
    });

    it('one listing reads about one cap of leftovers in all (never none): the rest come with the next listing', async () => {
      const killed = factory.makeSpool(at(T0), 10);
      const ids: string[] = [];
      for (const [i, text] of ['0123456', '789', 'abcdef', 'ghijklmnopq'].entries()) {
        const opened = (await factory.reopen(killed, at(T0 + i)).open())._unsafeUnwrap();
        factory.write(killed, opened, text);
        ids.push(opened.id);
      }
      const next = factory.reopen(killed);
      const first = (await next.leftovers())._unsafeUnwrap();
      expect(first.spools.map((s) => s.text)).toEqual(['0123456', '789']);
      for (const s of first.spools) (await next.remove(s.id))._unsafeUnwrap();
      const second = (await next.leftovers())._unsafeUnwrap();
      expect(second.spools.map((s) => s.text)).toEqual(['abcdef']);
      (await next.remove(second.spools[0]?.id ?? ''))._unsafeUnwrap();
      // Alone over the cap, it is still read (its first part): a listing always makes progress.
      expect((await next.leftovers())._unsafeUnwrap().spools).toEqual([{ id: ids[3], text: 'ghijklmnop', size: 11, readBytes: 10 }]);
    });
  });
}
