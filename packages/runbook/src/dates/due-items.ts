import { calendarDateIn, formatMonthDay, isBareDue, isDeletePast, type CalendarDate } from './date-tokens.js';
import type { Runbook, RunbookItem } from '../model/runbook.js';

/** Why the gate sees an item as due. */
export type DueReason = 'check-today' | 'delete-past';

/** A tracked item that is due, with the token that made it so. */
export interface DueItem {
  readonly item: RunbookItem;
  readonly reason: DueReason;
  /** The `MM-DD` that fired. */
  readonly token: string;
}

/**
 * Tracked items due on the calendar day of `now` in `timeZone`: a bare `MM-DD` equal to today, or a
 * `DELETE MM-DD` on or before today (nearest-year rule). Full dates and past bare dates never fire.
 */
export function dueItems(runbook: Runbook, now: Date, timeZone: string): readonly DueItem[] {
  return dueItemsOn(runbook, calendarDateIn(now, timeZone));
}

/** {@link dueItems} for an already-resolved calendar day. */
export function dueItemsOn(runbook: Runbook, today: CalendarDate): readonly DueItem[] {
  const due: DueItem[] = [];
  for (const item of runbook.trackedItems) {
    const del = item.tokens.deletes.find((d) => isDeletePast(d, today));
    if (del !== undefined) {
      due.push({ item, reason: 'delete-past', token: formatMonthDay(del) });
      continue;
    }
    const bare = item.tokens.bare.find((b) => isBareDue(b, today));
    if (bare !== undefined) due.push({ item, reason: 'check-today', token: formatMonthDay(bare) });
  }
  return due;
}
