import { err, ok, type Result } from 'neverthrow';
import { z } from 'zod';
import { scanPollJson, utf8Length } from './scan-poll-json.js';

/** One human reply to a question that was forwarded to Google Chat. */
export interface GChatReply {
  readonly questionId: string;
  readonly sessionId: string;
  readonly replyText: string;
  readonly repliedAt?: string;
  /** The script's own fallback is `"unknown"`; kept here for output that lacks the key. */
  readonly senderName: string;
  readonly threadName?: string;
}

/** What one run of `gchat-poll-replies.py` reported. */
export interface GChatPoll {
  readonly replies: readonly GChatReply[];
  readonly pendingCount: number;
  readonly checkedAt?: string;
}

/**
 * Why the poll output could not be read: `offset` is the byte where the problem is, and `message`
 * is in words of our own (it names a place, never any of the text: the output may be anything).
 */
export interface GChatParseError {
  readonly kind: 'invalid-json' | 'unexpected-shape';
  readonly message: string;
  /** Byte offset (UTF-8) of the problem in the output. */
  readonly offset: number;
}

const replySchema = z.object({
  question_id: z.string(),
  session_id: z.string(),
  reply_text: z.string(),
  replied_at: z.string().nullish(),
  sender_name: z.string().nullish(),
  thread_name: z.string().nullish(),
});

const pollSchema = z.object({
  replies: z.array(replySchema),
  pending_count: z.number().int().min(0),
  checked_at: z.string().nullish(),
});

/** Parses the JSON the GChat poll script prints (`{replies, pending_count, checked_at?}`); unknown keys are ignored. */
export function parseGChatPoll(stdout: string): Result<GChatPoll, GChatParseError> {
  let value: unknown;
  try {
    value = JSON.parse(stdout);
  } catch {
    // JSON.parse's message quotes the text: never passed on.
    return err(syntaxError(stdout));
  }
  const parsed = pollSchema.safeParse(value);
  if (!parsed.success) return err(shapeError(stdout, parsed.error.issues[0]));
  const replies = parsed.data.replies.map(toReply);
  return ok({
    replies,
    pendingCount: parsed.data.pending_count,
    ...(parsed.data.checked_at == null ? {} : { checkedAt: parsed.data.checked_at }),
  });
}

function syntaxError(text: string): GChatParseError {
  if (text.trim() === '') return { kind: 'invalid-json', message: 'no output', offset: utf8Length(text) };
  const at = scanPollJson(text).errorAt ?? 0;
  const offset = utf8Length(text, at);
  return {
    kind: 'invalid-json',
    message: at >= text.length ? `JSON cut off at byte ${offset}` : `not valid JSON at byte ${offset}`,
    offset,
  };
}

type Issue = z.ZodError['issues'][number];

/** `replies[3].reply_text`: the path of an issue (the schema's own keys and indexes, nothing of the text). */
function describePath(path: readonly PropertyKey[]): string {
  return path.map((key, i) => (typeof key === 'number' ? `[${key}]` : `${i === 0 ? '' : '.'}${String(key)}`)).join('') || 'the output';
}

/** What was wrong, from the schema's side only (what was expected), never the value found. */
function describeIssue(issue: Issue | undefined): string {
  if (issue === undefined) return 'unexpected shape';
  if (issue.code === 'invalid_type') return `expected ${issue.expected}`;
  return issue.code.replace(/_/g, ' ');
}

function shapeError(text: string, issue: Issue | undefined): GChatParseError {
  const path = issue?.path ?? [];
  const [first, second] = path;
  const scan = scanPollJson(text);
  const at =
    first === 'replies' && typeof second === 'number'
      ? scan.replyStarts[second]
      : typeof first === 'string'
        ? scan.keyStarts.get(JSON.stringify(first))
        : undefined;
  const offset = utf8Length(text, at ?? 0);
  return { kind: 'unexpected-shape', message: `${describePath(path)}: ${describeIssue(issue)} at byte ${offset}`, offset };
}

function toReply(r: z.infer<typeof replySchema>): GChatReply {
  return {
    questionId: r.question_id,
    sessionId: r.session_id,
    replyText: r.reply_text,
    senderName: r.sender_name == null || r.sender_name === '' ? 'unknown' : r.sender_name,
    ...(r.replied_at == null ? {} : { repliedAt: r.replied_at }),
    ...(r.thread_name == null ? {} : { threadName: r.thread_name }),
  };
}

/** What could be read from a poll output that may be cut off or damaged. */
export interface SalvagedGChatPoll {
  readonly replies: readonly GChatReply[];
  /** The whole output parsed; false when some of it (a truncated last reply, a bad entry) was not read. */
  readonly complete: boolean;
  /** Byte offset just past the last reply read (the whole length when complete, 0 when none was read). */
  readonly readUpTo: number;
  /** When not complete: the first place that could not be read, in words of our own. */
  readonly problem?: { readonly offset: number; readonly message: string };
}

/** Where one complete element of the top-level "replies" array is: `[start, end)` in UTF-16 units. */
interface Span {
  readonly start: number;
  readonly end: number;
}

// Each complete object element of the top-level "replies" array, in order, up to where the text
// ends: a poller killed mid-print leaves a prefix whose whole replies must still count. Brace
// matching, not a validator, so an element after a damaged one is still found.
function completeReplyElements(text: string): Span[] {
  const elements: Span[] = [];
  let depth = 0;
  let inString = false;
  let escaped = false;
  let keyStart = -1;
  let lastKey: string | undefined;
  let inReplies = false;
  let elementStart = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charAt(i);
    if (inString) {
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === '"') {
        inString = false;
        if (keyStart >= 0) lastKey = text.slice(keyStart, i + 1);
      }
      continue;
    }
    switch (c) {
      case '"':
        inString = true;
        keyStart = depth === 1 && !inReplies ? i : -1;
        break;
      case '{':
      case '[':
        if (c === '[' && depth === 1 && !inReplies && lastKey === '"replies"') inReplies = true;
        else if (c === '{' && inReplies && depth === 2) elementStart = i;
        depth += 1;
        break;
      case '}':
      case ']':
        depth -= 1;
        if (inReplies && depth === 2 && c === '}' && elementStart >= 0) {
          elements.push({ start: elementStart, end: i + 1 });
          elementStart = -1;
        }
        if (inReplies && depth === 1) return elements;
        break;
      case ',':
        if (depth === 1) lastKey = undefined;
        break;
      default:
        break;
    }
  }
  return elements;
}

/** One element's reply, or what is wrong with it (from the schema's side). */
function readElement(text: string): { readonly reply: GChatReply } | { readonly wrong: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { wrong: 'not valid JSON' };
  }
  const reply = replySchema.safeParse(value);
  if (reply.success) return { reply: toReply(reply.data) };
  const issue = reply.error.issues[0];
  return { wrong: `${describePath(issue?.path ?? [])}: ${describeIssue(issue)}` };
}

/**
 * Reads what it can of a poll output kept in a spool: the whole output when it parses, else every
 * complete, well-formed reply of its `replies` array (a poller killed mid-print, a bad entry, a
 * spool read only up to the output cap), with `complete: false`, where the replies read end and
 * where the first problem is. An error only when no reply at all could be read from a text that
 * is not the whole, valid output. No message quotes the text.
 */
export function salvageGChatPoll(text: string): Result<SalvagedGChatPoll, GChatParseError> {
  const whole = parseGChatPoll(text);
  if (whole.isOk()) return ok({ replies: whole.value.replies, complete: true, readUpTo: utf8Length(text) });
  const replies: GChatReply[] = [];
  let lastEnd = 0;
  let firstBad: { readonly at: number; readonly wrong: string } | undefined;
  for (const span of completeReplyElements(text)) {
    const read = readElement(text.slice(span.start, span.end));
    if ('reply' in read) {
      replies.push(read.reply);
      lastEnd = span.end;
    } else firstBad ??= { at: span.start, wrong: read.wrong };
  }
  if (replies.length === 0) return err(whole.error);
  const badOffset = firstBad === undefined ? undefined : utf8Length(text, firstBad.at);
  const problem =
    firstBad !== undefined && badOffset !== undefined && badOffset < whole.error.offset
      ? { offset: badOffset, message: `reply at byte ${badOffset} unreadable (${firstBad.wrong})` }
      : { offset: whole.error.offset, message: whole.error.message };
  return ok({ replies, complete: false, readUpTo: utf8Length(text, lastEnd), problem });
}
