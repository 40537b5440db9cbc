import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns/format';
import { isKnownZone } from './wall-clock.js';

/**
 * Formats an instant as zone-local wall-clock time without offset, the form the report
 * messages print (`2026-02-19T14:50:00`, as in spec 000's examples). Throws RangeError for an invalid Date or a zone `Intl` rejects, as
 * `Intl.DateTimeFormat` does: zones are validated where they are read (`resolveTimeZone`).
 */
export function formatLocalTimestamp(instant: Date, timeZone: string): string {
  // UTC in years 1000–9999 is the ISO form's own wall clock: no ICU data loaded for it.
  const year = instant.getUTCFullYear();
  if (timeZone === 'UTC' && year >= 1000 && year <= 9999) return instant.toISOString().slice(0, 19);
  if (!isKnownZone(timeZone)) throw new RangeError(`Invalid time zone specified: ${timeZone}`);
  // `y` is the year of the era, unpadded, as Intl's `numeric` year prints it (999, 44 for 44 BC).
  return format(new TZDate(instant.getTime(), timeZone), "y-MM-dd'T'HH:mm:ss");
}
