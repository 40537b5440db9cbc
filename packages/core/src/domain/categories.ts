/**
 * Priority classes of the report categories (spec 000's report table). Immediate findings are sent even while the
 * operator is busy; Advisory and Normal wait until the operator has been idle for 5 minutes.
 */
export type PriorityClass = 'Immediate' | 'Advisory' | 'Normal';

/**
 * A finding's category: an UPPER_SNAKE name its scanner uses. Core knows none of them; a
 * `CategoryTable` (see `defineCategories`) gives them their rules.
 */
export type FindingCategory = string;

/** Facts the decision needs about a category (one row of a `CategoryTable`). */
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
  /**
   * Kept flowing by a pause with `--except-critical` even when a finding of it is not Immediate
   * (a GChat reply: a person is waiting). Immediate findings are always kept. Absent = false.
   */
  readonly critical?: boolean;
}

/** Rank of each priority class in a report header (Immediate first). */
export const PRIORITY_RANK: Record<PriorityClass, number> = { Immediate: 0, Advisory: 1, Normal: 2 };
