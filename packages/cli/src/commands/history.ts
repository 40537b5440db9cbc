import { formatReceipt, parseDurationStrict } from '@heartbeat-kit/core/host';
import { receiptsDirectoryFor } from '@heartbeat-kit/core/node';
import { err, ok, type Result } from 'neverthrow';
import { commandFailure, defineCommand, usageFailure } from '../cli-kernel/index.js';
import { EXIT } from '../exit-codes.js';
import { receiptStoreFor, locateState } from '../wiring/receipts.js';
import { commandClock, parseInstantFlag } from '../wiring/instant.js';

/** `--since`: an ISO instant, or a duration back from `now`; the error is the usage line's message. */
export function parseSince(value: string, now: Date): Result<number, string> {
  if (/^\d{4}-\d{2}-\d{2}/.test(value)) {
    const instant = parseInstantFlag('--since', value);
    if (instant.isErr()) return err(instant.error);
    return instant.value === undefined ? err('') : ok(instant.value.getTime());
  }
  // The whole value is the duration: `--since 2 hours ago` is an error, not two hours.
  const duration = parseDurationStrict(value, 'h');
  if (duration.isErr()) {
    const what = duration.error.reason === 'no-duration' ? 'is neither an ISO instant nor a duration.' : duration.error.message;
    return err(
      `--since ${JSON.stringify(value)} ${what} Fix: e.g. --since 24h (only a duration back from now; a bare number is hours) or --since 2026-02-19T08:00:00Z.`,
    );
  }
  return ok(now.getTime() - duration.value);
}

/** `heartbeat-kit history`: the receipts of the heartbeat's slots. */
export const historyCommand = defineCommand(
  {
    name: 'history',
    usage: '[options]',
    description: `Lists the receipts of this project's heartbeat slots, oldest first: every slot of 'cycle' and
'loop' ends in exactly one record, 'ran' (cycle number, HEARTBEAT_OK or report, delivery
result; 'partial' with the scanners a signal cut off; the operator's note when a pause held back
scanners or findings), 'paused' (an operator pause: its end and note) or 'skipped' with its reason (overlapping, lock-unavailable, config-error, dry-run,
asleep, down, catch-up-cap, …). Receipts live beside the state file, bounded
to the last 2000 records and 30 days.`,
    flags: {
      cwd: { type: 'string', value: 'DIR', help: "a directory of the project's git repository (default: current directory)" },
      state: { type: 'string', value: 'FILE', help: "the state file whose receipts to read (default: as 'cycle')" },
      since: {
        type: 'string',
        value: 'WHEN',
        help: 'only receipts at or after WHEN: an ISO instant or a duration back from\nnow such as 24h or 90m',
      },
      now: { type: 'string', value: 'ISO', help: 'judge ages as at this instant' },
      json: { type: 'boolean', help: 'print {"receipts": [...], "warnings": [...]}' },
    },
    exitCodes: [
      [EXIT.ok, 'listed (also when there are none)'],
      [EXIT.usage, 'usage error (or DIR is not in a git repository)'],
      [EXIT.failure, 'the receipts cannot be read'],
    ],
  },
  async ({ flags, io }) => {
    const now = parseInstantFlag('--now', flags.now);
    if (now.isErr()) return usageFailure(now.error);
    const at = commandClock(io, now.value).now();
    let sinceMs = Number.NEGATIVE_INFINITY;
    if (flags.since !== undefined) {
      const since = parseSince(flags.since, at);
      if (since.isErr()) return usageFailure(since.error);
      sinceMs = since.value;
    }
    const located = await locateState(io, flags);
    if (located.isErr()) return usageFailure(located.error);
    const { statePath } = located.value;
    const listed = await receiptStoreFor(statePath, commandClock(io, now.value)).list();
    if (listed.isErr()) return commandFailure(`${listed.error.message}. Fix: check that ${receiptsDirectoryFor(statePath)} is readable.`);
    const receipts = listed.value.receipts.filter((r) => Date.parse(r.slot) >= sinceMs);
    for (const warning of listed.value.warnings) io.stderr(`heartbeat-kit history: warning: ${warning}\n`);
    if (flags.json === true) {
      io.stdout(`${JSON.stringify({ receipts, warnings: listed.value.warnings })}\n`);
    } else if (receipts.length === 0) {
      io.stdout(
        `no receipts${flags.since === undefined ? '' : ` since ${new Date(sinceMs).toISOString()}`} in ${receiptsDirectoryFor(statePath)}\n`,
      );
    } else {
      for (const receipt of receipts) io.stdout(`${formatReceipt(receipt)}\n`);
    }
    return ok(EXIT.ok);
  },
);
