import {
  type CommandOutput,
  type CommandRunner,
  type Finding,
  sanitizeForMessage,
  type ScanContext,
  type Scanner,
  scanOk,
  type ScanResult,
  type ScanWarning,
} from '@heartbeat-kit/core';
import { type OpenSpool, type OutputSpool, readConfigSection, type ReplyInbox, type SpoolText } from '@heartbeat-kit/core/host';
import type { FileExists } from '../file-exists.js';
import { firstStderrLine, guardScan, runTool, skipped, type DurationMeter, type ToolOutcome } from '../scanner-support.js';
import { settleSpools, withInbox, withWarnings } from './gchat-inbox-result.js';
import { judgeRefused, judgeSpool, type SpoolVerdict } from './judge-spool.js';
import { parseGChatPoll, type GChatReply } from './parse-gchat-poll.js';
import { createCoBuilderFinding } from '../categories/cobuilder-categories.js';
import { GCHAT_CONFIG } from './gchat-config.js';

/** Dependencies of {@link createGChatScanner}. */
export interface GChatScannerDeps {
  readonly runner: CommandRunner;
  /** Project directory (`$CLAUDE_PROJECT_DIR`). */
  readonly cwd: string;
  readonly fileExists: FileExists;
  /** Interpreter for the project script (default `python3`). */
  readonly python?: string;
  /**
   * Makes each reply durable the moment the poll's output is read (the poller marks replies
   * answered as it hands them out, so a cycle killed before saving its state would lose them);
   * the scanner then reports everything the inbox holds, replies read by killed cycles included.
   */
  readonly inbox?: ReplyInbox;
  /**
   * With `inbox`: the poll's stdout goes straight into a spool file (the kernel writes it even if
   * the cycle is SIGKILLed the moment the poller exits); its replies move into the inbox before
   * the spool is removed, and each scan first recovers the spools killed cycles left behind.
   */
  readonly spool?: OutputSpool;
}

/** Where the project keeps the poll script, relative to the project directory. */
export const GCHAT_POLL_SCRIPT = '.claude/scripts/gchat-poll-replies.py';

/** Where the AskUserQuestion hook leaves one marker per question forwarded to GChat (cobuilder.md §6.6). */
const GCHAT_MARKER_DIR = '.claude/state/gchat-forwarded-ask';

/** The warning code of the poll script's exit 2. */
export const GCHAT_NO_CREDENTIALS = 'GCHAT_NO_CREDENTIALS';

const GCHAT_POLL_SCRIPT_MISSING = 'GCHAT_POLL_SCRIPT_MISSING';

/** Where the reference's poll script keeps its OAuth2 token (cobuilder.md §6.6). */
const GCHAT_TOKEN_FILE = '.claude/credentials/google-chat-token.json';

/**
 * Exit 2 is the poll script's "no credentials" — but Python itself also exits 2 when the script
 * file does not exist ("can't open file") and argparse exits 2 on a bad argument. Those must not be
 * reported as missing credentials: the fix is a different one.
 */
function classifyExit2(stderr: string, configured: boolean): ScanWarning | undefined {
  if (/can't open file|No such file or directory/i.test(stderr)) {
    return {
      code: GCHAT_POLL_SCRIPT_MISSING,
      message: `GChat poll script not found: ${firstStderrLine(stderr)}`,
      fix: configured ? 'correct the script path in "Poll command:" under "## GChat" in HEARTBEAT.md' : `restore ${GCHAT_POLL_SCRIPT}`,
    };
  }
  if (/^usage:|: error: (?:unrecognized arguments|argument|the following arguments)/im.test(stderr)) {
    return {
      code: 'GCHAT_POLL_FAILED',
      message: `GChat poll rejected its arguments: ${firstStderrLine(stderr)}`,
      fix: 'correct the arguments of "Poll command:" under "## GChat" in HEARTBEAT.md',
    };
  }
  return undefined;
}

/** The GCHAT_REPLY_RECEIVED finding of one reply: question id, session, reply text and sender as list lines (spec 000's format; subject = question id). */
export function gchatReplyFinding(reply: GChatReply): Finding {
  const q = sanitizeForMessage(reply.questionId, { maxLength: 120 });
  const session = sanitizeForMessage(reply.sessionId, { maxLength: 120 });
  const text = sanitizeForMessage(reply.replyText, { maxLength: 500 }).replace(/"/g, "'");
  const from = sanitizeForMessage(reply.senderName, { maxLength: 80 });
  return createCoBuilderFinding({
    category: 'GCHAT_REPLY_RECEIVED',
    subject: reply.questionId,
    // A list item under the category heading the renderer prints once (one heading for all replies; spec 000).
    line: `- Question ID: ${q}\n  Session: ${session}\n  Reply: "${text}"\n  From: ${from}`,
    action: `Process ${from}'s answer to question ${q} (session ${session})`,
    short: `reply from ${from}`,
    details: {
      questionId: reply.questionId,
      sessionId: reply.sessionId,
      replyText: reply.replyText,
      senderName: reply.senderName,
      ...(reply.repliedAt === undefined ? {} : { repliedAt: reply.repliedAt }),
      ...(reply.threadName === undefined ? {} : { threadName: reply.threadName }),
    },
  });
}

function joinPath(dir: string, relative: string): string {
  return dir.endsWith('/') ? `${dir}${relative}` : `${dir}/${relative}`;
}

const NAME = 'gchat';

/** What one scan carries from step to step: the poll's spool, what came through it and its warnings. */
interface PollState {
  readonly meter: DurationMeter;
  readonly spool: OutputSpool | undefined;
  readonly verdicts: SpoolVerdict[];
  readonly spoolWarnings: ScanWarning[];
  /** Read back from the spool and not yet judged (a poll that failed, timed out or printed garbage). */
  spooled: ({ readonly id: string } & SpoolText) | undefined;
  /** The poll's replies as findings. */
  received: readonly Finding[];
  /** The poll's replies came through a spool: they are among the verdicts. */
  pollSpooled: boolean;
}

/** The command that polls, and whether the user set it up (then whatever keeps it from running is a warning). */
interface PollCommand {
  readonly file: string;
  readonly args: readonly string[];
  readonly configured: boolean;
}

/** The skip when neither a poll command nor the project's script exists. */
async function noPollScript(deps: GChatScannerDeps, meter: DurationMeter): Promise<ScanResult> {
  // Questions forwarded to GChat (the hook's marker directory) with no way to poll the replies:
  // replies would go unread. Without markers the project simply does not use GChat.
  const forwarded = await deps.fileExists(joinPath(deps.cwd, GCHAT_MARKER_DIR));
  return {
    ...skipped(NAME, `no poll command configured and ${GCHAT_POLL_SCRIPT} not found`, meter),
    configured: forwarded,
    fix: forwarded
      ? `questions are forwarded to GChat (${GCHAT_MARKER_DIR}) but nothing polls the replies: restore ${GCHAT_POLL_SCRIPT} or set "Poll command:" under "## GChat" in HEARTBEAT.md`
      : `add ${GCHAT_POLL_SCRIPT} or set "Poll command:" under "## GChat" in HEARTBEAT.md`,
  };
}

/** HEARTBEAT.md's poll command, else the project's script; a skip when there is none. */
async function pollCommand(
  deps: GChatScannerDeps,
  fromConfig: readonly string[] | undefined,
  meter: DurationMeter,
): Promise<PollCommand | ScanResult> {
  let argv = fromConfig;
  // A poll command in HEARTBEAT.md, or the project's own script, means the user relies on GChat:
  // whatever keeps it from running is then a warning every cycle, not a quiet skip.
  const configured = argv !== undefined;
  if (argv === undefined) {
    const script = joinPath(deps.cwd, GCHAT_POLL_SCRIPT);
    if (!(await deps.fileExists(script))) return noPollScript(deps, meter);
    argv = [deps.python ?? 'python3', script];
  }
  const [file, ...args] = argv;
  if (file === undefined)
    return {
      ...skipped(NAME, 'empty poll command', meter),
      configured: true,
      fix: 'give "Poll command:" under "## GChat" in HEARTBEAT.md a command, or remove the key',
    };
  return { file, args, configured };
}

/** A spool for the poll's stdout, or none (polled through memory, with a warning, when it cannot be opened). */
async function openPollSpool(state: PollState): Promise<OpenSpool | undefined> {
  if (state.spool === undefined) return undefined;
  const o = await state.spool.open();
  if (o.isOk()) return o.value;
  state.spoolWarnings.push({
    code: 'GCHAT_SPOOL_UNWRITABLE',
    message: `${o.error.message}; polled through memory, so a cycle killed now would lose the replies`,
    fix: 'make the directory of the state file writable (and give it free space)',
  });
  return undefined;
}

/** The child has exited: flush and read back what it printed; the spool stays until the inbox has it. */
async function collectPollSpool(opened: OpenSpool, state: PollState): Promise<void> {
  const collected = await opened.collect();
  if (collected.isOk()) state.spooled = { id: opened.id, ...collected.value };
  else
    state.spoolWarnings.push({
      code: 'GCHAT_SPOOL_UNREADABLE',
      message: `${collected.error.message}; the next cycle reads it again`,
      fix: 'check the disk and file system of the state directory (the spool could not be flushed or read back)',
    });
}

/** Runs the poll, its stdout into a spool when there is one. */
async function runPoll(deps: GChatScannerDeps, command: PollCommand, signal: AbortSignal, state: PollState): Promise<ToolOutcome> {
  const opened = await openPollSpool(state);
  const request = {
    file: command.file,
    args: command.args,
    cwd: deps.cwd,
    env: { CLAUDE_PROJECT_DIR: deps.cwd },
    profile: 'gchat' as const,
    ...(opened === undefined ? {} : { stdoutTo: opened.stdout }),
  };
  return runTool(deps.runner, request, signal, state.meter).finally(async () => {
    if (opened !== undefined) await collectPollSpool(opened, state);
  });
}

/** The result of a poll that exited non-zero (exit 2: no credentials, a missing script or bad arguments); undefined on exit 0. */
function exitResult(output: CommandOutput, configured: boolean, meter: DurationMeter): ScanResult | undefined {
  if (output.exitCode === 2) {
    const exit2 = classifyExit2(output.stderr, configured);
    if (exit2?.code === GCHAT_POLL_SCRIPT_MISSING)
      return { ...skipped(NAME, exit2.message, meter), configured: true, ...(exit2.fix === undefined ? {} : { fix: exit2.fix }) };
    if (exit2 !== undefined) return scanOk(NAME, { warnings: [exit2], durationMs: meter.ms });
    return scanOk(NAME, {
      warnings: [
        {
          code: GCHAT_NO_CREDENTIALS,
          message: 'No OAuth2 credentials configured for GChat polling',
          fix: `put a valid token in ${GCHAT_TOKEN_FILE} (the poll script's OAuth2 token)`,
        },
      ],
      durationMs: meter.ms,
    });
  }
  if (output.exitCode === 0) return undefined;
  return scanOk(NAME, {
    warnings: [
      {
        code: 'GCHAT_POLL_FAILED',
        message: `GChat poll exited ${output.exitCode}: ${firstStderrLine(output.stderr)}`,
        fix: 'run the poll command by hand in the project directory to see why it fails',
      },
    ],
    durationMs: meter.ms,
  });
}

/** The replies of a poll that exited 0, from its spool or from its stdout. */
function pollReplies(output: CommandOutput, state: PollState): ScanResult {
  const { meter } = state;
  if (state.spooled !== undefined) {
    // Read back from the spool, at most the output cap of it: judged like a leftover (whole
    // replies kept, the rest set aside with a warning naming the file, the sizes and the offsets).
    const verdict = judgeSpool(state.spooled.id, state.spooled);
    state.verdicts.push(verdict);
    state.received = verdict.replies.map(gchatReplyFinding);
    state.spooled = undefined;
    state.pollSpooled = true;
    return scanOk(NAME, { findings: state.received, durationMs: meter.ms });
  }
  const poll = parseGChatPoll(output.stdout);
  if (poll.isErr()) {
    return scanOk(NAME, {
      warnings: [
        {
          code: 'GCHAT_POLL_UNREADABLE',
          // Our own words and a byte offset: the output may be anything.
          message: `GChat poll output unreadable: ${poll.error.message}`,
          fix: 'run the poll command by hand in the project directory: its stdout must be the poll JSON',
        },
      ],
      durationMs: meter.ms,
    });
  }
  state.received = poll.value.replies.map(gchatReplyFinding);
  return scanOk(NAME, { findings: state.received, durationMs: meter.ms });
}

/** One poll: the command, its run, and what its exit code and output mean. */
async function pollGChat(deps: GChatScannerDeps, ctx: ScanContext, state: PollState): Promise<ScanResult> {
  const { meter } = state;
  const command = await pollCommand(deps, readConfigSection(GCHAT_CONFIG, ctx.config).gchatPollCommand, meter);
  if ('status' in command) return command;
  const outcome = await runPoll(deps, command, ctx.signal, state);
  if (outcome.kind === 'missing')
    return {
      ...skipped(NAME, outcome.reason, meter),
      configured: true,
      fix: `install ${command.file} or put it on the PATH heartbeat-kit runs with`,
    };
  if (outcome.kind === 'failed')
    return scanOk(NAME, { warnings: [{ code: 'GCHAT_POLL_FAILED', message: outcome.reason }], durationMs: meter.ms });
  const output = state.spooled === undefined ? outcome.output : { ...outcome.output, stdout: state.spooled.text };
  return exitResult(output, command.configured, meter) ?? pollReplies(output, state);
}

/** The verdicts on the spools killed cycles left behind (first: their replies are older than this poll's), or a warning. */
async function judgeLeftovers(listing: ReturnType<OutputSpool['leftovers']> | undefined, state: PollState): Promise<void> {
  const left = await listing;
  if (left?.isOk() === true)
    state.verdicts.unshift(...left.value.spools.map((l) => judgeSpool(l.id, l)), ...left.value.refused.map(judgeRefused));
  else if (left?.isErr() === true)
    state.spoolWarnings.unshift({
      code: 'GCHAT_SPOOL_UNREADABLE',
      message: `${left.error.message}; replies read by a killed cycle may be waiting there`,
      fix: 'make the directory of the state file readable',
    });
}

/** Puts every reply (the leftovers', then this poll's) into the inbox, settles the spools, and reports what the inbox holds. */
async function deliverThroughInbox(
  inbox: ReplyInbox,
  polled: ScanResult,
  listing: ReturnType<OutputSpool['leftovers']> | undefined,
  state: PollState,
  now: Date,
): Promise<ScanResult> {
  const { spool, verdicts } = state;
  if (state.spooled !== undefined) verdicts.push(judgeSpool(state.spooled.id, state.spooled));
  // Leftovers go first: their replies are older than this poll's.
  await judgeLeftovers(listing, state);
  // The poll's own replies are among the verdicts when they came through a spool.
  const added = await inbox.add(
    [...verdicts.flatMap((v) => v.replies.map(gchatReplyFinding)), ...(state.pollSpooled ? [] : state.received)],
    now,
  );
  // Until the inbox holds a spool's replies the spool is their only copy; one without replies is settled anyway,
  // so an unreadable spool is set aside once instead of being read again every cycle.
  const settling = added.isOk() ? verdicts : verdicts.filter((v) => v.replies.length === 0);
  const settled = spool !== undefined ? await settleSpools(spool, settling) : [];
  return withWarnings(withInbox(polled, added), [...state.spoolWarnings, ...settled]);
}

/**
 * Scan target 6: polls GChat replies through `config.gchatPollCommand`, else the project's
 * `python3 .claude/scripts/gchat-poll-replies.py` when it exists, else skips. Replies become
 * GCHAT_REPLY_RECEIVED; exit 2 is a "no credentials" warning and any other failure an ok result
 * with a warning: GChat is non-critical, its failure is a warning, never a finding (spec 000). Runs outside active hours too.
 *
 * @example
 * ```ts
 * import { createGChatScanner } from '@heartbeat-kit/scanners';
 * import { createProcessRunner } from '@heartbeat-kit/core/node';
 * import { nodeFileExists } from '@heartbeat-kit/scanners/node';
 *
 * // Runs .claude/scripts/gchat-poll-replies.py (or HEARTBEAT.md's GChat → Poll command) when present.
 * const scanner = createGChatScanner({ runner: createProcessRunner(), cwd: process.cwd(), fileExists: nodeFileExists });
 * ```
 */
export function createGChatScanner(deps: GChatScannerDeps): Scanner {
  return {
    name: NAME,
    runsOutsideActiveHours: true,
    scan: async (ctx) => {
      const inbox = deps.inbox;
      const state: PollState = {
        meter: { ms: 0 },
        spool: inbox === undefined ? undefined : deps.spool,
        verdicts: [],
        spoolWarnings: [],
        spooled: undefined,
        received: [],
        pollSpooled: false,
      };
      // Spools of killed cycles: what their pollers printed is in no other place. Listed while the
      // poll runs (never waited for first: the poll is the cycle's slowest process, so it starts
      // before anything else of this scan); the listing never holds this poll's own spool.
      const listing = state.spool?.leftovers();
      const polled = await guardScan(NAME, state.meter, () => pollGChat(deps, ctx, state));
      if (inbox === undefined) return polled;
      return deliverThroughInbox(inbox, polled, listing, state, ctx.now);
    },
  };
}
