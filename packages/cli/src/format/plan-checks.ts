import { type CheckSpec, describeCheckEvery, formatDuration, isCheckDue, type PlannedSlot } from '@heartbeat-kit/core/host';

/** What `plan` says about one check: its cadence, whether the next slot runs it, and its next run among the slots. */
export interface PlannedCheck {
  readonly name: string;
  readonly every: string;
  readonly outsideHours: 'run' | 'skip';
  /** When it last ran (from the state), or null: never. */
  readonly lastRun: string | null;
  readonly nextSlot: { readonly at: string; readonly runs: boolean; readonly why: string } | null;
  /** The first planned slot that runs it, or null when none in the window does. */
  readonly nextRun: string | null;
}

function judge(check: CheckSpec, slot: PlannedSlot, lastRunMs: number | undefined, intervalMs: number): { runs: boolean; why: string } {
  if (slot.verdict !== 'runs' && check.outsideHours === 'skip') return { runs: false, why: 'outside active hours (outside-hours: skip)' };
  if (!isCheckDue(check, lastRunMs, Date.parse(slot.at), intervalMs))
    return { runs: false, why: `not due (${describeCheckEvery(check, formatDuration)})` };
  return { runs: true, why: lastRunMs === undefined ? 'never ran' : 'due' };
}

/**
 * Each check against the coming slots, simulated from its last run: a slot that runs it moves its
 * last run there, so `every 3 cycles` runs on every third slot, and a slot outside active hours
 * runs only checks with `outside-hours: run`.
 */
export function planChecks(
  checks: readonly CheckSpec[],
  slots: readonly PlannedSlot[],
  lastRuns: ReadonlyMap<string, number>,
  intervalMs: number,
): PlannedCheck[] {
  return checks.map((check) => {
    const last = lastRuns.get(check.name);
    const first = slots[0];
    const nextSlot = first === undefined ? null : { at: first.at, ...judge(check, first, last, intervalMs) };
    let nextRun: string | null = null;
    for (const slot of slots) {
      if (judge(check, slot, last, intervalMs).runs) {
        nextRun = slot.at;
        break;
      }
    }
    const lastRun = lastRuns.get(check.name);
    return {
      name: check.name,
      every: describeCheckEvery(check, formatDuration),
      outsideHours: check.outsideHours,
      lastRun: lastRun === undefined ? null : new Date(lastRun).toISOString(),
      nextSlot,
      nextRun,
    };
  });
}

/** The text lines of {@link planChecks}. */
export function planCheckLines(planned: readonly PlannedCheck[]): string[] {
  if (planned.length === 0) return [];
  return [
    `Checks (${planned.length}):`,
    ...planned.map(
      (c) =>
        `  ${c.name}: ${c.every}${c.outsideHours === 'run' ? ', outside hours too' : ''}; next slot ${c.nextSlot === null ? 'none' : `${c.nextSlot.runs ? 'runs it' : 'skips it'} (${c.nextSlot.why})`}; next run ${c.nextRun ?? 'not within the plan'}`,
    ),
  ];
}
