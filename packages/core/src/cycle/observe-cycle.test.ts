import { describe, expect, it } from 'vitest';
import { DEFAULT_HEARTBEAT_CONFIG } from '../config/heartbeat-config-schema.js';
import { scanOk } from '../domain/scan-result.js';
import type { CycleObserver, ObservedValue } from '../ports/cycle-observer.js';
import type { Scanner } from '../ports/scanner.js';
import { createFakeClock, createMemoryStateStore, createRecordingSink } from '../testing/index.js';
import { runCycle } from './run-cycle.js';
import { createFinding } from '../../test/support/cobuilder-categories.js';

interface Step {
  kind: string;
  name: string;
  attributes: Record<string, ObservedValue>;
  failed?: string;
  children: Step[];
}

/** An observer that records the steps as a tree, by the order they ran in (scanners run inside the cycle). */
function recordingObserver(): { observer: CycleObserver; roots: Step[] } {
  const roots: Step[] = [];
  let current: Step | undefined;
  const open =
    (kind: string) =>
    async <T>(name: string, run: (step: { set: (a: Record<string, ObservedValue>) => void; fail: (m: string) => void }) => Promise<T>) => {
      const step: Step = { kind, name, attributes: {}, children: [] };
      (current?.children ?? roots).push(step);
      const parent = current;
      if (kind === 'cycle') current = step;
      try {
        return await run({ set: (a) => Object.assign(step.attributes, a), fail: (m) => (step.failed = m) });
      } finally {
        if (kind === 'cycle') current = parent;
      }
    };
  return {
    roots,
    observer: { cycle: (run) => open('cycle')('cycle', run), scanner: open('scanner'), delivery: open('delivery') },
  };
}

const stale = createFinding({ category: 'GIT_STALE', subject: '/wt', line: 'STALE: /wt', action: 'Commit /wt', short: 'wt stale' });
const git: Scanner = { name: 'git', runsOutsideActiveHours: true, scan: () => Promise.resolve(scanOk('git', { findings: [stale] })) };
const broken: Scanner = {
  name: 'beads',
  runsOutsideActiveHours: true,
  scan: () => Promise.resolve({ scanner: 'beads', status: 'error', error: 'bd: locked', durationMs: 1 }),
};

describe('runCycle with an observer (issue 30 item 2)', () => {
  it('runs the cycle, each scanner and the delivery inside the observer, with the decision as attributes', async () => {
    const clock = createFakeClock(new Date('2026-02-19T10:00:00Z'));
    const { observer, roots } = recordingObserver();
    const outcome = await runCycle(
      { clock, sleep: clock, stateStore: createMemoryStateStore(), sink: createRecordingSink(), scanners: [git, broken], observer },
      { config: DEFAULT_HEARTBEAT_CONFIG, timeZone: 'UTC' },
    );
    expect(outcome.delivery).toBe('delivered');
    expect(roots).toHaveLength(1);
    const cycle = roots[0]!;
    expect(cycle.attributes).toMatchObject({
      'heartbeat.cycle': 1,
      'heartbeat.status': 'report',
      'heartbeat.delivery': 'delivered',
      'heartbeat.findings': 1,
      'heartbeat.categories': ['GIT_STALE'],
    });
    expect(cycle.children.map((c) => `${c.kind} ${c.name}`)).toEqual(['scanner git', 'scanner beads', 'delivery sink']);
    expect(cycle.children[0]!.attributes).toMatchObject({ 'heartbeat.scanner.status': 'ok', 'heartbeat.scanner.findings': 1 });
    expect(cycle.children[1]!.failed).toBe('beads error');
    expect(cycle.children[2]!.attributes).toMatchObject({ 'heartbeat.message.kind': 'work_found' });
  });

  it('without an observer the outcome is the same', async () => {
    const run = async (observer?: CycleObserver) => {
      const clock = createFakeClock(new Date('2026-02-19T10:00:00Z'));
      const deps = { clock, sleep: clock, stateStore: createMemoryStateStore(), sink: createRecordingSink(), scanners: [git] };
      return runCycle(observer === undefined ? deps : { ...deps, observer }, { config: DEFAULT_HEARTBEAT_CONFIG, timeZone: 'UTC' });
    };
    const plain = await run();
    const observed = await run(recordingObserver().observer);
    expect(observed.decision).toEqual(plain.decision);
    expect(observed.delivery).toEqual(plain.delivery);
  });
});
