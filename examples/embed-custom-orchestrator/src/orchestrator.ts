import { writeFile } from 'node:fs/promises';
import { heartbeatConfigSchema, runLoop, type CycleDecision } from '@heartbeat-kit/core';
import { createFakeClock, createFakeOperatorActivity, createMemoryStateStore } from '@heartbeat-kit/core/testing';
import { createSummarySink, type SummarySink } from './console-sink.js';
import { createQueueScanner } from './queue-scanner.js';

/** Options of {@link runOrchestrator}. */
export interface OrchestratorOptions {
  /** The queue file the custom scanner reads. */
  readonly queueFile: string;
  /** Queue length before each cycle; the loop runs one cycle per entry. */
  readonly queueLengths: readonly number[];
  /** Where decisions and delivered messages are printed. */
  readonly write: (line: string) => void;
}

/** What the run decided, cycle by cycle, and every message the sink received. */
export interface OrchestratorRun {
  readonly decisions: readonly CycleDecision[];
  readonly sink: SummarySink;
}

/**
 * A custom orchestrator embedding the heartbeat loop. Every port is the embedder's choice:
 * a fake clock (and its sleep) instead of the system clock and timers,
 * an in-memory state store instead of a file, operator activity from its own chat, its own
 * scanner and its own sink. The loop, dedup, batching and hysteresis are the kit's.
 */
export async function runOrchestrator(options: OrchestratorOptions): Promise<OrchestratorRun> {
  const clock = createFakeClock(new Date('2026-02-19T10:00:00Z')); // a Thursday, inside 08–22 UTC
  const sink = createSummarySink(options.write);
  const config = heartbeatConfigSchema.parse({ intervalMs: 600_000, dedupWindowMs: 1_800_000, activeHours: { timeZone: 'UTC' } });
  const stop = new AbortController();
  const decisions: CycleDecision[] = [];

  const writeQueue = async (index: number): Promise<void> => {
    const length = options.queueLengths[index];
    if (length !== undefined) await writeFile(options.queueFile, `${length}\n`);
  };
  await writeQueue(0);

  await runLoop(
    {
      clock,
      sleep: clock, // the fake clock's sleep waits until the clock is moved past its deadline
      stateStore: createMemoryStateStore(),
      sink,
      scanners: [createQueueScanner({ file: options.queueFile, threshold: 10 })],
      operatorActivity: createFakeOperatorActivity(undefined), // unknown = idle: Advisory findings go out
    },
    {
      settings: () => ({ config, timeZone: 'UTC' }),
      configFound: false,
      signal: stop.signal,
      onCycle: async ({ decision }) => {
        decisions.push(decision);
        const suppressed = decision.suppressed.map((s) => `${s.finding.fingerprint} (${s.reason})`).join(', ');
        options.write(
          `cycle ${decision.cycle} at ${decision.at}: ${decision.status}${decision.categories.length > 0 ? ` ${decision.categories.join(' + ')}` : ''}${suppressed === '' ? '' : `; suppressed ${suppressed}`}`,
        );
        if (decisions.length >= options.queueLengths.length) stop.abort();
        else {
          await writeQueue(decisions.length);
          // The loop starts its wait right after this callback; one macrotask later, jump the
          // fake clock to the end of that wait. Ten minutes of heartbeat take no time at all.
          setImmediate(() => {
            const wakeAt = clock.nextWakeAtMs();
            if (wakeAt !== undefined) clock.set(wakeAt);
          });
        }
      },
    },
  );
  return { decisions, sink };
}
