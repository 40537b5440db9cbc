import { err, ok, type Result } from 'neverthrow';
import { z } from 'zod';

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

/** Why the poll output could not be read. */
export type GChatParseError =
  { readonly kind: 'invalid-json'; readonly message: string } | { readonly kind: 'unexpected-shape'; readonly message: string };

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
  } catch (error) {
    return err({ kind: 'invalid-json', message: error instanceof Error ? error.message : 'invalid JSON' });
  }
  const parsed = pollSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return err({
      kind: 'unexpected-shape',
      message: issue === undefined ? 'invalid poll output' : `${issue.path.join('.')}: ${issue.message}`,
    });
  }
  const replies = parsed.data.replies.map(toReply);
  return ok({
    replies,
    pendingCount: parsed.data.pending_count,
    ...(parsed.data.checked_at == null ? {} : { checkedAt: parsed.data.checked_at }),
  });
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
}

// The raw text of each complete element of the top-level "replies" array, in order, up to where the
// text ends: a poller killed mid-print leaves a prefix whose whole replies must still count.
function completeReplyElements(text: string): string[] {
  const elements: string[] = [];
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
          elements.push(text.slice(elementStart, i + 1));
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

/**
 * Reads what it can of a poll output kept in a spool: the whole output when it parses, else every
 * complete, well-formed reply of its `replies` array (a poller killed mid-print, a bad entry),
 * with `complete: false`. An error only when no reply at all could be read from a text that is
 * not the whole, valid output.
 */
export function salvageGChatPoll(text: string): Result<SalvagedGChatPoll, GChatParseError> {
  const whole = parseGChatPoll(text);
  if (whole.isOk()) return ok({ replies: whole.value.replies, complete: true });
  const replies: GChatReply[] = [];
  for (const element of completeReplyElements(text)) {
    let value: unknown;
    try {
      value = JSON.parse(element);
    } catch {
      continue;
    }
    const reply = replySchema.safeParse(value);
    if (reply.success) replies.push(toReply(reply.data));
  }
  return replies.length > 0 ? ok({ replies, complete: false }) : err(whole.error);
}
