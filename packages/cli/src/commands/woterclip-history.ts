import { createFileReceiptStore } from '@heartbeat-kit/core/node';
import { beatReceiptView, formatBeatReceipt } from '@heartbeat-kit/woterclip';
import { ok } from 'neverthrow';
import { commandFailure, defineCommand, usageFailure } from '../cli-kernel/index.js';
import { EXIT } from '../exit-codes.js';
import { parseInstantFlag } from '../wiring/instant.js';
import { parseSince } from './history.js';
import { resolveCwd, woterclipReceiptsDirectory } from './woterclip-wiring.js';

/** `heartbeat-kit woterclip history`: the receipts of the beats. */
export const woterclipHistoryCommand = defineCommand(
  {
    name: 'woterclip history',
    usage: '[options]',
    description: `Lists the receipts of WoterClip beats, oldest first: every beat ends in exactly one record,
'ran' (beat number, issues worked with their status, stop reason, whether the report comments
were posted, the dispatch breaker's advisory or recovery line) or 'skipped' with its reason
(quiet-hours, overlapping: another beat holds the lock, lock-unavailable, config-error, dry-run,
breaker-open, abandoned: a beat that never finished). Kept in .woterclip/receipts/, apart from
the cycle's ('heartbeat-kit history'), bounded to the last 2000 records and 30 days.`,
    flags: {
      cwd: { type: 'string', value: 'DIR', help: 'repository root (default: current directory)' },
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
      [EXIT.usage, 'usage error'],
      [EXIT.failure, 'the receipts cannot be read'],
    ],
  },
  async ({ flags, io }) => {
    const now = parseInstantFlag('--now', flags.now);
    if (now.isErr()) return usageFailure(now.error);
    const at = now.value ?? new Date();
    let sinceMs = Number.NEGATIVE_INFINITY;
    if (flags.since !== undefined) {
      const since = parseSince(flags.since, at);
      if (since.isErr()) return usageFailure(since.error);
      sinceMs = since.value;
    }
    const directory = woterclipReceiptsDirectory(resolveCwd(io, flags.cwd));
    const listed = await createFileReceiptStore({ directory, clock: { now: () => at } }).list();
    if (listed.isErr()) return commandFailure(`${listed.error.message}. Fix: check that ${directory} is readable.`);
    const receipts = listed.value.receipts.filter((r) => r.source === 'woterclip' && Date.parse(r.slot) >= sinceMs);
    for (const warning of listed.value.warnings) io.stderr(`heartbeat-kit woterclip history: warning: ${warning}\n`);
    if (flags.json === true) io.stdout(`${JSON.stringify({ receipts: receipts.map(beatReceiptView), warnings: listed.value.warnings })}\n`);
    else if (receipts.length === 0)
      io.stdout(`no beat receipts${flags.since === undefined ? '' : ` since ${new Date(sinceMs).toISOString()}`} in ${directory}\n`);
    else for (const receipt of receipts) io.stdout(`${formatBeatReceipt(receipt)}\n`);
    return ok(EXIT.ok);
  },
);
