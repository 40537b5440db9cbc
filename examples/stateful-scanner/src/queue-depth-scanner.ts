import { defineCategories, defineStatefulScanner, scanOk, type Scanner } from '@heartbeat-kit/core';
import { z } from 'zod';

/**
 * The embedder's own category table. The scanner's slice already counts the rising cycles, so the
 * cycle's hysteresis stays at one confirm cycle (three here would wait three more cycles on top).
 * Advisory: it waits for an idle operator; reported outside active hours too, since a queue does
 * not keep office hours.
 */
export const queueCategories = defineCategories({
  QUEUE_RISING: { priority: 'Advisory', outsideActiveHours: true, confirmCycles: 1, brief: 'queue depth rising' },
});

/** Options of {@link createQueueDepthScanner}. */
export interface QueueDepthScannerOptions {
  /** The queue's name: the finding's subject, so its fingerprint. */
  readonly queue: string;
  /** Reads the queue's depth now (a broker's API, a metrics endpoint; a fake in the test). */
  readonly readDepth: () => Promise<number>;
  /** Consecutive rising cycles before the finding (default 3). */
  readonly risingCycles?: number;
}

/** What the scanner remembers between cycles: the last depth it saw and how many cycles in a row it rose. */
const sliceSchema = z.object({ lastDepth: z.number().int().nonnegative().nullable(), rising: z.number().int().nonnegative() });
type QueueSlice = z.infer<typeof sliceSchema>;

/**
 * "Queue depth rising for 3 cycles": a transition no single reading shows. The memory lives in the
 * scanner's own slice of the heartbeat state (declared with its schema and version, validated on
 * load, bounded), so it survives a restart with the state file, and the engine knows nothing of it.
 */
export function createQueueDepthScanner(options: QueueDepthScannerOptions): Scanner {
  const needed = options.risingCycles ?? 3;
  const name = `queue-depth:${options.queue}`;
  return defineStatefulScanner<QueueSlice>({
    name,
    runsOutsideActiveHours: true,
    slice: { version: 1, schema: sliceSchema, initial: () => ({ lastDepth: null, rising: 0 }), maxBytes: 1024 },
    scan: async (_context, previous) => {
      let depth: number;
      try {
        depth = await options.readDepth();
      } catch (error) {
        // A scanner never rejects; an error result keeps the previous slice for the next cycle.
        return { result: { scanner: name, status: 'error', error: (error as Error).message, durationMs: 0 } };
      }
      if (!Number.isSafeInteger(depth) || depth < 0) {
        return { result: { scanner: name, status: 'error', error: `queue depth ${String(depth)} is not a count`, durationMs: 0 } };
      }
      const rising = previous.lastDepth !== null && depth > previous.lastDepth ? previous.rising + 1 : 0;
      const next: QueueSlice = { lastDepth: depth, rising };
      if (rising < needed) return { result: scanOk(name, {}), next };
      const finding = queueCategories.createFinding({
        category: 'QUEUE_RISING',
        subject: options.queue,
        line: `QUEUE RISING: ${options.queue} at ${depth} jobs, up ${rising} cycles in a row`,
        action: `Add a worker to ${options.queue} or find what stopped it draining`,
        short: `${options.queue} rising (${depth})`,
        details: { depth, rising },
        // A deeper queue every cycle is the same situation, not news: repeats follow the dedup window.
        content: { queue: options.queue },
      });
      return { result: scanOk(name, { findings: [finding] }), next };
    },
  });
}
