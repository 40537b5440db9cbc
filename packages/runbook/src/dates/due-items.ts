import { calendarDateIn, daysFromToday, formatMonthDay, isBareDue, isDeletePast, type CalendarDate, type MonthDay } from './date-tokens.js';
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

/** Why an item is at or past its date: due as the gate sees it, or a check date that went by. */
export type DatedReason = DueReason | 'check-past';

/** A tracked item at or past its date. */
export interface DatedItem {
  readonly item: RunbookItem;
  readonly reason: DatedReason;
  /** The `MM-DD` that fired (for `check-past`: the item's latest check date). */
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
    const d = dueReasonOf(item, today);
    if (d !== undefined) due.push({ item, ...d });
  }
  return due;
}

function dueReasonOf(item: RunbookItem, today: CalendarDate): { reason: DueReason; token: string } | undefined {
  const del = item.tokens.deletes.find((d) => isDeletePast(d, today));
  if (del !== undefined) return { reason: 'delete-past', token: formatMonthDay(del) };
  const bare = item.tokens.bare.find((b) => isBareDue(b, today));
  if (bare !== undefined) return { reason: 'check-today', token: formatMonthDay(bare) };
  return undefined;
}

/** The check dates of an item: its bare tokens that are not the date of a `DELETE` marker. */
export function checkDates(item: RunbookItem): readonly MonthDay[] {
  return item.tokens.bare.filter((b) => !item.tokens.deletes.some((d) => d.month === b.month && d.day === b.day));
}

/**
 * Tracked items at or past their date, for the quiet check that runs before anything else (spec 003,
 * step 0): everything
 * {@link dueItems} returns, plus items whose check dates all lie before today — `(check 10-15)`
 * read on 10-20. The gate cannot see those, so the quiet check must: otherwise a missed check
 * date lets every later tick answer "Quiet" and the item is never pruned. An item with a later
 * check date still ahead is live (same rule as the prune plan's `check-date-past`).
 */
export function itemsAtOrPastDate(runbook: Runbook, now: Date, timeZone: string): readonly DatedItem[] {
  return itemsAtOrPastDateOn(runbook, calendarDateIn(now, timeZone));
}

/** {@link itemsAtOrPastDate} for an already-resolved calendar day. */
export function itemsAtOrPastDateOn(runbook: Runbook, today: CalendarDate): readonly DatedItem[] {
  const out: DatedItem[] = [];
  for (const item of runbook.trackedItems) {
    const due = dueReasonOf(item, today);
    if (due !== undefined) {
      out.push({ item, ...due });
      continue;
    }
    const checks = checkDates(item);
    if (checks.length === 0) continue;
    const offsets = checks.map((c) => ({ c, days: daysFromToday(c, today) }));
    const latest = offsets.reduce((a, b) => (b.days > a.days ? b : a));
    if (latest.days < 0) out.push({ item, reason: 'check-past', token: formatMonthDay(latest.c) });
  }
  return out;
}
