// The old settings-table keys of upstream's HEARTBEAT.md (reference cobuilder.md §5), kept readable so an
// upstream file works unchanged. They are looked up after the section's own keys, under any heading.
import { days, duration, timeOfDay, timeZone, tokens, weekend } from './heartbeat-value-readers.js';
import type { Setter } from './heartbeat-setting-draft.js';

/**
 * Upstream settings-table keys (reference cobuilder.md §5), accepted in any section. Their durations
 * are settings, read as strictly as Interval: a bare number in the unit the key names, or a duration.
 */
export const LEGACY_KEYS: Readonly<Record<string, Setter>> = {
  'heartbeat interval': duration('intervalMs', 's', '600 (seconds) or 10 minutes', 'value'),
  'active hours start': timeOfDay('start'),
  'active start hour': timeOfDay('start'),
  'active hours end': timeOfDay('end'),
  'active end hour': timeOfDay('end'),
  'weekend active': weekend,
  'active days': days,
  timezone: timeZone,
  'cost alert threshold': tokens('costAlertTokens'),
};
