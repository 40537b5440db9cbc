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
import { ok, type Result } from 'neverthrow';
import {
  commandFailure,
  defineCommand,
  usageFailure,
  type CommandFailure,
  type CommandInput,
  type FlagSpecs,
} from '../cli-kernel/index.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { parseDurationFlag } from '../wiring/duration-flag.js';
import { commandClock, parseInstantFlag } from '../wiring/instant.js';
import { locateState } from '../wiring/receipts.js';
import { readLastState } from '../wiring/ack-file.js';

const CWD_FLAG = {
  type: 'string',
  value: 'DIR',
  help: "a directory of the project's git repository (default: current directory)",
} as const;

const ACK_FLAGS = {
  note: { type: 'string', value: 'TEXT', help: 'why (required, 1–500 characters): shown with every held finding' },
  for: { type: 'string', value: 'DURATION', help: 'the ack ends after this long, e.g. 4h, 90m, 2d (a bare number is hours)' },
  until: {
    type: 'string',
    value: 'ISO',
    help: "the ack ends at this instant (must be after now)\n(neither: it lasts until the finding changes, or 'heartbeat-kit unack')",
  },
  snooze: {
    type: 'boolean',
    help: 'also end the ack when the finding clears (a completed scan of its scanner\nno longer finds it) and then comes back',
  },
  by: { type: 'string', value: 'NAME', help: 'who acknowledges (default: $USER)' },
  list: { type: 'boolean', help: 'list the acks, with whether each still holds' },
  cwd: CWD_FLAG,
  state: {
    type: 'string',
    value: 'FILE',
    help: "the state file beside which the acks live (default: as 'cycle');\nacks are kept in <state>.acks.json, written atomically",
  },
  now: {
    type: 'string',
    value: 'ISO',
    help: 'rehearse as at this instant: print the ack it would write, write nothing\n(with --list: which acks would still hold then)',
  },
  json: { type: 'boolean', help: 'print one JSON object ({"ack": …} or {"acks": […]}; "rehearsal": true with --now)' },
} as const satisfies FlagSpecs;

type AckInput = CommandInput<typeof ACK_FLAGS>;
type Outcome = Promise<Result<ExitCode, CommandFailure>>;

/** The longest ack `--for` accepts: a year (longer is `unack`'s job, or no end at all). */
const MAX_ACK_FOR_MS = 366 * 86_400_000;

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

const unreadable = (message: string): Result<never, CommandFailure> =>
  commandFailure(`${message}. Fix: check that the ack file is readable.`);
const unsaved = (message: string): Result<never, CommandFailure> =>
  commandFailure(`${message}. Fix: check free space and permissions beside the state file.`);

/** `ack --list`: every ack, with whether it still holds at `now`. */
async function listAcks({ flags, positionals, io }: AckInput, now: Date): Outcome {
  if (positionals.length > 0) return usageFailure(`--list takes no SELECTOR. Fix: run 'heartbeat-kit ack --list' alone.`);
  const located = await locateState(io, flags);
  if (located.isErr()) return usageFailure(located.error);
  const loaded = await createFileAckStore({ path: ackPathFor(located.value.statePath) }).load();
  if (loaded.isErr()) return unreadable(loaded.error.message);
  for (const warning of loaded.value.warnings) io.stderr(`heartbeat-kit ack: warning: ${warning}\n`);
  const { acks } = loaded.value.book;
  if (flags.json === true) io.stdout(`${JSON.stringify({ acks: acks.map((a) => ackJson(a, now)), warnings: loaded.value.warnings })}\n`);
  else if (acks.length === 0) io.stdout('no acks\n');
  else for (const ack of acks) io.stdout(`${ackLine(ack, now)}\n`);
  return ok(EXIT.ok);
}

/** What the flags of a new ack say, every one checked before anything is read or written. */
function ackRequest({ flags, positionals, io }: AckInput, now: Date) {
  if (positionals.length !== 1)
    return usageFailure(
      `${positionals.length === 0 ? 'SELECTOR is missing' : `one SELECTOR expected, got ${positionals.length}`}. Fix: e.g. heartbeat-kit ack GIT_STALE:feature-x --for 4h --note "rebasing tonight".`,
    );
  const note = validateAckNote(flags.note);
  if (note.isErr()) return usageFailure(note.error.message);
  const forFlag = parseDurationFlag('--for', flags.for, { unit: 'h', example: '4h', maxMs: MAX_ACK_FOR_MS });
  if (forFlag.isErr()) return usageFailure(forFlag.error);
  const untilFlag = parseInstantFlag('--until', flags.until);
  if (untilFlag.isErr()) return usageFailure(untilFlag.error);
  const until = ackEnd({ forMs: forFlag.value, until: untilFlag.value, now });
  if (until.isErr()) return usageFailure(until.error.message);
  const by = (flags.by ?? io.env.USER ?? io.env.LOGNAME ?? 'operator').trim().slice(0, 200) || 'operator';
  return ok({ selector: positionals[0] as string, note: note.value, until: until.value, by });
}

/** `ack SELECTOR`: resolve the selector against the last cycle, add the ack, save it (or rehearse). */
async function addOneAck(input: AckInput, now: Date, rehearsal: boolean): Outcome {
  const { flags, io } = input;
  const request = ackRequest(input, now);
  if (request.isErr()) return request;
  const { selector } = request.value;
  const located = await locateState(io, flags);
  if (located.isErr()) return usageFailure(located.error);
  const state = decodeHeartbeatState(await readLastState(located.value.statePath)).state;
  const resolved = resolveAckSelector(selector, knownFindingsOf(state), DEFAULT_CATEGORIES);
  if (resolved.isErr()) return usageFailure(`SELECTOR ${resolved.error.message}`);
  const file = ackPathFor(located.value.statePath);
  const store = createFileAckStore({ path: file });
  const loaded = await store.load();
  if (loaded.isErr()) return unreadable(loaded.error.message);
  const added = addAck(loaded.value.book, {
    ...request.value,
    selector: selector.trim(),
    resolved: resolved.value,
    at: now,
    snooze: flags.snooze === true,
  });
  if (added.isErr()) return usageFailure(added.error.message);
  const { ack } = added.value;
  if (rehearsal) {
    io.stderr(`heartbeat-kit ack: rehearsal at ${now.toISOString()} (--now): nothing was written.\n`);
    if (flags.json === true) io.stdout(`${JSON.stringify({ ack: ackJson(ack, now), file, rehearsal: true })}\n`);
    else io.stdout(`would ack ${ackLine(ack, now)}\n`);
    return ok(EXIT.ok);
  }
  const saved = await store.save(added.value.book);
  if (saved.isErr()) return unsaved(saved.error.message);
  if (flags.json === true) io.stdout(`${JSON.stringify({ ack: ackJson(ack, now), file })}\n`);
  else io.stdout(`acked ${ackLine(ack, now)}\n`);
  return ok(EXIT.ok);
}

/** `heartbeat-kit ack`: acknowledge a finding (or list the acks). */
export const ackCommand = defineCommand(
  {
    name: 'ack',
    usage: `SELECTOR --note TEXT [--for DURATION | --until ISO] [--snooze] [options]
       heartbeat-kit ack --list [--json]`,
    description: `Acknowledges a finding: while it is unchanged and the ack has not ended, cycles do not report it
(stdout may say HEARTBEAT_OK; stderr says "held by ack", --json lists it under "suppressed" with
held: "ack", who, when, the note and the end, and 'history' shows it). When the finding's
content changes (the content the repeat schedule compares), the ack ends for it and the next
cycle reports it at once.

SELECTOR is a finding id as reports and 'cycle --json' print it (hbf-…), a fingerprint
(CATEGORY:SUBJECT, e.g. GIT_STALE:feature-x), or a bare CATEGORY (every finding of it). It must
name a finding the last cycle knows or a category of the category table.`,
    flags: ACK_FLAGS,
    // The count is checked by the body: --list takes none, an ack exactly one.
    positionals: { max: Number.POSITIVE_INFINITY, fix: '' },
    exitCodes: [
      [EXIT.ok, 'acknowledged (or listed)'],
      [
        EXIT.usage,
        'usage error (no note, a note over 500 characters, an unknown selector, a duration that is not only a duration, an --until not after now; nothing is written)',
      ],
      [EXIT.failure, 'the ack file cannot be read or written'],
    ],
  },
  (input) => {
    const nowFlag = parseInstantFlag('--now', input.flags.now);
    if (nowFlag.isErr()) return Promise.resolve(usageFailure(nowFlag.error));
    const now = commandClock(input.io, nowFlag.value).now();
    // An ack at another instant is a rehearsal, like `cycle --now`: a written ack would hold findings for real runs.
    return input.flags.list === true ? listAcks(input, now) : addOneAck(input, now, nowFlag.value !== undefined);
  },
);

/** `heartbeat-kit unack`: remove acks. */
export const unackCommand = defineCommand(
  {
    name: 'unack',
    usage: 'SELECTOR [options]',
    description: `Removes acks: SELECTOR is an ack id (ack-…, see 'heartbeat-kit ack --list') or the selector,
fingerprint or category an ack was written with. The next cycle decides those findings as usual.`,
    flags: {
      cwd: CWD_FLAG,
      state: { type: 'string', value: 'FILE', help: "the state file beside which the acks live (default: as 'cycle')" },
      json: { type: 'boolean', help: 'print {"removed": […]}' },
    },
    positionals: { max: Number.POSITIVE_INFINITY, fix: '' },
    exitCodes: [
      [EXIT.ok, 'removed'],
      [EXIT.usage, 'usage error (no ack matches SELECTOR; nothing is written)'],
      [EXIT.failure, 'the ack file cannot be read or written'],
    ],
  },
  async ({ flags, positionals, io }) => {
    if (positionals.length !== 1)
      return usageFailure(
        `one SELECTOR expected, got ${positionals.length}. Fix: e.g. heartbeat-kit unack GIT_STALE:feature-x (see 'heartbeat-kit ack --list').`,
      );
    const located = await locateState(io, flags);
    if (located.isErr()) return usageFailure(located.error);
    const store = createFileAckStore({ path: ackPathFor(located.value.statePath) });
    const loaded = await store.load();
    if (loaded.isErr()) return unreadable(loaded.error.message);
    const removed = removeAcks(loaded.value.book, positionals[0] as string);
    if (removed.isErr()) return usageFailure(`SELECTOR ${removed.error.message}`);
    const saved = await store.save(removed.value.book);
    if (saved.isErr()) return unsaved(saved.error.message);
    const now = commandClock(io, undefined).now();
    if (flags.json === true) io.stdout(`${JSON.stringify({ removed: removed.value.removed.map((a) => ackJson(a, now)) })}\n`);
    else for (const ack of removed.value.removed) io.stdout(`unacked ${ackLine(ack, now)}\n`);
    return ok(EXIT.ok);
  },
);
