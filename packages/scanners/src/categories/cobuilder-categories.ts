import { defineCategories, type CategoryTable, type Finding } from '@heartbeat-kit/core';
import type { CategoryInfo, TableFindingInput } from '@heartbeat-kit/core/host';

/** The closed set of CoBuilder report categories (reference cobuilder.md §2). */
export const COBUILDER_CATEGORIES = [
  'TMUX_DOWN',
  'ORCH_FAILURE',
  'P0_WORK_READY',
  'P1_WORK_READY',
  'GCHAT_REPLY_RECEIVED',
  'PIPELINE_NODE_FAILED',
  'PIPELINE_FINALIZED',
  'GIT_STALE',
  'STALE_TASK',
  'ORCH_IDLE',
  'PIPELINE_VALIDATION_STALLED',
  'PIPELINE_STALLED',
  'WORK_READY',
] as const;

/** One of the built-in CoBuilder categories. */
export type CoBuilderCategory = (typeof COBUILDER_CATEGORIES)[number];

/**
 * Total table of the CoBuilder categories (spec 000's report table). `satisfies Record<…>` makes a new category fail to
 * compile until it is described here.
 */
export const CATEGORY_INFO = {
  ORCH_FAILURE: {
    priority: 'Immediate',
    outsideActiveHours: true,
    confirmCycles: 1,
    brief: 'Orchestrator crash detected',
    oneShot: false,
    listHeading: false,
    inhibitedBy: ['TMUX_DOWN'],
    critical: true,
  },
  P0_WORK_READY: {
    priority: 'Immediate',
    outsideActiveHours: true,
    confirmCycles: 1,
    brief: 'new P0 work ready',
    oneShot: false,
    listHeading: false,
    inhibitedBy: ['beads'],
  },
  P1_WORK_READY: {
    priority: 'Immediate',
    outsideActiveHours: true,
    confirmCycles: 1,
    brief: 'new P1 work ready',
    oneShot: false,
    listHeading: false,
    inhibitedBy: ['beads'],
  },
  GCHAT_REPLY_RECEIVED: {
    priority: 'Immediate',
    outsideActiveHours: true,
    confirmCycles: 1,
    brief: 'GChat reply received',
    oneShot: true,
    listHeading: true,
    critical: true,
  },
  PIPELINE_NODE_FAILED: {
    priority: 'Immediate',
    outsideActiveHours: false,
    confirmCycles: 1,
    brief: 'pipeline node failed',
    oneShot: false,
    listHeading: false,
  },
  PIPELINE_FINALIZED: {
    priority: 'Immediate',
    outsideActiveHours: false,
    confirmCycles: 1,
    brief: 'pipeline finalized',
    oneShot: true,
    listHeading: false,
  },
  GIT_STALE: {
    priority: 'Advisory',
    outsideActiveHours: false,
    confirmCycles: 1,
    brief: 'stale uncommitted changes',
    oneShot: false,
    listHeading: false,
  },
  STALE_TASK: {
    priority: 'Advisory',
    outsideActiveHours: false,
    confirmCycles: 1,
    brief: 'stale in-progress task',
    oneShot: false,
    listHeading: false,
    inhibitedBy: ['beads'],
  },
  ORCH_IDLE: {
    priority: 'Advisory',
    outsideActiveHours: false,
    confirmCycles: 1,
    brief: 'idle orchestrator',
    oneShot: false,
    listHeading: false,
    inhibitedBy: ['TMUX_DOWN'],
  },
  PIPELINE_VALIDATION_STALLED: {
    priority: 'Advisory',
    outsideActiveHours: false,
    confirmCycles: 1,
    brief: 'pipeline validation stalled',
    oneShot: false,
    listHeading: false,
  },
  PIPELINE_STALLED: {
    priority: 'Advisory',
    outsideActiveHours: false,
    confirmCycles: 2,
    brief: 'pipeline stalled',
    oneShot: false,
    listHeading: false,
  },
  WORK_READY: {
    priority: 'Normal',
    outsideActiveHours: false,
    confirmCycles: 1,
    brief: 'work ready',
    oneShot: false,
    listHeading: false,
    inhibitedBy: ['beads'],
  },
  TMUX_DOWN: {
    priority: 'Immediate',
    outsideActiveHours: true,
    confirmCycles: 1,
    brief: 'tmux server down',
    oneShot: false,
    listHeading: false,
  },
} as const satisfies Record<CoBuilderCategory, CategoryInfo>;

/** True when `name` is one of the built-in CoBuilder categories. */
export function isCoBuilderCategory(name: string): name is CoBuilderCategory {
  return Object.hasOwn(CATEGORY_INFO, name);
}

/**
 * The CoBuilder table as a `CategoryTable`: what the CLI and the fleet hand every cycle (core itself
 * knows no categories). Other categories are allowed with their own priority (one confirm cycle;
 * outside active hours when their scanner runs there).
 */
export const DEFAULT_CATEGORIES: CategoryTable<CoBuilderCategory> = defineCategories(CATEGORY_INFO, { unregistered: 'allow' });

/** Creates a finding of a CoBuilder category, its priority from {@link CATEGORY_INFO} (what the built-in scanners report). */
export function createCoBuilderFinding(input: TableFindingInput<CoBuilderCategory>): Finding {
  return DEFAULT_CATEGORIES.createFinding(input);
}
