import { ResultAsync } from 'neverthrow';
import { redactSecrets, sanitizeForMessage, type CommandRunner, type Sink } from '@heartbeat-kit/core';

/**
 * Runs a command per message with the message content on stdin (and the summary in
 * `HEARTBEAT_SUMMARY`, the kind in `HEARTBEAT_KIND`). Exit 0 confirms delivery. Its stderr is
 * redacted before it reaches an error message.
 */
export function createCommandSink(options: {
  readonly argv: readonly string[];
  readonly runner: CommandRunner;
  readonly cwd: string;
}): Sink {
  const [file, ...args] = options.argv;
  return {
    deliver: (message) =>
      ResultAsync.fromPromise(
        (async () => {
          if (file === undefined) throw new Error('empty sink command');
          const ran = await options.runner.run({
            file,
            args,
            cwd: options.cwd,
            input: message.content,
            env: { HEARTBEAT_SUMMARY: message.summary, HEARTBEAT_KIND: message.kind },
            timeoutMs: 60_000,
          });
          if (ran.isErr()) throw new Error(`sink command ${ran.error.kind}: ${file}`);
          // The tool's stderr may echo a token or a hook URL: it is redacted and cut to one line.
          if (ran.value.exitCode !== 0)
            throw new Error(
              `sink command exited ${ran.value.exitCode}: ${sanitizeForMessage(ran.value.stderr.trim().split('\n').at(-1) ?? '', { maxLength: 300 })}`,
            );
        })(),
        (error) => ({ kind: 'delivery-failed' as const, message: redactSecrets((error as Error).message) }),
      ),
  };
}
