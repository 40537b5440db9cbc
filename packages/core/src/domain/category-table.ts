import { err, ok, type Result } from 'neverthrow';
import { PRIORITY_RANK, type CategoryInfo, type FindingCategory, type PriorityClass } from './categories.js';
import { createFinding, type Finding, type FindingInput } from './finding.js';

/**
 * How an embedder describes one of its categories to {@link defineCategories}: the priority class,
 * whether it is reported outside active hours, and how many consecutive cycles confirm it.
 */
export interface CategorySpec {
  readonly priority: PriorityClass;
  /** Reported outside active hours too (otherwise suppressed there as `outside-active-hours`). */
  readonly outsideActiveHours: boolean;
  /** Consecutive cycles a finding must be seen before it is reportable (default 1; at most 100). */
  readonly confirmCycles?: number;
  /** Short noun phrase for the Context Brief (default: the category's name). */
  readonly brief?: string;
  /** See {@link CategoryInfo.oneShot} (default false). */
  readonly oneShot?: boolean;
  /** See {@link CategoryInfo.listHeading} (default false). */
  readonly listHeading?: boolean;
  /** See {@link CategoryInfo.recoveryNotice} (default: on for Immediate unless one-shot, off for the others). */
  readonly recoveryNotice?: boolean;
  /** See {@link CategoryInfo.inhibitedBy} (default none). */
  readonly inhibitedBy?: readonly string[];
  /** See {@link CategoryInfo.critical} (default false). */
  readonly critical?: boolean;
}

/** The typed error of a category that is not in the table the cycle was given. */
export interface UnregisteredCategoryError {
  readonly kind: 'unregistered-category';
  readonly category: string;
  readonly message: string;
}

/**
 * The categories a cycle knows, in table order, with their rules: what {@link defineCategories}
 * returns and `evaluateCycle`, the report rendering and `runCycle`/`runLoop` read (option
 * `categories`, default {@link OPEN_CATEGORIES}). `C` is the closed set of its names, so a
 * finding built with {@link CategoryTable.createFinding} cannot name a category it does not hold.
 */
export interface CategoryTable<C extends string = string> {
  /** Names in table order: the report header's order within one priority class. */
  readonly names: readonly C[];
  /**
   * What the cycle does with a finding whose category is not in the table: `allow` uses the
   * finding's own priority, one confirm cycle, and outside active hours is reported when the scanner
   * that found it runs there (`runsOutsideActiveHours`) (the default tables, where
   * `createFinding` lets any embedder name a category); `advise` does the same and adds an
   * `UNREGISTERED_CATEGORY` warning to the decision, once per category and cycle.
   */
  readonly unregistered: 'allow' | 'advise';
  /** The rules of a category (the table's, or an engine category such as `SCANNER_FAILING`); undefined when neither holds it. */
  info(category: string): CategoryInfo | undefined;
  /** The rules of a category, or the typed error a JS caller gets for a name the table lacks. */
  check(category: string): Result<CategoryInfo, UnregisteredCategoryError>;
  /**
   * Creates a finding of one of this table's categories; its priority comes from the table. A
   * category the table lacks is a compile error (at run time, from JS, it keeps `Normal` and the
   * cycle advises about it).
   */
  createFinding(input: TableFindingInput<C>): Finding;
}

/** Input of {@link CategoryTable.createFinding}: a {@link FindingInput} whose category is one of the table's. */
export type TableFindingInput<C extends string> = Omit<FindingInput, 'category' | 'priority'> & { readonly category: C };

/** Options of {@link defineCategories}. */
export interface DefineCategoriesOptions<B extends string> {
  /** Start from this table (e.g. `DEFAULT_CATEGORIES` of `@heartbeat-kit/scanners` to keep the CoBuilder ones); its names come first. */
  readonly extend?: CategoryTable<B>;
  /** See {@link CategoryTable.unregistered}; default `advise`. */
  readonly unregistered?: 'allow' | 'advise';
}

const MAX_CONFIRM_CYCLES = 100;

/**
 * Categories the engine itself raises (a tripped scanner breaker's advisory): every table knows
 * them, so an embedder's own table neither warns that they are unregistered nor loses their brief.
 * A table that defines one of these names itself wins.
 */
const ENGINE_CATEGORY_INFO: ReadonlyMap<string, CategoryInfo> = new Map<string, CategoryInfo>([
  [
    'SCANNER_FAILING',
    {
      priority: 'Advisory',
      outsideActiveHours: false,
      confirmCycles: 1,
      brief: 'scanner failing repeatedly',
      oneShot: false,
      listHeading: false,
    },
  ],
]);

function confirmCyclesFrom(value: number | undefined): number {
  // A JS caller may pass anything: out-of-range or non-integer counts are clamped, never thrown.
  if (value === undefined || !Number.isFinite(value)) return 1;
  return Math.min(MAX_CONFIRM_CYCLES, Math.max(1, Math.floor(value)));
}

function infoOf(name: string, spec: CategorySpec): CategoryInfo {
  const priority = Object.hasOwn(PRIORITY_RANK, spec.priority) ? spec.priority : 'Normal';
  // A JS caller may pass anything: only strings count as sources.
  const inhibitedBy = Array.isArray(spec.inhibitedBy) ? spec.inhibitedBy.filter((v): v is string => typeof v === 'string' && v !== '') : [];
  return {
    priority,
    outsideActiveHours: spec.outsideActiveHours === true,
    confirmCycles: confirmCyclesFrom(spec.confirmCycles),
    brief: spec.brief ?? name,
    oneShot: spec.oneShot === true,
    listHeading: spec.listHeading === true,
    // A one-shot finding (a reply, a finalized pipeline) never "clears": it was simply delivered.
    recoveryNotice: typeof spec.recoveryNotice === 'boolean' ? spec.recoveryNotice : priority === 'Immediate' && spec.oneShot !== true,
    ...(inhibitedBy.length > 0 ? { inhibitedBy: Object.freeze(inhibitedBy) } : {}),
    ...(spec.critical === true ? { critical: true } : {}),
  };
}

/** Whether a category's delivered findings get a `RESOLVED:` line when they clear (default: Immediate, not one-shot). */
export function recoveryNoticeOf(info: CategoryInfo | undefined, priority: PriorityClass): boolean {
  return info?.recoveryNotice ?? (priority === 'Immediate' && info?.oneShot !== true);
}

/**
 * Registers an embedder's own categories with their priority class, outside-hours rule and confirm
 * cycles, and returns a typed table to hand to `runLoop`/`runCycle`/`evaluateCycle` as `categories`.
 *
 * @example
 * ```ts
 * import { defineCategories } from '@heartbeat-kit/core';
 * import { DEFAULT_CATEGORIES } from '@heartbeat-kit/scanners';
 *
 * const categories = defineCategories(
 *   { QUEUE_RISING: { priority: 'Advisory', outsideActiveHours: false, confirmCycles: 3, brief: 'queue depth rising' } },
 *   { extend: DEFAULT_CATEGORIES }, // keep the CoBuilder categories too
 * );
 * const finding = categories.createFinding({ category: 'QUEUE_RISING', subject: 'jobs', line: 'QUEUE RISING: jobs', action: 'Add a worker', short: 'jobs rising' });
 * console.log(finding.priority); // Advisory — from the table
 * ```
 */
export function defineCategories<const T extends Readonly<Record<string, CategorySpec>>, B extends string = never>(
  specs: T,
  options: DefineCategoriesOptions<B> = {},
): CategoryTable<(keyof T & string) | B> {
  type C = (keyof T & string) | B;
  const rules = new Map<string, CategoryInfo>();
  for (const name of options.extend?.names ?? []) {
    const info = options.extend?.info(name);
    if (info !== undefined) rules.set(name, info);
  }
  for (const name of Object.keys(specs)) rules.set(name, infoOf(name, specs[name]!));
  const names = Object.freeze([...rules.keys()]) as readonly C[];
  const info = (category: string): CategoryInfo | undefined => rules.get(category) ?? ENGINE_CATEGORY_INFO.get(category);
  return Object.freeze({
    names,
    unregistered: options.unregistered ?? 'advise',
    info,
    check: (category: string): Result<CategoryInfo, UnregisteredCategoryError> => {
      const found = info(category);
      return found === undefined ? err(unregisteredCategoryError(category)) : ok(found);
    },
    createFinding: (input: TableFindingInput<C>): Finding =>
      createFinding({ ...input, priority: info(input.category)?.priority ?? 'Normal' }),
  });
}

/** The typed error (and its one-line message) of a category a table lacks. */
export function unregisteredCategoryError(category: string): UnregisteredCategoryError {
  return {
    kind: 'unregistered-category',
    category,
    message: `category ${JSON.stringify(category)} is not in the category table this cycle was given`,
  };
}

/**
 * The table of a cycle given none: no categories of its own, every category allowed with the
 * finding's own priority (one confirm cycle; outside active hours when its scanner runs there).
 * Core knows no scanner's categories: a host passes its table (the CLI the CoBuilder one,
 * `DEFAULT_CATEGORIES` of `@heartbeat-kit/scanners`).
 */
export const OPEN_CATEGORIES: CategoryTable<never> = defineCategories({}, { unregistered: 'allow' });

/**
 * Orders categories for a batched header by a table: Immediate, Advisory, Normal, then table order,
 * categories the table lacks last by name.
 */
export function categoryComparator(
  table: CategoryTable,
): (a: { category: FindingCategory; priority: PriorityClass }, b: { category: FindingCategory; priority: PriorityClass }) => number {
  const rank = new Map<string, number>(table.names.map((name, i) => [name, i]));
  return (a, b) => {
    const byPriority = PRIORITY_RANK[a.priority] - PRIORITY_RANK[b.priority];
    if (byPriority !== 0) return byPriority;
    const ra = rank.get(a.category) ?? table.names.length;
    const rb = rank.get(b.category) ?? table.names.length;
    if (ra !== rb) return ra - rb;
    return a.category < b.category ? -1 : a.category > b.category ? 1 : 0;
  };
}
