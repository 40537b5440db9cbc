import { heartbeatConfigSchema, runLoop, type CycleDecision } from '@heartbeat-kit/core';
import { createFileStateStore } from '@heartbeat-kit/core/node';
import { createFakeClock, createFakeOperatorActivity, createRecordingSink } from '@heartbeat-kit/core/testing';
import { createQueueDepthScanner, queueCategories } from './queue-depth-scanner.js';

/** Options of {@link watchQueue}. */
export interface WatchQueueOptions {
  /** The state file: the scanner's slice is kept there between cycles and between runs. */
  readonly stateFile: string;
  /** The queue depth the fake source reports at each cycle; the loop runs one cycle per entry. */
  readonly depths: readonly number[];
  /** When the first cycle runs (the fake clock starts here; cycles are 10 minutes apart). */
  readonly start: Date;
  /** Where each cycle's one-line verdict is printed. */
  readonly write: (line: string) => void;
}

/**
 * One run of an embedding program: `runLoop` with the stateful queue scanner, the embedder's
 * category table, a file state store and a fake clock that jumps to each next slot. Stop it and
 * call it again with the same state file: that is a restart.
 */
export async function watchQueue(options: WatchQueueOptions): Promise<readonly CycleDecision[]> {
  const clock = createFakeClock(options.start);
  const config = heartbeatConfigSchema.parse({ intervalMs: 600_000, activeHours: { timeZone: 'UTC' } });
  const stop = new AbortController();
  const decisions: CycleDecision[] = [];
  let cycle = 0;
  const readDepth = (): Promise<number> => Promise.resolve(options.depths[cycle] ?? 0);

  await runLoop(
    {
      clock,
      sleep: clock,
      stateStore: createFileStateStore({ path: options.stateFile, clock }),
      sink: createRecordingSink(),
      scanners: [createQueueDepthScanner({ queue: 'emails', readDepth })],
      operatorActivity: createFakeOperatorActivity(undefined), // unknown = idle: Advisory findings go out
    },
    {
      // The embedder's categories: QUEUE_RISING's priority and outside-hours rule come from here.
      settings: () => ({ config, timeZone: 'UTC', categories: queueCategories }),
      configFound: false,
      signal: stop.signal,
      onCycle: ({ decision, warnings }) => {
        decisions.push(decision);
        const found = [...decision.reportable, ...decision.suppressed.map((s) => s.finding)].map((f) => f.line);
        options.write(
          `${decision.at} depth ${options.depths[cycle]}: ${decision.status}${found.length > 0 ? ` — ${found.join('; ')}` : ''}${warnings.length > 0 ? ` (warnings: ${warnings.join('; ')})` : ''}`,
        );
        cycle++;
        if (cycle >= options.depths.length) stop.abort();
        else
          setImmediate(() => {
            // The loop waits for its next slot on the fake clock: jump there at once.
            const wakeAt = clock.nextWakeAtMs();
            if (wakeAt !== undefined) clock.set(wakeAt);
          });
      },
    },
  );
  return decisions;
}
