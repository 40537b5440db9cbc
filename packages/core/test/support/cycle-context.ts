/**
 * The cycle context the decision tests share (core's and, by relative path, the scanners' tests that
 * run evaluateCycle): one place for the defaults, so a new CycleContext field is added once.
 */
import { DEFAULT_HEARTBEAT_CONFIG } from '../../src/config/heartbeat-config-schema.js';
import type { CycleContext } from '../../src/cycle/evaluate-cycle.js';
import { DEFAULT_CATEGORIES } from './cobuilder-categories.js';

/**
 * A cycle context at `now`: default config, UTC, inside active hours, operator activity unknown, the
 * CoBuilder categories (what these tests were written against); `overrides` win.
 */
export function cycleContext(now: Date | string | number, overrides: Partial<CycleContext> = {}): CycleContext {
  return {
    now: new Date(now),
    config: DEFAULT_HEARTBEAT_CONFIG,
    timeZone: 'UTC',
    insideActiveHours: true,
    operatorLastActiveAt: undefined,
    categories: DEFAULT_CATEGORIES,
    ...overrides,
  };
}
