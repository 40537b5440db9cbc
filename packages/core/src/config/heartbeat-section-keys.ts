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
import { beadsAlert, command, envAllow, expected, orchestratorAlert, prefix } from './heartbeat-scanner-readers.js';
import { CHECK_KEYS } from './heartbeat-check-readers.js';
import { ping, route } from './heartbeat-delivery-readers.js';
import type { Setter } from './heartbeat-setting-draft.js';

/** A section of HEARTBEAT.md; `root` is the text before the first heading and the general headings. */
export type Section =
  | 'root'
  | 'active hours'
  | 'beads'
  | 'orchestrators'
  | 'git'
  | 'stale tasks'
  | 'idle orchestrators'
  | 'heartbeat'
  | 'gchat'
  | 'pipelines'
  | 'environment'
  | 'checks'
  | 'delivery';

/** Normalized heading → section. */
export const SECTION_NAMES: Readonly<Record<string, Section>> = {
  'heartbeat configuration': 'root',
  'heartbeat config': 'root',
  'scan parameters': 'root',
  'active hours': 'active hours',
  beads: 'beads',
  orchestrators: 'orchestrators',
  orchestrator: 'orchestrators',
  git: 'git',
  'stale tasks': 'stale tasks',
  'stale task': 'stale tasks',
  'idle orchestrators': 'idle orchestrators',
  heartbeat: 'heartbeat',
  gchat: 'gchat',
  'google chat': 'gchat',
  pipelines: 'pipelines',
  pipeline: 'pipelines',
  'pipeline status': 'pipelines',
  environment: 'environment',
  checks: 'checks',
  check: 'checks',
  delivery: 'delivery',
  routing: 'delivery',
  routes: 'delivery',
};

const gitAlert = duration('gitStaleMs', 'h', 'uncommitted changes older than 1 hour');

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
  beads: { 'alert if': beadsAlert },
  orchestrators: { expected, 'alert if': orchestratorAlert, prefix },
  git: { 'alert if': gitAlert, threshold: gitAlert },
  'stale tasks': { threshold: duration('staleTaskMs', 'h', '4 hours with no commits') },
  'idle orchestrators': { threshold: duration('orchIdleMs', 'm', '30 minutes with no tool calls') },
  gchat: { 'poll command': command('gchatPollCommand', '["python3", ".claude/scripts/gchat-poll-replies.py"]') },
  pipelines: { 'dashboard command': command('pipelineDashboardCommand', '["python3", "dashboard.py"]') },
  environment: { allow: envAllow },
  checks: CHECK_KEYS,
  delivery: { immediate: route('immediate'), advisory: route('advisory'), normal: route('normal'), default: route('default'), ping },
};
