/**
 * The CoBuilder categories (and the built-in scanners' names) for core's tests. Core knows no scanner's categories (its cycle's default
 * table is empty); these tests were written against the CoBuilder table, which now lives with its
 * scanners, so they are handed that very table (one source, no copy to drift) and a `createFinding`
 * that gives a CoBuilder category its table priority, as core's own did before the table moved.
 */
import { createFinding as createOwnFinding, type Finding, type FindingInput } from '../../src/domain/finding.js';
import { CATEGORY_INFO, isCoBuilderCategory } from '../../../scanners/src/categories/cobuilder-categories.js';

export { BUILTIN_SCANNERS } from '../../../scanners/src/builtin-scanner-names.js';
export {
  COBUILDER_CATEGORIES,
  CATEGORY_INFO,
  DEFAULT_CATEGORIES,
  isCoBuilderCategory,
  type CoBuilderCategory,
} from '../../../scanners/src/categories/cobuilder-categories.js';

/** A finding whose priority, for a CoBuilder category, is the table's (whatever the input says). */
export function createFinding(input: FindingInput): Finding {
  return createOwnFinding(isCoBuilderCategory(input.category) ? { ...input, priority: CATEGORY_INFO[input.category].priority } : input);
}
