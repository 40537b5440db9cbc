// The old settings-table keys of upstream's HEARTBEAT.md (reference cobuilder.md §5), kept readable so an
// upstream file works unchanged. They are looked up after the section's own keys, under any heading.
import { days, duration, timeOfDay, timeZone, tokens, weekend } from './heartbeat-value-readers.js';
import type { Setter } from './heartbeat-setting-draft.js';

/** Upstream settings-table keys (reference cobuilder.md §5), accepted in any section. */
export const LEGACY_KEYS: Readonly<Record<string, Setter>> = {
  'heartbeat interval': duration('intervalMs', 's', '600'),
  'active hours start': timeOfDay('start'),
  'active start hour': timeOfDay('start'),
  'active hours end': timeOfDay('end'),
  'active end hour': timeOfDay('end'),
  'weekend active': weekend,
  'active days': days,
  timezone: timeZone,
  'stale threshold hours': duration('staleTaskMs', 'h', '4'),
  'idle threshold minutes': duration('orchIdleMs', 'm', '30'),
  'cost alert threshold': tokens('costAlertTokens'),
};
