/**
 * Priority classes of the report categories (spec 000's report table). Immediate findings are sent even while the
 * operator is busy; Advisory and Normal wait until the operator has been idle for 5 minutes.
 */
export type PriorityClass = 'Immediate' | 'Advisory' | 'Normal';

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
 * A finding's category: a built-in one, or any UPPER_SNAKE name an embedder's own scanner uses
 * (custom categories carry their priority class on the finding).
 */
export type FindingCategory = CoBuilderCategory | (string & Record<never, never>);

/** Facts the decision needs about a built-in category. */
export interface CategoryInfo {
  readonly priority: PriorityClass;
  /** Scanned and reported outside active hours: the critical ones (P0/P1 beads, ORCH_FAILURE; spec 000's exception) plus GChat replies. */
  readonly outsideActiveHours: boolean;
  /** Consecutive cycles a finding must be seen before it is reportable (hysteresis). */
  readonly confirmCycles: number;
  /** Short noun phrase used in the Context Brief. */
  readonly brief: string;
  /**
   * The source reports it only once (the GChat poll script marks a reply answered when it returns
   * it), so an undelivered finding is kept in state and offered again until a delivery succeeds.
   */
  readonly oneShot: boolean;
  /**
   * The report prints `CATEGORY:` once above this category's findings, which are list items
   * (as GCHAT_REPLY_RECEIVED is printed: one heading, a `- Question ID:` item per reply; spec 000). Other block categories carry their heading per finding.
   */
  readonly listHeading: boolean;
  /**
   * Send one `RESOLVED:` line when a delivered finding of this category clears (after its confirm
   * cycles). Absent = on for Immediate (unless one-shot), off for the others.
   */
  readonly recoveryNotice?: boolean;
  /**
   * Sources whose failure this cycle hides the category's findings and holds its recoveries
   * (inhibition): a scanner name (it errored or timed out), a warning code a scanner raised, or a
   * category with a finding this cycle (e.g. `TMUX_DOWN` hides `ORCH_FAILURE`).
   */
  readonly inhibitedBy?: readonly string[];
}

/**
 * Total table of the built-in categories. `satisfies Record<…>` makes a new category fail to
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

/** Rank of each priority class in a report header (Immediate first). */
export const PRIORITY_RANK: Record<PriorityClass, number> = { Immediate: 0, Advisory: 1, Normal: 2 };

/** True when `name` is one of the built-in CoBuilder categories. */
export function isCoBuilderCategory(name: string): name is CoBuilderCategory {
  return Object.hasOwn(CATEGORY_INFO, name);
}

/**
 * Orders categories for a batched header: Immediate, Advisory, Normal, then table order
 * (failures before new work: a batched header reads `ORCH_FAILURE + P1_WORK_READY`, as in spec 000), custom last by name.
 */
export function compareCategories(
  a: { category: FindingCategory; priority: PriorityClass },
  b: { category: FindingCategory; priority: PriorityClass },
): number {
  const byPriority = PRIORITY_RANK[a.priority] - PRIORITY_RANK[b.priority];
  if (byPriority !== 0) return byPriority;
  const ia = COBUILDER_CATEGORIES.indexOf(a.category as CoBuilderCategory);
  const ib = COBUILDER_CATEGORIES.indexOf(b.category as CoBuilderCategory);
  const ra = ia === -1 ? COBUILDER_CATEGORIES.length : ia;
  const rb = ib === -1 ? COBUILDER_CATEGORIES.length : ib;
  if (ra !== rb) return ra - rb;
  return a.category < b.category ? -1 : a.category > b.category ? 1 : 0;
}
