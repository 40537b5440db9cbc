import { isAbsolute, resolve } from 'node:path';
import { claimAgentInbox, listAgentInbox, type AgentInboxProblem } from '@heartbeat-kit/core/node';
import { ok, type Result } from 'neverthrow';
import { commandFailure, defineCommand, usageFailure, type CommandFailure, type DeclaredCommand } from '../cli-kernel/index.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import {
  CONTEXT_HOOK_EVENTS,
  isContextHookEvent,
  parseHookInput,
  renderDrain,
  selectForDrain,
  type ContextHookEvent,
  type DrainFormat,
} from '../inbox/drain-output.js';

type Outcome = Result<ExitCode, CommandFailure>;

const FORMATS: readonly DrainFormat[] = ['claude-hook', 'text', 'json'];

const FLAGS = {
  format: { type: 'string', value: 'F', help: "drain's output: claude-hook (default), text or json" },
  event: {
    type: 'string',
    value: 'NAME',
    help: `claude-hook: answer this event instead of reading stdin\n(${CONTEXT_HOOK_EVENTS.join(' or ')})`,
  },
  'max-chars': {
    type: 'string',
    value: 'N',
    help: `print messages while their text fits N characters (default 9000: Claude
Code shows longer context only as a preview); the first always prints,
the rest wait for the next drain`,
  },
  json: { type: 'boolean', help: 'list: print {"messages": [...], "problems": [...]}' },
} as const;

function warnProblems(io: CliIo, problems: readonly AgentInboxProblem[]): void {
  for (const problem of problems) io.stderr(`heartbeat-kit inbox: warning: ${problem.message}\n`);
}

async function list(io: CliIo, directory: string, json: boolean): Promise<Outcome> {
  const listed = await listAgentInbox(directory);
  if (listed.isErr()) return usageOrFailure(listed.error.kind, listed.error.message);
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
  return ok(EXIT.ok);
}

// A DIR that is not a directory is the user's to fix (hook mode turns that into 3 as well, see below).
function usageOrFailure(kind: 'not-a-directory' | 'io', message: string): Outcome {
  return kind === 'not-a-directory' ? usageFailure(message) : commandFailure(message);
}

async function drain(io: CliIo, directory: string, values: { format?: string; event?: string; 'max-chars'?: string }): Promise<Outcome> {
  const usage = usageFailure;
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
      if (input.isErr())
        return usage(`${input.error}. Fix: run it as a Claude Code hook (it sends JSON on stdin), or pass --event UserPromptSubmit.`);
      name = input.value;
    }
    if (!isContextHookEvent(name)) {
      // Another event cannot add context: print nothing and take nothing, so nothing is lost.
      io.stderr(
        `heartbeat-kit inbox: hook event "${name}" cannot add context; nothing drained. Fix: use it as a ${CONTEXT_HOOK_EVENTS.join(' or ')} hook.\n`,
      );
      return values.event === undefined ? ok(EXIT.ok) : usage(`--event must be ${CONTEXT_HOOK_EVENTS.join(' or ')}.`);
    }
    event = name;
  }
  const claimed = await claimAgentInbox(directory);
  if (claimed.isErr()) return usageOrFailure(claimed.error.kind, claimed.error.message);
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
    return commandFailure(`the output did not leave (${(error as Error).message}); nothing marked, the messages stay waiting.`);
  }
  const marked = await claim.markDelivered([...printedIds]);
  const released = await claim.release(unprinted);
  for (const result of [marked, released])
    if (result.isErr()) return commandFailure(`${result.error.message}; the next drain prints these messages again.`);
  return ok(EXIT.ok);
}

const declared = defineCommand(
  {
    name: 'inbox',
    usage: `drain DIR [--format claude-hook|text|json] [options]
       heartbeat-kit inbox list DIR [--json]`,
    description: `An agent inbox is a directory that '--sink inbox:DIR' fills: one file per message id, written
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
list    prints what is waiting without marking anything.`,
    flags: FLAGS,
    // ACTION DIR, checked by the body so each mistake gets its own fix.
    positionals: { max: Number.POSITIVE_INFINITY, fix: '' },
    notes: 'Files in DIR that are not messages are left untouched and named on stderr.',
    exitCodes: [
      [EXIT.ok, 'printed (also when nothing waits)'],
      [EXIT.usage, 'usage error (text and json formats)'],
      [EXIT.failure, 'the inbox cannot be read or marked (claude-hook: every error), printed messages stay waiting'],
    ],
  },
  async ({ flags, positionals, io }) => {
    const [action, dir, ...extra] = positionals;
    if (action !== 'drain' && action !== 'list')
      return usageFailure(
        `${action === undefined ? 'no action' : `unknown action "${action}"`}. Fix: heartbeat-kit inbox drain DIR, or inbox list DIR.`,
      );
    if (dir === undefined || dir === '') return usageFailure(`${action} needs the inbox directory. Fix: heartbeat-kit inbox ${action} DIR`);
    if (extra.length > 0) return usageFailure(`unexpected argument "${extra[0]}". Fix: one DIR only.`);
    const directory = isAbsolute(dir) ? dir : resolve(io.cwd, dir);
    return action === 'list' ? list(io, directory, flags.json === true) : drain(io, directory, flags);
  },
);

/** A drain run as a Claude Code hook: the default format, or `--format claude-hook`. */
function isHookDrain(argv: readonly string[]): boolean {
  const otherFormat = argv.some(
    (arg, i) => (arg === '--format' && argv[i + 1] !== 'claude-hook') || /^--format=(?!claude-hook$)/.test(arg),
  );
  return argv[0] === 'drain' && !otherFormat;
}

/** `heartbeat-kit inbox drain|list DIR`. */
export const inboxCommand: DeclaredCommand<typeof FLAGS> = Object.assign(
  // A Claude Code hook that exits 2 blocks the user's prompt: in hook mode every error is 3.
  async (argv: readonly string[], io: CliIo) => {
    const code = await declared(argv, io);
    return code === EXIT.usage && isHookDrain(argv) ? EXIT.failure : code;
  },
  { spec: declared.spec },
);
