import { z } from 'zod';
import { formatTimeOfDay, parseDays, parseTimeOfDay, type Weekday } from '../time/calendar.js';

/**
 * Zod schemas of a time of day and a set of days, shared by active hours and WoterClip's quiet
 * hours. A rejected value is a custom issue whose `params.fix` says what to write instead, so a
 * config loader can name the file, the key and the fix.
 */

/**
 * A window bound: `HH:MM` (`8:30` and `08:30` alike; `24:00` only for an end) or a whole hour,
 * the spec's form, with `fallback` when absent. The output is always `HH:MM`, so two spellings of
 * one time compare equal. The default sits before the transform so the JSON Schema shows it.
 */
export function timeOfDaySchema(which: 'start' | 'end', fallback: string) {
  const maxHour = which === 'end' ? 24 : 23;
  return z
    .union([z.number().int().min(0).max(maxHour), z.string()])
    .default(fallback)
    .transform((value, ctx) => {
      if (typeof value === 'number') return formatTimeOfDay(value * 60);
      const parsed = parseTimeOfDay(value, { allowMidnightEnd: which === 'end' });
      if (parsed.isOk()) return formatTimeOfDay(parsed.value);
      ctx.addIssue({
        code: 'custom',
        input: value,
        message: `"${value.slice(0, 40)}" ${parsed.error.message}`,
        params: { fix: parsed.error.fix },
      });
      return z.NEVER;
    });
}

/**
 * A set of days: `Mon-Fri`, `Sun`, `Mon, Wed, Fri`, or a list of such words. The output is the
 * days Monday first, each once.
 */
export const daysSchema = z.union([z.string(), z.array(z.string()).min(1)]).transform((value, ctx): Weekday[] => {
  const text = typeof value === 'string' ? value : value.join(', ');
  const parsed = parseDays(text);
  if (parsed.isOk()) return parsed.value;
  ctx.addIssue({
    code: 'custom',
    input: value,
    message: `"${text.slice(0, 40)}" ${parsed.error.message}`,
    params: { fix: parsed.error.fix },
  });
  return z.NEVER;
});
