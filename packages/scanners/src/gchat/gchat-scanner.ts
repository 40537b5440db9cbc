import { createFinding, sanitizeForMessage, scanOk, type CommandRunner, type Finding, type Scanner } from '@heartbeat-kit/core';
import type { FileExists } from '../file-exists.js';
import { firstStderrLine, guardScan, runTool, skipped, type DurationMeter } from '../scanner-support.js';
import { parseGChatPoll, type GChatReply } from './parse-gchat-poll.js';

/** Dependencies of {@link createGChatScanner}. */
export interface GChatScannerDeps {
  readonly runner: CommandRunner;
  /** Project directory (`$CLAUDE_PROJECT_DIR`). */
  readonly cwd: string;
  readonly fileExists: FileExists;
  /** Interpreter for the project script (default `python3`). */
  readonly python?: string;
}

/** Where the project keeps the poll script, relative to the project directory. */
export const GCHAT_POLL_SCRIPT = '.claude/scripts/gchat-poll-replies.py';

/** The warning code of the poll script's exit 2. */
export const GCHAT_NO_CREDENTIALS = 'GCHAT_NO_CREDENTIALS';

/** The GCHAT_REPLY_RECEIVED finding of one reply, in spec 000's report format (subject = question id). */
export function gchatReplyFinding(reply: GChatReply): Finding {
  const q = sanitizeForMessage(reply.questionId, { maxLength: 120 });
  const session = sanitizeForMessage(reply.sessionId, { maxLength: 120 });
  const text = sanitizeForMessage(reply.replyText, { maxLength: 500 }).replace(/"/g, "'");
  const from = sanitizeForMessage(reply.senderName, { maxLength: 80 });
  return createFinding({
    category: 'GCHAT_REPLY_RECEIVED',
    subject: reply.questionId,
    // A list item under the category heading the renderer prints once (spec 000's report format).
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

/**
 * Scan target 6: polls GChat replies through `config.gchatPollCommand`, else the project's
 * `python3 .claude/scripts/gchat-poll-replies.py` when it exists, else skips. Replies become
 * GCHAT_REPLY_RECEIVED; exit 2 is a "no credentials" warning and any other failure an ok result
 * with a warning (spec 000: non-critical). Runs outside active hours too.
 *
 * @example
 * ```ts
 * import { createGChatScanner } from '@heartbeat-kit/scanners';
 * import { createProcessRunner } from '@heartbeat-kit/core/node';
 * import { nodeFileExists } from '@heartbeat-kit/scanners/execa';
 *
 * // Runs .claude/scripts/gchat-poll-replies.py (or HEARTBEAT.md's GChat → Poll command) when present.
 * const scanner = createGChatScanner({ runner: createProcessRunner(), cwd: process.cwd(), fileExists: nodeFileExists });
 * ```
 */
export function createGChatScanner(deps: GChatScannerDeps): Scanner {
  return {
    name: NAME,
    runsOutsideActiveHours: true,
    scan: (ctx) => {
      const meter: DurationMeter = { ms: 0 };
      return guardScan(NAME, meter, async () => {
        let argv: readonly string[] | undefined = ctx.config.gchatPollCommand;
        if (argv === undefined) {
          const script = joinPath(deps.cwd, GCHAT_POLL_SCRIPT);
          if (!(await deps.fileExists(script))) return skipped(NAME, `no gchatPollCommand configured and ${GCHAT_POLL_SCRIPT} not found`, meter);
          argv = [deps.python ?? 'python3', script];
        }
        const [file, ...args] = argv;
        if (file === undefined) return skipped(NAME, 'empty gchatPollCommand', meter);
        const outcome = await runTool(deps.runner, { file, args, cwd: deps.cwd, env: { CLAUDE_PROJECT_DIR: deps.cwd }, profile: 'gchat' }, ctx.signal, meter);
        if (outcome.kind === 'missing') return skipped(NAME, outcome.reason, meter);
        if (outcome.kind === 'failed') return scanOk(NAME, { warnings: [{ code: 'GCHAT_POLL_FAILED', message: outcome.reason }], durationMs: meter.ms });
        const { output } = outcome;
        if (output.exitCode === 2) {
          return scanOk(NAME, { warnings: [{ code: GCHAT_NO_CREDENTIALS, message: 'No OAuth2 credentials configured for GChat polling' }], durationMs: meter.ms });
        }
        if (output.exitCode !== 0) {
          return scanOk(NAME, { warnings: [{ code: 'GCHAT_POLL_FAILED', message: `GChat poll exited ${output.exitCode}: ${firstStderrLine(output.stderr)}` }], durationMs: meter.ms });
        }
        const poll = parseGChatPoll(output.stdout);
        if (poll.isErr()) {
          return scanOk(NAME, { warnings: [{ code: 'GCHAT_POLL_UNREADABLE', message: `GChat poll output unreadable: ${sanitizeForMessage(poll.error.message, { maxLength: 160 })}` }], durationMs: meter.ms });
        }
        return scanOk(NAME, { findings: poll.value.replies.map(gchatReplyFinding), durationMs: meter.ms });
      });
    },
  };
}
