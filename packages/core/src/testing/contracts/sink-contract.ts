/**
 * The behaviour every {@link Sink} adapter must have. Run it from a `*.test.ts` file with a
 * harness that makes a fresh sink, reads back what its receiver holds, and makes a sink whose
 * receiver cannot be written (a path that is not what it must be, a failing fake).
 */
import type { OutboundMessage, Sink } from '../../ports/sink.js';

/** A fresh sink, what its receiver holds so far, and a sink that cannot deliver. */
export interface SinkHarness {
  readonly makeSink: () => Promise<{ readonly sink: Sink; readonly received: () => Promise<readonly OutboundMessage[]> }>;
  readonly makeBrokenSink: () => Promise<Sink>;
}

const message = (n: number, extra: Partial<OutboundMessage> = {}): OutboundMessage => ({
  kind: 'work_found',
  content: `WORK_FOUND: WORK_READY\n- bead-${n} "line with \\"quotes\\" and ünïcode"`,
  summary: `WORK_READY -- bead-${n}`,
  cycle: n,
  at: `2026-02-19T14:${String(n).padStart(2, '0')}:00.000Z`,
  id: `hb-contract-${n}`,
  ...extra,
});

/** Registers the Sink contract suite under `describe(name)`. */
export async function sinkContract(name: string, harness: SinkHarness): Promise<void> {
  const { describe, expect, it } = await import('vitest');
  describe(`Sink contract: ${name}`, () => {
    it('its name for breaker lines, when it has one, is a lowercase word', async () => {
      const { sink } = await harness.makeSink();
      expect(sink.name ?? 'sink').toMatch(/^[a-z][a-z0-9-]*$/);
    });

    it('a delivered message reaches the receiver whole, id and content intact', async () => {
      const { sink, received } = await harness.makeSink();
      (await sink.deliver(message(1)))._unsafeUnwrap();
      const got = await received();
      expect(got).toHaveLength(1);
      expect(got[0]).toMatchObject({ id: 'hb-contract-1', content: message(1).content, kind: 'work_found', at: message(1).at });
    });

    it('every one of several deliveries, also concurrent ones, arrives', async () => {
      const { sink, received } = await harness.makeSink();
      const results = await Promise.all([1, 2, 3, 4, 5].map((n) => sink.deliver(message(n))));
      for (const result of results) expect(result.isOk()).toBe(true);
      expect(new Set((await received()).map((m) => m.id))).toEqual(new Set([1, 2, 3, 4, 5].map((n) => `hb-contract-${n}`)));
    });

    it('a message without an id is delivered too', async () => {
      const { sink, received } = await harness.makeSink();
      const { id: _id, ...withoutId } = message(7);
      (await sink.deliver(withoutId))._unsafeUnwrap();
      expect((await received()).map((m) => m.content)).toEqual([withoutId.content]);
    });

    it('a receiver it cannot write is a delivery-failed error with a message, never a throw', async () => {
      const sink = await harness.makeBrokenSink();
      const result = await sink.deliver(message(9));
      expect(result.isErr()).toBe(true);
      const error = result._unsafeUnwrapErr();
      expect(error.kind).toBe('delivery-failed');
      expect(error.message.length).toBeGreaterThan(0);
    });
  });
}
