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
export type GChatParseError = { readonly kind: 'invalid-json'; readonly message: string } | { readonly kind: 'unexpected-shape'; readonly message: string };

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
    return err({ kind: 'unexpected-shape', message: issue === undefined ? 'invalid poll output' : `${issue.path.join('.')}: ${issue.message}` });
  }
  const replies = parsed.data.replies.map((r): GChatReply => ({
    questionId: r.question_id,
    sessionId: r.session_id,
    replyText: r.reply_text,
    senderName: r.sender_name == null || r.sender_name === '' ? 'unknown' : r.sender_name,
    ...(r.replied_at == null ? {} : { repliedAt: r.replied_at }),
    ...(r.thread_name == null ? {} : { threadName: r.thread_name }),
  }));
  return ok({ replies, pendingCount: parsed.data.pending_count, ...(parsed.data.checked_at == null ? {} : { checkedAt: parsed.data.checked_at }) });
}
