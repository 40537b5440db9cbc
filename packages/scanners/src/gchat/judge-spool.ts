import type { RefusedSpool, SpoolText } from '@heartbeat-kit/core/host';
import { salvageGChatPoll, type GChatReply } from './parse-gchat-poll.js';

/** What to do with one spool once its replies are in the inbox. */
export interface SpoolVerdict {
  readonly id: string;
  readonly replies: readonly GChatReply[];
  /** `aside`: part of it could not be read (or it is no spool at all): keep it for the operator, never read it again. */
  readonly then: 'remove' | 'aside';
  /** The warning's code when set aside. */
  readonly code?: 'GCHAT_SPOOL_SET_ASIDE' | 'GCHAT_SPOOL_OVER_CAP' | 'GCHAT_SPOOL_REFUSED';
  /** Why it is set aside, short (a warning holds 300 characters, the path first): sizes and offsets, never any of its content. */
  readonly why?: string;
  /** What the operator does about it. */
  readonly fix?: string;
}

/** `734003312 bytes (700.0 MiB)`: exact, and readable. */
export function describeSize(bytes: number): string {
  return bytes < 1024 * 1024 ? `${bytes} bytes` : `${bytes} bytes (${(bytes / (1024 * 1024)).toFixed(1)} MiB)`;
}

/** A cap: `4.0 MiB`, or bytes below one MiB. */
function describeCap(bytes: number): string {
  return bytes < 1024 * 1024 ? `${bytes}-byte` : `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

const replyCount = (n: number): string => `${n} whole ${n === 1 ? 'reply' : 'replies'}`;

/**
 * Reads a spool as far as it goes: blank holds nothing; a whole output is delivered; a cut-off or
 * damaged one keeps its whole replies and is set aside; one over the read cap (only its first
 * `readBytes` were read) keeps the whole replies that end before the cap and is set aside, the
 * rest unread. Every message names byte offsets and sizes, never what the spool holds.
 */
export function judgeSpool(id: string, spool: SpoolText): SpoolVerdict {
  const cut = spool.readBytes < spool.size;
  if (!cut && spool.text.trim() === '') return { id, replies: [], then: 'remove' };
  const salvaged = salvageGChatPoll(spool.text);
  if (cut) {
    const replies = salvaged.isOk() ? salvaged.value.replies : [];
    const upTo = salvaged.isOk() ? salvaged.value.readUpTo : 0;
    const problem = salvaged.isOk() ? salvaged.value.problem : undefined;
    const earlier = problem !== undefined && problem.offset < upTo ? `; also ${problem.message}` : '';
    const over = `${describeSize(spool.size)}, over the ${describeCap(spool.readBytes)} read cap; `;
    const broken = 'a poll that prints this much is broken: make it print only new replies';
    return {
      id,
      replies,
      then: 'aside',
      code: 'GCHAT_SPOOL_OVER_CAP',
      why:
        replies.length === 0
          ? `${over}no whole reply within it, none delivered${earlier}`
          : `${over}${replyCount(replies.length)} delivered, the rest (from byte ${upTo}) not read${earlier}`,
      fix:
        replies.length === 0
          ? `read the replies in the set-aside file and act on them by hand, then delete it; ${broken}`
          : `read the replies from byte ${upTo} of the set-aside file and act on them by hand, then delete it; ${broken}`,
    };
  }
  if (salvaged.isErr())
    return {
      id,
      replies: [],
      then: 'aside',
      code: 'GCHAT_SPOOL_SET_ASIDE',
      why: `not the poll JSON (${describeSize(spool.size)}; ${salvaged.error.message})`,
      fix: 'it is not the poll JSON: read it, act by hand on any reply in it, then delete it',
    };
  const { replies, problem } = salvaged.value;
  if (salvaged.value.complete || problem === undefined) return { id, replies, then: 'remove' };
  return {
    id,
    replies,
    then: 'aside',
    code: 'GCHAT_SPOOL_SET_ASIDE',
    why: `cut off or damaged (${problem.message}); ${replyCount(replies.length)} recovered`,
    fix: `read the replies from byte ${problem.offset} of the set-aside file and act on them by hand, then delete it`,
  };
}

/** An entry with a spool's name that the spool refused to open (a link, a directory, a FIFO): set aside, never read. */
export function judgeRefused(refused: RefusedSpool): SpoolVerdict {
  return {
    id: refused.id,
    replies: [],
    then: 'aside',
    code: 'GCHAT_SPOOL_REFUSED',
    why: refused.reason,
    fix:
      refused.kind === 'not-a-file'
        ? 'heartbeat-kit puts only its own files there: find out what made this one, then delete the set-aside entry'
        : 'make it readable by the user heartbeat-kit runs as, act by hand on any reply in it, then delete it',
  };
}
