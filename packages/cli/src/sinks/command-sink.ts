import { ResultAsync } from 'neverthrow';
import { type CommandRunner, redactSecrets, sanitizeForMessage, type Sink } from '@heartbeat-kit/core';

/** The short failure code an error carries (set where it was thrown), else `failed`. */
function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code !== '' ? code : 'failed';
}

/** How long a sink command may run per message; a service's stop timeout counts on it. */
export const COMMAND_SINK_TIMEOUT_MS = 60_000;

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
    name: 'command',
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
            timeoutMs: COMMAND_SINK_TIMEOUT_MS,
          });
          if (ran.isErr()) throw Object.assign(new Error(`sink command ${ran.error.kind}: ${file}`), { code: ran.error.kind });
          // The tool's stderr may echo a token or a hook URL: it is redacted and cut to one line.
          if (ran.value.exitCode !== 0)
            throw Object.assign(
              new Error(
                `sink command exited ${ran.value.exitCode}: ${sanitizeForMessage(ran.value.stderr.trim().split('\n').at(-1) ?? '', { maxLength: 300 })}`,
              ),
              { code: `exit ${ran.value.exitCode}` },
            );
        })(),
        (error) => ({
          kind: 'delivery-failed' as const,
          message: redactSecrets((error as Error).message),
          code: codeOf(error).slice(0, 100),
        }),
      ),
  };
}
