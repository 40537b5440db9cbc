import { readFile } from 'node:fs/promises';
import { categoryTableFingerprint, replayCycleRecords } from '@heartbeat-kit/core/host';
import { DEFAULT_CATEGORIES } from '@heartbeat-kit/scanners';
import { ok } from 'neverthrow';
import { defineCommand, usageFailure } from '../cli-kernel/index.js';
import { EXIT } from '../exit-codes.js';
import { resolvePath } from '../wiring/cycle-deps.js';

/** `heartbeat-kit replay`: re-evaluates recorded cycles. */
export const replayCommand = defineCommand(
  {
    name: 'replay',
    usage: 'FILE [--json]',
    description: `Re-runs every cycle recorded with 'heartbeat-kit cycle --record FILE' through the current
decision code and compares the decisions. Use it to check that a change keeps past behaviour.
It replays with the default (CoBuilder) category table, the one 'heartbeat-kit cycle' uses; a
record decided by another table (an embedder's own, from defineCategories) is counted and not
compared: replay those with replayCycleRecords(text, { categories }) from @heartbeat-kit/core.`,
    flags: { json: { type: 'boolean', help: 'print the report as JSON: {"total", "matched", "mismatches", "errors", "otherTable"?}' } },
    positionals: { min: 1, max: 1, fix: 'heartbeat-kit replay cycles.jsonl' },
    exitCodes: [
      [EXIT.ok, 'every decision reproduced'],
      [EXIT.rejected, 'some differ, were decided by another category table or lines are invalid'],
      [EXIT.usage, 'usage error'],
    ],
  },
  async ({ flags, positionals: [file = ''], io }) => {
    let text: string;
    try {
      text = await readFile(resolvePath(io.cwd, file), 'utf8');
    } catch (error) {
      return usageFailure(`cannot read ${file}: ${(error as Error).message}`);
    }
    const report = replayCycleRecords(text, { categories: DEFAULT_CATEGORIES });
    if (flags.json) io.stdout(`${JSON.stringify(report)}\n`);
    else {
      io.stdout(`${report.matched}/${report.total} decisions reproduced\n`);
      for (const m of report.mismatches) io.stdout(`line ${m.line} (cycle #${m.cycle}) differs at: ${m.paths.join(', ')}\n`);
      for (const e of report.errors) io.stdout(`line ${e.line}: ${e.message}\n`);
      const other = report.otherTable;
      if (other !== undefined) {
        const replayed = other.replayed === categoryTableFingerprint(DEFAULT_CATEGORIES) ? 'the default table' : other.replayed;
        io.stdout(
          `${other.count} record(s) from line ${other.firstLine} were decided by another category table (${other.recorded.join(', ')}), ` +
            `not ${replayed}: not compared. Fix: replay them with the table that recorded them ` +
            `(replayCycleRecords(text, { categories }) from @heartbeat-kit/core).\n`,
        );
      }
    }
    const reproduced = report.mismatches.length === 0 && report.errors.length === 0 && report.otherTable === undefined;
    return ok(reproduced ? EXIT.ok : EXIT.rejected);
  },
);
