/**
 * Formats an instant as zone-local wall-clock time without offset, as spec 000's examples show
 * (`2026-02-19T14:50:00`).
 */
export function formatLocalTimestamp(instant: Date, timeZone: string): string {
  // UTC in years 1000–9999 is the ISO form's own wall clock: no ICU data loaded for it.
  const year = instant.getUTCFullYear();
  if (timeZone === 'UTC' && year >= 1000 && year <= 9999) return instant.toISOString().slice(0, 19);
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(instant);
  const get = (type: Intl.DateTimeFormatPartTypes): string => parts.find((p) => p.type === type)?.value ?? '00';
  return `${get('year')}-${get('month')}-${get('day')}T${get('hour')}:${get('minute')}:${get('second')}`;
}
