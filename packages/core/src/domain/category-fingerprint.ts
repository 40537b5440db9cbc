import type { JsonValue } from './json.js';
import { canonicalJson, stableHash } from '../text/stable-hash.js';
import type { CategoryInfo } from './categories.js';
import type { CategoryTable } from './category-table.js';

// `critical` only filters scan results under a pause, before the decision a record keeps: leaving it
// out keeps the fingerprints of tables recorded before the flag existed, so their records still replay.
function decidingRules(info: CategoryInfo | undefined): JsonValue {
  if (info === undefined) return null;
  const { critical: _critical, ...rules } = info;
  return rules;
}

/**
 * A short, stable name of a category table's rules (`ct-` and 12 hex digits): its names in order,
 * each one's priority, outside-hours rule, confirm cycles, brief and flags, and its rule for
 * unregistered categories. Two tables that decide alike give the same fingerprint; a cycle record
 * keeps it, so replaying with another table says so instead of reporting every decision as changed.
 */
export function categoryTableFingerprint(table: CategoryTable): string {
  const rules: JsonValue = {
    unregistered: table.unregistered,
    categories: table.names.map((name) => [name, decidingRules(table.info(name))]),
  };
  return `ct-${stableHash(canonicalJson(rules)).slice(0, 12)}`;
}
