// HEARTBEAT.md's sections (by every heading they may have) and the keys each section accepts.
import {
  breakerAfter,
  breakerBackoffCap,
  catchUpCap,
  catchUpPolicy,
  days,
  duration,
  repeat,
  timeOfDay,
  timeZone,
  tokens,
  weekend,
} from './heartbeat-value-readers.js';
import { envAllow } from './heartbeat-environment-readers.js';
import { CHECK_KEYS } from './heartbeat-check-readers.js';
import { ping, route } from './heartbeat-delivery-readers.js';
import { LEGACY_KEYS } from './heartbeat-legacy-keys.js';
import type { ConfigSection } from './config-section.js';
import type { Draft, SectionDraft, Setter } from './heartbeat-setting-draft.js';

/** A section of HEARTBEAT.md; `root` is the text before the first heading and the general headings. */
export type Section = 'root' | 'active hours' | 'heartbeat' | 'environment' | 'checks' | 'delivery';

/** Normalized heading → section. */
export const SECTION_NAMES: Readonly<Record<string, Section>> = {
  'heartbeat configuration': 'root',
  'heartbeat config': 'root',
  'scan parameters': 'root',
  'active hours': 'active hours',
  heartbeat: 'heartbeat',
  environment: 'environment',
  checks: 'checks',
  check: 'checks',
  delivery: 'delivery',
  routing: 'delivery',
  routes: 'delivery',
};

const HEARTBEAT_KEYS: Readonly<Record<string, Setter>> = {
  interval: duration('intervalMs', 's', '600 seconds or 10 minutes', 'value'),
  'catch up': catchUpPolicy,
  'catch up cap': catchUpCap,
  'breaker after': breakerAfter,
  'breaker back off cap': breakerBackoffCap,
  'dedup window': duration('dedupWindowMs', 'm', '30 minutes', 'value'),
  repeat: repeat('all'),
  'repeat immediate': repeat('immediate'),
  'repeat advisory': repeat('advisory'),
  'repeat normal': repeat('normal'),
  'operator idle': duration('operatorIdleMs', 'm', '5 minutes', 'value'),
  'cost alert': tokens('costAlertTokens'),
  'actionable budget': tokens('actionableBudgetTokens'),
  'message budget': tokens('actionableBudgetTokens'),
  timezone: timeZone,
  'time zone': timeZone,
};

/** Section → normalized key → setter. */
export const SECTION_KEYS: Readonly<Record<Section, Readonly<Record<string, Setter>>>> = {
  root: HEARTBEAT_KEYS,
  heartbeat: HEARTBEAT_KEYS,
  'active hours': {
    start: timeOfDay('start'),
    end: timeOfDay('end'),
    weekend,
    days,
    'active days': days,
    timezone: timeZone,
    'time zone': timeZone,
  },
  environment: { allow: envAllow },
  checks: CHECK_KEYS,
  delivery: { immediate: route('immediate'), advisory: route('advisory'), normal: route('normal'), default: route('default'), ping },
};

/** A setter of core's or of a section's: it writes into the whole draft. */
export type AnySetter = Setter<Draft & SectionDraft>;

/** What the markdown reader looks up: headings, each section's keys and the keys read under any heading. */
export interface MarkdownKeys {
  /** Normalized heading → section id. */
  readonly names: Readonly<Record<string, string>>;
  /** Section id → normalized key → setter. */
  readonly keys: Readonly<Record<string, Readonly<Record<string, AnySetter>>>>;
  /** Upstream settings-table keys, accepted in any section. */
  readonly legacy: Readonly<Record<string, AnySetter>>;
}

const CORE_KEYS: MarkdownKeys = { names: SECTION_NAMES, keys: SECTION_KEYS, legacy: LEGACY_KEYS };
const keysBySections = new WeakMap<readonly ConfigSection[], MarkdownKeys>();

/** Core's headings and keys plus those of the host's config sections (a section may add keys to a core section). */
export function markdownKeysFor(sections: readonly ConfigSection[]): MarkdownKeys {
  if (sections.length === 0) return CORE_KEYS;
  const cached = keysBySections.get(sections);
  if (cached !== undefined) return cached;
  const names: Record<string, string> = { ...SECTION_NAMES };
  const keys: Record<string, Record<string, AnySetter>> = { ...SECTION_KEYS };
  const legacy: Record<string, AnySetter> = { ...LEGACY_KEYS };
  for (const section of sections) {
    Object.assign(names, section.headings);
    for (const [id, setters] of Object.entries(section.keys ?? {})) keys[id] = { ...keys[id], ...setters };
    Object.assign(legacy, section.legacyKeys);
  }
  const table = { names, keys, legacy };
  keysBySections.set(sections, table);
  return table;
}
