import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { DEFAULT_CATEGORIES } from '@heartbeat-kit/core';
import { categoryTableFingerprint, replayCycleRecords } from '@heartbeat-kit/core/host';
import { EXIT } from '../exit-codes.js';
import type { Command } from '../io.js';
import { resolvePath } from '../wiring/cycle-deps.js';

/** Help text of `heartbeat-kit replay`. */
export const REPLAY_HELP = `Usage: heartbeat-kit replay FILE [--json]

Re-runs every cycle recorded with 'heartbeat-kit cycle --record FILE' through the current
decision code and compares the decisions. Use it to check that a change keeps past behaviour.
It replays with the default (CoBuilder) category table, the one 'heartbeat-kit cycle' uses; a
record decided by another table (an embedder's own, from defineCategories) is counted and not
compared: replay those with replayCycleRecords(text, { categories }) from @heartbeat-kit/core.

Exit codes: 0 every decision reproduced, 1 some differ, were decided by another category table or
lines are invalid, 2 usage error.
`;

/** `heartbeat-kit replay`: re-evaluates recorded cycles. */
export const replayCommand: Command = async (argv, io) => {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: true,
    });
  } catch (error) {
    io.stderr(`heartbeat-kit replay: ${(error as Error).message}. Fix: see 'heartbeat-kit replay --help'.\n`);
    return EXIT.usage;
  }
  if (parsed.values.help) {
    io.stdout(REPLAY_HELP);
    return EXIT.ok;
  }
  const [file, ...extra] = parsed.positionals;
  if (file === undefined || extra.length > 0) {
    io.stderr(`heartbeat-kit replay: expected exactly one FILE. Fix: heartbeat-kit replay cycles.jsonl\n`);
    return EXIT.usage;
  }
  let text: string;
  try {
    text = await readFile(resolvePath(io.cwd, file), 'utf8');
  } catch (error) {
    io.stderr(`heartbeat-kit replay: cannot read ${file}: ${(error as Error).message}\n`);
    return EXIT.usage;
  }
  const report = replayCycleRecords(text);
  if (parsed.values.json) io.stdout(`${JSON.stringify(report)}\n`);
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
  return reproduced ? EXIT.ok : EXIT.rejected;
};
