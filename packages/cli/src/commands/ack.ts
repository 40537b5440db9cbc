import { parseArgs } from 'node:util';
import { decodeHeartbeatState } from '@heartbeat-kit/core';
import { DEFAULT_CATEGORIES } from '@heartbeat-kit/scanners';
import {
  type Ack,
  ackActive,
  ackEnd,
  addAck,
  knownFindingsOf,
  removeAcks,
  resolveAckSelector,
  validateAckNote,
} from '@heartbeat-kit/core/host';
import { ackPathFor, createFileAckStore } from '@heartbeat-kit/core/node';
import { EXIT } from '../exit-codes.js';
import type { CliIo, Command } from '../io.js';
import { parseDurationFlag } from '../wiring/duration-flag.js';
import { commandClock, parseInstantFlag } from '../wiring/instant.js';
import { locateState } from '../wiring/receipts.js';
import { readLastState } from '../wiring/ack-file.js';

/** Help text of `heartbeat-kit ack`. */
export const ACK_HELP = `Usage: heartbeat-kit ack SELECTOR --note TEXT [--for DURATION | --until ISO] [--snooze] [options]
       heartbeat-kit ack --list [--json]

Acknowledges a finding: while it is unchanged and the ack has not ended, cycles do not report it
(stdout may say HEARTBEAT_OK; stderr says "held by ack", --json lists it under "suppressed" with
held: "ack", who, when, the note and the end, and 'history' shows it). When the finding's
content changes (the content the repeat schedule compares), the ack ends for it and the next
cycle reports it at once.

SELECTOR is a finding id as reports and 'cycle --json' print it (hbf-…), a fingerprint
(CATEGORY:SUBJECT, e.g. GIT_STALE:feature-x), or a bare CATEGORY (every finding of it). It must
name a finding the last cycle knows or a category of the category table.

Options:
  --note TEXT        why (required, 1–500 characters): shown with every held finding
  --for DURATION     the ack ends after this long, e.g. 4h, 90m, 2d (a bare number is hours)
  --until ISO        the ack ends at this instant (must be after now)
                     (neither: it lasts until the finding changes, or 'heartbeat-kit unack')
  --snooze           also end the ack when the finding clears (a completed scan of its scanner
                     no longer finds it) and then comes back
  --by NAME          who acknowledges (default: $USER)
  --list             list the acks, with whether each still holds
  --cwd DIR          a directory of the project's git repository (default: current directory)
  --state FILE       the state file beside which the acks live (default: as 'cycle');
                     acks are kept in <state>.acks.json, written atomically
  --now ISO          rehearse as at this instant: print the ack it would write, write nothing
                     (with --list: which acks would still hold then)
  --json             print one JSON object ({"ack": …} or {"acks": […]}; "rehearsal": true with --now)
  -h, --help         show this help

Exit codes: 0 acknowledged (or listed), 2 usage error (no note, a note over 500 characters, an
unknown selector, a duration that is not only a duration, an --until not after now; nothing is
written), 3 the ack file cannot be read or written.
`;

/** Help text of `heartbeat-kit unack`. */
export const UNACK_HELP = `Usage: heartbeat-kit unack SELECTOR [options]

Removes acks: SELECTOR is an ack id (ack-…, see 'heartbeat-kit ack --list') or the selector,
fingerprint or category an ack was written with. The next cycle decides those findings as usual.

Options:
  --cwd DIR          a directory of the project's git repository (default: current directory)
  --state FILE       the state file beside which the acks live (default: as 'cycle')
  --json             print {"removed": […]}
  -h, --help         show this help

Exit codes: 0 removed, 2 usage error (no ack matches SELECTOR; nothing is written), 3 the ack
file cannot be read or written.
`;

const OPTIONS = {
  note: { type: 'string' },
  for: { type: 'string' },
  until: { type: 'string' },
  snooze: { type: 'boolean' },
  by: { type: 'string' },
  list: { type: 'boolean' },
  cwd: { type: 'string' },
  state: { type: 'string' },
  now: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const UNACK_OPTIONS = {
  cwd: { type: 'string' },
  state: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The longest ack `--for` accepts: a year (longer is `unack`'s job, or no end at all). */
const MAX_ACK_FOR_MS = 366 * 86_400_000;

function usage(io: CliIo, command: string, message: string): number {
  io.stderr(`heartbeat-kit ${command}: ${message}\n`);
  return EXIT.usage;
}

/** One ack as `--json` and `--list` show it (also `fleet ack`). */
export function ackJson(ack: Ack, now: Date): Record<string, unknown> {
  return { ...ack, active: ackActive(ack, now) };
}

/** One ack as a text line of `ack --list` (also `fleet ack`). */
export function ackLine(ack: Ack, now: Date): string {
  const end = ack.until === undefined ? 'until it changes' : `until ${ack.until}`;
  const state = ackActive(ack, now) ? '' : ' (ended)';
  return `${ack.id}  ${ack.selector}${ack.snooze ? ' (snooze)' : ''}  by ${ack.by} at ${ack.at}, ${end}${state}: ${ack.note}`;
}

/** `heartbeat-kit ack`: acknowledge a finding (or list the acks). */
export const ackCommand: Command = async (argv, io) => {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: true });
  } catch (error) {
    return usage(io, 'ack', `${(error as Error).message}. Fix: see 'heartbeat-kit ack --help'.`);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout(ACK_HELP);
    return EXIT.ok;
  }
  const nowFlag = parseInstantFlag('--now', values.now);
  if (!nowFlag.ok) return usage(io, 'ack', nowFlag.message);
  const now = commandClock(io, nowFlag.date).now();
  // An ack at another instant is a rehearsal, like `cycle --now`: a written ack would hold findings for real runs.
  const rehearsal = nowFlag.date !== undefined;
  if (values.list === true) {
    if (positionals.length > 0) return usage(io, 'ack', `--list takes no SELECTOR. Fix: run 'heartbeat-kit ack --list' alone.`);
    const located = await locateState(io, values);
    if (!located.ok) return usage(io, 'ack', located.message);
    const loaded = await createFileAckStore({ path: ackPathFor(located.statePath) }).load();
    if (loaded.isErr()) {
      io.stderr(`heartbeat-kit ack: ${loaded.error.message}. Fix: check that the ack file is readable.\n`);
      return EXIT.failure;
    }
    for (const warning of loaded.value.warnings) io.stderr(`heartbeat-kit ack: warning: ${warning}\n`);
    const { acks } = loaded.value.book;
    if (values.json === true) io.stdout(`${JSON.stringify({ acks: acks.map((a) => ackJson(a, now)), warnings: loaded.value.warnings })}\n`);
    else if (acks.length === 0) io.stdout('no acks\n');
    else for (const ack of acks) io.stdout(`${ackLine(ack, now)}\n`);
    return EXIT.ok;
  }
  // Every flag is checked before anything is read or written.
  if (positionals.length !== 1)
    return usage(
      io,
      'ack',
      `${positionals.length === 0 ? 'SELECTOR is missing' : `one SELECTOR expected, got ${positionals.length}`}. Fix: e.g. heartbeat-kit ack GIT_STALE:feature-x --for 4h --note "rebasing tonight".`,
    );
  const selector = positionals[0] as string;
  const note = validateAckNote(values.note);
  if (note.isErr()) return usage(io, 'ack', note.error.message);
  const forFlag = parseDurationFlag('--for', values.for, { unit: 'h', example: '4h', maxMs: MAX_ACK_FOR_MS });
  if (!forFlag.ok) return usage(io, 'ack', forFlag.message);
  const untilFlag = parseInstantFlag('--until', values.until);
  if (!untilFlag.ok) return usage(io, 'ack', untilFlag.message);
  const until = ackEnd({ forMs: forFlag.ms, until: untilFlag.date, now });
  if (until.isErr()) return usage(io, 'ack', until.error.message);
  const by = (values.by ?? io.env.USER ?? io.env.LOGNAME ?? 'operator').trim().slice(0, 200) || 'operator';

  const located = await locateState(io, values);
  if (!located.ok) return usage(io, 'ack', located.message);
  const state = decodeHeartbeatState(await readLastState(located.statePath)).state;
  const resolved = resolveAckSelector(selector, knownFindingsOf(state), DEFAULT_CATEGORIES);
  if (resolved.isErr()) return usage(io, 'ack', `SELECTOR ${resolved.error.message}`);

  const store = createFileAckStore({ path: ackPathFor(located.statePath) });
  const loaded = await store.load();
  if (loaded.isErr()) {
    io.stderr(`heartbeat-kit ack: ${loaded.error.message}. Fix: check that the ack file is readable.\n`);
    return EXIT.failure;
  }
  const added = addAck(loaded.value.book, {
    selector: selector.trim(),
    resolved: resolved.value,
    note: note.value,
    by,
    at: now,
    until: until.value,
    snooze: values.snooze === true,
  });
  if (added.isErr()) return usage(io, 'ack', added.error.message);
  const { ack } = added.value;
  if (rehearsal) {
    io.stderr(`heartbeat-kit ack: rehearsal at ${now.toISOString()} (--now): nothing was written.\n`);
    if (values.json === true)
      io.stdout(`${JSON.stringify({ ack: ackJson(ack, now), file: ackPathFor(located.statePath), rehearsal: true })}\n`);
    else io.stdout(`would ack ${ackLine(ack, now)}\n`);
    return EXIT.ok;
  }
  const saved = await store.save(added.value.book);
  if (saved.isErr()) {
    io.stderr(`heartbeat-kit ack: ${saved.error.message}. Fix: check free space and permissions beside the state file.\n`);
    return EXIT.failure;
  }
  if (values.json === true) io.stdout(`${JSON.stringify({ ack: ackJson(ack, now), file: ackPathFor(located.statePath) })}\n`);
  else io.stdout(`acked ${ackLine(ack, now)}\n`);
  return EXIT.ok;
};

/** `heartbeat-kit unack`: remove acks. */
export const unackCommand: Command = async (argv, io) => {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: UNACK_OPTIONS, strict: true, allowPositionals: true });
  } catch (error) {
    return usage(io, 'unack', `${(error as Error).message}. Fix: see 'heartbeat-kit unack --help'.`);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout(UNACK_HELP);
    return EXIT.ok;
  }
  if (positionals.length !== 1)
    return usage(
      io,
      'unack',
      `one SELECTOR expected, got ${positionals.length}. Fix: e.g. heartbeat-kit unack GIT_STALE:feature-x (see 'heartbeat-kit ack --list').`,
    );
  const located = await locateState(io, values);
  if (!located.ok) return usage(io, 'unack', located.message);
  const store = createFileAckStore({ path: ackPathFor(located.statePath) });
  const loaded = await store.load();
  if (loaded.isErr()) {
    io.stderr(`heartbeat-kit unack: ${loaded.error.message}. Fix: check that the ack file is readable.\n`);
    return EXIT.failure;
  }
  const removed = removeAcks(loaded.value.book, positionals[0] as string);
  if (removed.isErr()) return usage(io, 'unack', `SELECTOR ${removed.error.message}`);
  const saved = await store.save(removed.value.book);
  if (saved.isErr()) {
    io.stderr(`heartbeat-kit unack: ${saved.error.message}. Fix: check free space and permissions beside the state file.\n`);
    return EXIT.failure;
  }
  const now = commandClock(io, undefined).now();
  if (values.json === true) io.stdout(`${JSON.stringify({ removed: removed.value.removed.map((a) => ackJson(a, now)) })}\n`);
  else for (const ack of removed.value.removed) io.stdout(`unacked ${ackLine(ack, now)}\n`);
  return EXIT.ok;
};
