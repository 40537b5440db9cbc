import { activeDays, activeHoursStatus, boundMinutes } from '../active-hours/active-hours.js';
import { formatDays, formatTimeOfDay, WEEKDAY_NAMES } from '../time/calendar.js';
import type { HeartbeatConfig } from '../config/heartbeat-config-schema.js';
import { decidePause } from '../operator/pause-decision.js';
import type { Pause } from '../operator/pause-model.js';

/** How slots are laid out: the loop's interval grid, or the next fire times of a cron expression. */
export type PlanSchedule =
  | { readonly kind: 'interval'; readonly intervalMs: number; readonly offsetMs: number }
  /** `nextAfter(ms)`: the first fire time strictly after `ms`, or undefined when there is none. */
  | { readonly kind: 'cron'; readonly expression: string; readonly nextAfter: (ms: number) => number | undefined };

/** What a companion of the heartbeat (a beat loop, a checklist tick) does at a slot, and why. */
export interface SlotJudgement {
  readonly verdict: string;
  readonly reason: string;
}

/**
 * A companion's judge of each slot, given by the package that owns the companion (its quiet
 * hours, its schedule); the plan shows its verdict beside the cycle's, under the companion's name.
 */
export interface PlanJudge {
  readonly at: (instant: Date) => SlotJudgement;
}

/** A runbook's tick at a slot: whether the checklist tick has work then, and why. */
export interface PlanRunbook {
  readonly at: (instant: Date) => { readonly verdict: 'due' | 'not-due'; readonly reason: string };
}

/** Inputs of {@link planSlots}. */
export interface PlanInput {
  readonly fromMs: number;
  readonly hours: number;
  readonly schedule: PlanSchedule;
  readonly config: HeartbeatConfig;
  /** Resolved IANA zone of the active hours. */
  readonly timeZone: string;
  /** Companions judged at every slot beside the cycle, by name (e.g. `woterclip`). */
  readonly beside?: Readonly<Record<string, PlanJudge>>;
  readonly runbook?: PlanRunbook;
  /** At most this many slots (a guard against `* * * * * *`-style expressions). */
  readonly maxSlots?: number;
  /** The operator's pause, if one is stored: slots inside its window say so. */
  readonly pause?: Pause | undefined;
}

/** What the CoBuilder heartbeat does at a slot. */
export type SlotVerdict = 'runs' | 'critical-only' | 'paused';

/** One coming slot and what happens at it. */
export interface PlannedSlot {
  readonly at: string;
  readonly verdict: SlotVerdict;
  readonly reason: string;
  /** Only with companions ({@link PlanInput.beside}): what each does at this slot, by name. */
  readonly beside?: Readonly<Record<string, SlotJudgement>>;
  /** Only with a runbook: whether its checklist tick is due at this slot. */
  readonly runbook?: { readonly verdict: 'due' | 'not-due'; readonly reason: string };
}

/** The first slot strictly after `ms` on the grid `offset + k·interval` (aligned to the epoch). */
export function nextGridSlot(ms: number, intervalMs: number, offsetMs: number): number {
  const offset = ((offsetMs % intervalMs) + intervalMs) % intervalMs;
  return Math.floor((ms - offset) / intervalMs) * intervalMs + offset + intervalMs;
}

function hhmm(bound: number | string, which: 'start' | 'end'): string {
  const minutes = boundMinutes(bound, which);
  return Number.isNaN(minutes) ? String(bound) : formatTimeOfDay(minutes);
}

/**
 * The coming slots of a project's heartbeat in `[from, from + hours)` and, for each, what the
 * cycle will do (all scanners, or only P0/P1 beads, orchestrator failures and GChat outside active
 * hours or on a weekend) and what each companion does (its own judge, {@link PlanInput.beside}). Pure:
 * the same input always gives the same plan, so `--now` makes it testable.
 */
export function planSlots(input: PlanInput): PlannedSlot[] {
  const endMs = input.fromMs + input.hours * 3_600_000;
  const maxSlots = input.maxSlots ?? 10_000;
  const window = { ...input.config.activeHours, timeZone: input.timeZone };
  const days = window.days === undefined ? '' : ` ${formatDays(window.days)}`;
  const hoursLabel = `${hhmm(window.start, 'start')}–${hhmm(window.end, 'end')}${days} ${input.timeZone}`;
  const activeDayNames = activeDays(window);
  const slots: PlannedSlot[] = [];
  const next = (ms: number): number | undefined =>
    input.schedule.kind === 'interval'
      ? nextGridSlot(ms, input.schedule.intervalMs, input.schedule.offsetMs)
      : input.schedule.nextAfter(ms);
  // The instant itself may be a slot: start just before it.
  let at = next(input.fromMs - 1);
  while (at !== undefined && at < endMs && slots.length < maxSlots) {
    const instant = new Date(at);
    const status = activeHoursStatus(instant, window);
    const day = WEEKDAY_NAMES[status.localWeekday];
    let verdict: SlotVerdict = 'runs';
    let reason = `inside active hours ${hoursLabel}`;
    if (!status.inside) {
      verdict = 'critical-only';
      const offDay = day === undefined || !activeDayNames.includes(day);
      // The spec's Weekend flag keeps its word; a Days list names the day that is not in it.
      const why = !offDay
        ? `outside active hours ${hoursLabel}`
        : window.days === undefined
          ? `weekend (${day ?? '?'})`
          : `${day ?? '?'} is not an active day (${formatDays(window.days)})`;
      reason = `${why}: only P0/P1 beads, orchestrator failures and GChat replies`;
    }
    // The operator's pause comes first: a whole pause skips the slot; a partial one says what it holds back.
    const paused = decidePause(input.pause, at);
    if (paused.kind === 'skip') {
      verdict = 'paused';
      reason = `${paused.line} (resume with 'heartbeat-kit resume')`;
    } else if (paused.kind === 'partial') reason = `${reason}; ${paused.line}`;
    const beside =
      input.beside === undefined
        ? undefined
        : Object.fromEntries(Object.entries(input.beside).map(([name, judge]) => [name, judge.at(instant)]));
    const runbook = input.runbook?.at(instant);
    slots.push({
      at: instant.toISOString(),
      verdict,
      reason,
      ...(beside === undefined ? {} : { beside }),
      ...(runbook === undefined ? {} : { runbook }),
    });
    const following = next(at);
    // A schedule that does not move forward would loop forever.
    at = following !== undefined && following > at ? following : undefined;
  }
  return slots;
}
