import { parseRunbook, type Runbook } from '../model/runbook.js';

/** Tracked items above this count draw a warning: prune before adding. */
export const TRACKED_ITEM_SOFT_CAP = 10;
/** Tracked items above this count are rejected ("absolute maximum, only during a real surge"). */
export const TRACKED_ITEM_HARD_CAP = 20;

/** Why a line (or the whole runbook) fails or strains the tracked-item date check. */
export type RunbookIssueCode =
  'no-lift-trigger' | 'no-date' | 'full-date-only' | 'invalid-date' | 'lowercase-delete' | 'over-soft-cap' | 'over-hard-cap';

/** One finding of the date check; `line` is 1-based (0 for the whole document). */
export interface RunbookIssue {
  readonly severity: 'error' | 'warning';
  readonly code: RunbookIssueCode;
  readonly line: number;
  readonly message: string;
}

/** The verdict of the tracked-item date check. */
export interface RunbookValidation {
  /** False when the server would refuse the write (HTTP 400). */
  readonly accepted: boolean;
  readonly trackedItemCount: number;
  readonly errors: readonly RunbookIssue[];
  readonly warnings: readonly RunbookIssue[];
}

/**
 * The server's tracked-item date check: every tracked item needs a lift trigger and a
 * date the gate can see (bare `MM-DD` or `DELETE MM-DD`); a line whose only date is `YYYY-MM-DD` is
 * rejected with that reason; more than 10 tracked items warns, more than 20 rejects (spec 003).
 *
 * @example
 * ```ts
 * import { validateRunbook } from '@heartbeat-kit/runbook';
 *
 * const check = validateRunbook('## Active Blockers\n- Cert renewal. Lift when renewed (check 2026-10-25).\n');
 * console.log(check.accepted); // false: a full date only is invisible to the gate
 * for (const e of check.errors) console.log(e.line, e.code, e.message); // 2 'full-date-only' …write "(check 10-25)"
 * ```
 */
export function validateRunbook(input: string | Runbook): RunbookValidation {
  const runbook = typeof input === 'string' ? parseRunbook(input) : input;
  const issues: RunbookIssue[] = [];
  const error = (code: RunbookIssueCode, line: number, message: string): void => {
    issues.push({ severity: 'error', code, line, message });
  };
  const warn = (code: RunbookIssueCode, line: number, message: string): void => {
    issues.push({ severity: 'warning', code, line, message });
  };
  for (const item of runbook.trackedItems) {
    const where = `line ${item.line} (${item.section})`;
    const { bare, deletes, fullDates, invalid } = item.tokens;
    if (!item.liftTrigger) {
      error(
        'no-lift-trigger',
        item.line,
        `${where}: tracked item has no lift trigger; add one, e.g. "Lift when <condition> (check MM-DD)" or "lift when #N merges"`,
      );
    }
    for (const bad of invalid) {
      error('invalid-date', item.line, `${where}: "${bad}" is not a calendar day; write a real MM-DD`);
    }
    if (bare.length === 0 && deletes.length === 0) {
      if (fullDates.length > 0) {
        const [first] = fullDates;
        const hint = first === undefined ? 'MM-DD' : first.slice(5);
        error(
          'full-date-only',
          item.line,
          `${where}: the only date is the full date ${fullDates.join(', ')}, which the gate cannot see; write the due date bare, e.g. "(check ${hint})" or "DELETE ${hint}"`,
        );
      } else if (invalid.length === 0) {
        error('no-date', item.line, `${where}: tracked item has no date; add a bare "check MM-DD" or "DELETE MM-DD"`);
      }
    }
    const lower = /(?<![\w-])delete\s+(\d{2})-(\d{2})(?![\w-])/gi;
    for (const m of item.text.matchAll(lower)) {
      if (!m[0].startsWith('DELETE')) {
        warn(
          'lowercase-delete',
          item.line,
          `${where}: "${m[0]}" is read as a bare check date, not a prune marker; write "DELETE ${m[1] ?? 'MM'}-${m[2] ?? 'DD'}" in capitals`,
        );
      }
    }
  }
  const count = runbook.trackedItems.length;
  if (count > TRACKED_ITEM_HARD_CAP) {
    error(
      'over-hard-cap',
      0,
      `${count} tracked items exceed the absolute maximum of ${TRACKED_ITEM_HARD_CAP}; prune closed and past-date items first`,
    );
  } else if (count > TRACKED_ITEM_SOFT_CAP) {
    warn(
      'over-soft-cap',
      0,
      `${count} tracked items exceed the cap of ${TRACKED_ITEM_SOFT_CAP}; prune before adding (maximum ${TRACKED_ITEM_HARD_CAP}, only during a real surge)`,
    );
  }
  const errors = issues.filter((i) => i.severity === 'error');
  return { accepted: errors.length === 0, trackedItemCount: count, errors, warnings: issues.filter((i) => i.severity === 'warning') };
}
