import { parseArgs } from 'node:util';
import { formatReceipt, parseDurationStrict } from '@heartbeat-kit/core/host';
import { receiptsDirectoryFor } from '@heartbeat-kit/core/node';
import { EXIT } from '../exit-codes.js';
import type { CliIo, Command } from '../io.js';
import { receiptStoreFor, locateState } from '../wiring/receipts.js';
import { commandClock, parseInstantFlag } from '../wiring/instant.js';

/** Help text of `heartbeat-kit history`. */
export const HISTORY_HELP = `Usage: heartbeat-kit history [options]

Lists the receipts of this project's heartbeat slots, oldest first: every slot of 'cycle' and
'loop' ends in exactly one record, 'ran' (cycle number, HEARTBEAT_OK or report, delivery
result; 'partial' with the scanners a signal cut off; the operator's note when a pause held back
scanners or findings), 'paused' (an operator pause: its end and note) or 'skipped' with its reason (overlapping, lock-unavailable, config-error, dry-run,
asleep, down, catch-up-cap, …). Receipts live beside the state file, bounded
to the last 2000 records and 30 days.

Options:
  --cwd DIR          a directory of the project's git repository (default: current directory)
  --state FILE       the state file whose receipts to read (default: as 'cycle')
  --since WHEN       only receipts at or after WHEN: an ISO instant or a duration back from
                     now such as 24h or 90m
  --now ISO          judge ages as at this instant
  --json             print {"receipts": [...], "warnings": [...]}
  -h, --help         show this help

Exit codes: 0 listed (also when there are none), 2 usage error (or DIR is not in a git
repository), 3 the receipts cannot be read.
`;

const OPTIONS = {
  cwd: { type: 'string' },
  state: { type: 'string' },
  since: { type: 'string' },
  now: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

function usageError(io: CliIo, message: string): number {
  io.stderr(`heartbeat-kit history: ${message}\n`);
  return EXIT.usage;
}

/** `--since`: an ISO instant, or a duration back from `now`. */
export function parseSince(value: string, now: Date): { ok: true; ms: number } | { ok: false; message: string } {
  if (/^\d{4}-\d{2}-\d{2}/.test(value)) {
    const instant = parseInstantFlag('--since', value);
    return instant.ok && instant.date
      ? { ok: true, ms: instant.date.getTime() }
      : { ok: false, message: instant.ok ? '' : instant.message };
  }
  // The whole value is the duration: `--since 2 hours ago` is an error, not two hours.
  const duration = parseDurationStrict(value, 'h');
  if (duration.isErr()) {
    const what = duration.error.reason === 'no-duration' ? 'is neither an ISO instant nor a duration.' : duration.error.message;
    return {
      ok: false,
      message: `--since ${JSON.stringify(value)} ${what} Fix: e.g. --since 24h (only a duration back from now; a bare number is hours) or --since 2026-02-19T08:00:00Z.`,
    };
  }
  return { ok: true, ms: now.getTime() - duration.value };
}

/** `heartbeat-kit history`: the receipts of the heartbeat's slots. */
export const historyCommand: Command = async (argv, io) => {
  let values;
  try {
    ({ values } = parseArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: false }));
  } catch (error) {
    return usageError(io, `${(error as Error).message}. Fix: see 'heartbeat-kit history --help'.`);
  }
  if (values.help) {
    io.stdout(HISTORY_HELP);
    return EXIT.ok;
  }
  const now = parseInstantFlag('--now', values.now);
  if (!now.ok) return usageError(io, now.message);
  const at = commandClock(io, now.date).now();
  let sinceMs = Number.NEGATIVE_INFINITY;
  if (values.since !== undefined) {
    const since = parseSince(values.since, at);
    if (!since.ok) return usageError(io, since.message);
    sinceMs = since.ms;
  }
  const located = await locateState(io, values);
  if (!located.ok) return usageError(io, located.message);
  const { statePath } = located;
  const listed = await receiptStoreFor(statePath, commandClock(io, now.date)).list();
  if (listed.isErr()) {
    io.stderr(`heartbeat-kit history: ${listed.error.message}. Fix: check that ${receiptsDirectoryFor(statePath)} is readable.\n`);
    return EXIT.failure;
  }
  const receipts = listed.value.receipts.filter((r) => Date.parse(r.slot) >= sinceMs);
  for (const warning of listed.value.warnings) io.stderr(`heartbeat-kit history: warning: ${warning}\n`);
  if (values.json === true) {
    io.stdout(`${JSON.stringify({ receipts, warnings: listed.value.warnings })}\n`);
  } else if (receipts.length === 0) {
    io.stdout(
      `no receipts${values.since === undefined ? '' : ` since ${new Date(sinceMs).toISOString()}`} in ${receiptsDirectoryFor(statePath)}\n`,
    );
  } else {
    for (const receipt of receipts) io.stdout(`${formatReceipt(receipt)}\n`);
  }
  return EXIT.ok;
};
