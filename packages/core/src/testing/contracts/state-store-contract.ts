/**
 * The behaviour every {@link StateStore} adapter must have. Run it from a `*.test.ts` file with a
 * factory that returns a fresh, empty store on each call:
 * `stateStoreContract('file', () => createFileStateStore({ path: freshPath() }))`.
 */
import type { JsonValue } from '../../domain/json.js';
import type { StateStore } from '../../ports/state-store.js';

/** Makes a fresh, empty store for one test. */
export type StateStoreFactory = () => StateStore | Promise<StateStore>;

const roundTrip = (value: JsonValue): JsonValue => JSON.parse(JSON.stringify(value)) as JsonValue;

/** Registers the StateStore contract suite under `describe(name)`. */
export async function stateStoreContract(name: string, makeStore: StateStoreFactory): Promise<void> {
  const { describe, expect, it } = await import('vitest');
  const { default: fc } = await import('fast-check');
  describe(`StateStore contract: ${name}`, () => {
    it('a fresh store loads no document and no warnings', async () => {
      const store = await makeStore();
      const loaded = (await store.load())._unsafeUnwrap();
      expect(loaded.document).toBeUndefined();
      expect(loaded.warnings).toEqual([]);
    });

    it('loads what was saved', async () => {
      const store = await makeStore();
      const document: JsonValue = {
        version: 1,
        cycle: 42,
        reported: { 'bead:hb-1': 1_784_500_980_000 },
        panes: ['a', 'b'],
        ok: true,
        none: null,
      };
      (await store.save(document))._unsafeUnwrap();
      expect((await store.load())._unsafeUnwrap()).toEqual({ document, warnings: [] });
    });

    it('the last save wins', async () => {
      const store = await makeStore();
      for (let cycle = 1; cycle <= 5; cycle += 1) (await store.save({ cycle }))._unsafeUnwrap();
      expect((await store.load())._unsafeUnwrap().document).toEqual({ cycle: 5 });
    });

    it('round-trips arbitrary JSON documents, unicode included', async () => {
      const store = await makeStore();
      await fc.assert(
        fc.asyncProperty(fc.jsonValue({ maxDepth: 3 }), async (value) => {
          const document = roundTrip(value as JsonValue);
          (await store.save(document))._unsafeUnwrap();
          expect((await store.load())._unsafeUnwrap().document).toEqual(document);
        }),
        { numRuns: 40 },
      );
      const text: JsonValue = { title: 'naïve ☃ 𝄞 "quoted" \\ \n new line', emoji: '🫀' };
      (await store.save(text))._unsafeUnwrap();
      expect((await store.load())._unsafeUnwrap().document).toEqual(text);
    });

    it('keeps its own copy: mutating a saved or loaded object changes nothing stored', async () => {
      const store = await makeStore();
      const document = { list: [1, 2, 3] };
      (await store.save(document))._unsafeUnwrap();
      document.list.push(4);
      const loaded = (await store.load())._unsafeUnwrap().document as { list: number[] };
      expect(loaded).toEqual({ list: [1, 2, 3] });
      loaded.list.push(5);
      expect((await store.load())._unsafeUnwrap().document).toEqual({ list: [1, 2, 3] });
    });

    it('accepts a fence option on save', async () => {
      const store = await makeStore();
      (await store.save({ fenced: true }, { fence: 7 }))._unsafeUnwrap();
      expect((await store.load())._unsafeUnwrap().document).toEqual({ fenced: true });
    });

    it('setAside (when offered) keeps the stored document in place until the next save', async () => {
      const store = await makeStore();
      if (store.setAside === undefined) return;
      const document: JsonValue = { version: 1, cycle: 'not a number' };
      (await store.save(document))._unsafeUnwrap();
      const where = (await store.setAside('cycle: expected number'))._unsafeUnwrap();
      expect(where).not.toBe('');
      expect((await store.load())._unsafeUnwrap().document).toEqual(document);
      (await store.save({ version: 1, cycle: 1 }))._unsafeUnwrap();
      expect((await store.load())._unsafeUnwrap().document).toEqual({ version: 1, cycle: 1 });
    });

    it('concurrent saves leave one whole document, never a mix', async () => {
      const store = await makeStore();
      const documents = Array.from({ length: 8 }, (_, writer) => ({ writer, payload: String(writer).repeat(2000) }));
      const results = await Promise.all(documents.map((document) => store.save(document)));
      for (const result of results) expect(result.isOk()).toBe(true);
      const loaded = (await store.load())._unsafeUnwrap().document;
      expect(documents).toContainEqual(loaded);
    });
  });
}
