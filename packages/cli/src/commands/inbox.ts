import { isAbsolute, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { claimAgentInbox, listAgentInbox, type AgentInboxProblem } from '@heartbeat-kit/core/node';
import { EXIT } from '../exit-codes.js';
import type { CliIo, Command } from '../io.js';
import {
  CONTEXT_HOOK_EVENTS,
  isContextHookEvent,
  parseHookInput,
  renderDrain,
  selectForDrain,
  type ContextHookEvent,
  type DrainFormat,
} from '../inbox/drain-output.js';

/** Help text of `heartbeat-kit inbox`. */
export const INBOX_HELP = `Usage: heartbeat-kit inbox drain DIR [--format claude-hook|text|json] [options]
       heartbeat-kit inbox list DIR [--json]

An agent inbox is a directory that '--sink inbox:DIR' fills: one file per message id, written
durably, kept until a drain prints it.

drain   prints what is waiting, then marks exactly what it printed as delivered (after the
        output left the process). Killed in between, the next drain prints the same ids again:
        a message is never lost, and an id already delivered is never printed again.
        --format claude-hook (default): run as a Claude Code UserPromptSubmit or SessionStart
        hook. Reads the hook's JSON on stdin (its hook_event_name is answered), prints
        {"hookSpecificOutput": {"hookEventName": …, "additionalContext": …}}, or nothing when
        nothing waits. Never exits 2 (Claude Code would block the prompt).
        --format text: the messages as text, each headed by its id (nothing when none wait).
        --format json: {"messages": [{id, kind, at, cycle, summary, content}], "waiting": N}.
list    prints what is waiting without marking anything.

Options:
  --format F         drain's output: claude-hook (default), text or json
  --event NAME       claude-hook: answer this event instead of reading stdin
                     (${CONTEXT_HOOK_EVENTS.join(' or ')})
  --max-chars N      print messages while their text fits N characters (default 9000: Claude
                     Code shows longer context only as a preview); the first always prints,
                     the rest wait for the next drain
  --json             list: print {"messages": [...], "problems": [...]}
  -h, --help         show this help

Files in DIR that are not messages are left untouched and named on stderr.

Exit codes: 0 printed (also when nothing waits), 2 usage error (text and json formats), 3 the
inbox cannot be read or marked (claude-hook: every error), printed messages stay waiting.
`;

const OPTIONS = {
  format: { type: 'string' },
  event: { type: 'string' },
  'max-chars': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const FORMATS: readonly DrainFormat[] = ['claude-hook', 'text', 'json'];

function warnProblems(io: CliIo, problems: readonly AgentInboxProblem[]): void {
  for (const problem of problems) io.stderr(`heartbeat-kit inbox: warning: ${problem.message}\n`);
}

/** `heartbeat-kit inbox drain|list DIR`. */
export const inboxCommand: Command = async (argv, io) => {
  // A Claude Code hook that exits 2 blocks the user's prompt: in hook mode every error is 3.
  const hookMode = !argv.some((arg, i) => (arg === '--format' && argv[i + 1] !== 'claude-hook') || /^--format=(?!claude-hook$)/.test(arg));
  const usage = (message: string): number => {
    io.stderr(`heartbeat-kit inbox: ${message}\n`);
    return hookMode && argv[0] === 'drain' ? EXIT.failure : EXIT.usage;
  };
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: true });
  } catch (error) {
    return usage(`${(error as Error).message}. Fix: see 'heartbeat-kit inbox --help'.`);
  }
  const { values, positionals } = parsed;
  if (values.help === true) {
    io.stdout(INBOX_HELP);
    return EXIT.ok;
  }
  const [action, dir, ...extra] = positionals;
  if (action !== 'drain' && action !== 'list')
    return usage(
      `${action === undefined ? 'no action' : `unknown action "${action}"`}. Fix: heartbeat-kit inbox drain DIR, or inbox list DIR.`,
    );
  if (dir === undefined || dir === '') return usage(`${action} needs the inbox directory. Fix: heartbeat-kit inbox ${action} DIR`);
  if (extra.length > 0) return usage(`unexpected argument "${extra[0]}". Fix: one DIR only.`);
  const directory = isAbsolute(dir) ? dir : resolve(io.cwd, dir);
  return action === 'list' ? list(io, directory, values.json === true) : drain(io, directory, values, usage);
};

async function list(io: CliIo, directory: string, json: boolean): Promise<number> {
  const listed = await listAgentInbox(directory);
  if (listed.isErr()) return usageOrFailure(io, listed.error.kind, listed.error.message, EXIT.usage);
  const { waiting, problems, exists } = listed.value;
  warnProblems(io, problems);
  if (json) {
    const messages = waiting.map(({ id, message }) => ({ id, kind: message.kind, at: message.at, summary: message.summary }));
    io.stdout(`${JSON.stringify({ messages, problems, exists })}\n`);
  } else if (!exists)
    // Said apart from "nothing waiting": a mistyped DIR must not read as an empty inbox.
    io.stdout(
      `no inbox at ${directory} yet: nothing was ever delivered there (the inbox sink creates it on its first delivery; check the path)\n`,
    );
  else if (waiting.length === 0) io.stdout(`nothing waiting in ${directory}\n`);
  else for (const { id, message } of waiting) io.stdout(`${message.at}  ${id}  ${message.kind}  ${message.summary}\n`);
  return EXIT.ok;
}

function usageOrFailure(io: CliIo, kind: 'not-a-directory' | 'io', message: string, usageCode: number): number {
  io.stderr(`heartbeat-kit inbox: ${message}\n`);
  return kind === 'not-a-directory' ? usageCode : EXIT.failure;
}

async function drain(
  io: CliIo,
  directory: string,
  values: { format?: string; event?: string; 'max-chars'?: string },
  usage: (message: string) => number,
): Promise<number> {
  const format = (values.format ?? 'claude-hook') as DrainFormat;
  if (!FORMATS.includes(format)) return usage(`--format "${values.format}" is unknown. Fix: --format claude-hook, text or json.`);
  const maxChars = values['max-chars'] === undefined ? 9000 : Number(values['max-chars']);
  if (!Number.isSafeInteger(maxChars) || maxChars < 1)
    return usage(`--max-chars "${values['max-chars']}" is not a positive whole number. Fix: e.g. --max-chars 9000.`);
  let event: ContextHookEvent = 'UserPromptSubmit';
  if (format === 'claude-hook') {
    let name = values.event;
    if (name === undefined) {
      const input = parseHookInput((await io.stdin?.()) ?? '');
      if (!input.ok)
        return usage(`${input.message}. Fix: run it as a Claude Code hook (it sends JSON on stdin), or pass --event UserPromptSubmit.`);
      name = input.event;
    }
    if (!isContextHookEvent(name)) {
      // Another event cannot add context: print nothing and take nothing, so nothing is lost.
      io.stderr(
        `heartbeat-kit inbox: hook event "${name}" cannot add context; nothing drained. Fix: use it as a ${CONTEXT_HOOK_EVENTS.join(' or ')} hook.\n`,
      );
      return values.event === undefined ? EXIT.ok : usage(`--event must be ${CONTEXT_HOOK_EVENTS.join(' or ')}.`);
    }
    event = name;
  }
  const claimed = await claimAgentInbox(directory);
  if (claimed.isErr())
    return usageOrFailure(io, claimed.error.kind, claimed.error.message, format === 'claude-hook' ? EXIT.failure : EXIT.usage);
  const claim = claimed.value;
  warnProblems(io, claim.problems);
  const selection = selectForDrain(claim.waiting, maxChars);
  const printedIds = new Set(selection.printed.map((m) => m.id));
  const unprinted = claim.waiting.filter((m) => !printedIds.has(m.id)).map((m) => m.id);
  const output = renderDrain(format, selection, event);
  if (output !== '') io.stdout(output);
  try {
    await io.flushStdout?.();
  } catch (error) {
    // Not handed over: nothing is marked; the claims go back (or the next drain takes them back).
    await claim.release(claim.waiting.map((m) => m.id));
    io.stderr(`heartbeat-kit inbox: the output did not leave (${(error as Error).message}); nothing marked, the messages stay waiting.\n`);
    return EXIT.failure;
  }
  const marked = await claim.markDelivered([...printedIds]);
  const released = await claim.release(unprinted);
  for (const result of [marked, released])
    if (result.isErr()) {
      io.stderr(`heartbeat-kit inbox: ${result.error.message}; the next drain prints these messages again.\n`);
      return EXIT.failure;
    }
  return EXIT.ok;
}
