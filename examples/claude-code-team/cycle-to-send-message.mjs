#!/usr/bin/env node
// Turns heartbeat-kit output into SendMessage calls for a Claude Code team lead.
//
//   heartbeat-kit cycle --json | node cycle-to-send-message.mjs [--to team-lead]
//   node cycle-to-send-message.mjs --to team-lead < .heartbeat/outbox.jsonl
//
// Input: the JSON of `heartbeat-kit cycle --json` (a quiet cycle gives no output at all: zero
// tokens), `heartbeat-kit loop --json` lines, or the JSONL a `--sink file:` writes. Output: one
// line per message, the SendMessage tool input: {"type":"message","recipient",...,"content","summary"}.
// Exit 1 when the input is not heartbeat-kit output.
import { argv, exit, stderr, stdin, stdout } from 'node:process';

const toAt = argv.indexOf('--to');
const recipient = toAt === -1 ? 'team-lead' : argv[toAt + 1];
if (recipient === undefined || recipient === '' || recipient.startsWith('-')) {
  stderr.write('cycle-to-send-message: --to needs a team member name\n');
  exit(2);
}

/** @param {unknown} value @returns {{ content: string, summary: string } | null | undefined} null = quiet, undefined = not ours */
function messageOf(value) {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = /** @type {Record<string, unknown>} */ (value);
  // `cycle --json` (and `loop --json` cycle lines): the message is set only when the cycle reported.
  if (typeof v.status === 'string' && 'message' in v) {
    if (v.type === 'cycle') return null; // the loop prints the message itself as a separate line
    const m = /** @type {{ content?: unknown, summary?: unknown } | null} */ (v.message);
    return m !== null && typeof m.content === 'string' && typeof m.summary === 'string' ? { content: m.content, summary: m.summary } : null;
  }
  if (v.status === 'skipped' || v.type === 'summary') return null;
  // A delivered message: `loop --json` message lines and `--sink file:` JSONL.
  if (typeof v.kind === 'string' && typeof v.content === 'string' && typeof v.summary === 'string')
    return { content: v.content, summary: v.summary };
  return undefined;
}

let text = '';
for await (const chunk of stdin) text += chunk;
const lines = text.split('\n').filter((line) => line.trim() !== '');
let bad = 0;
for (const line of lines) {
  let parsed;
  try {
    parsed = JSON.parse(line);
  } catch {
    bad++;
    continue;
  }
  const message = messageOf(parsed);
  if (message === undefined) bad++;
  else if (message !== null)
    stdout.write(`${JSON.stringify({ type: 'message', recipient, content: message.content, summary: message.summary })}\n`);
}
if (bad > 0) {
  stderr.write(
    `cycle-to-send-message: ${bad} input line(s) are not heartbeat-kit JSON (use cycle --json, loop --json or a --sink file: outbox)\n`,
  );
  exit(1);
}
