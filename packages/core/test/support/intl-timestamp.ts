/**
 * The reference local timestamp (`YYYY-MM-DDTHH:MM:SS`, spec 000) read with `Intl` alone: the
 * hand-written reading core used before its time module, kept here so tests check the module (and
 * the messages that print its timestamps) against an independent implementation.
 */
export function intlTimestamp(instant: Date, zone: string): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
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
