import { open } from 'node:fs/promises';
import { ResultAsync } from 'neverthrow';
import type { OutboundMessage, Sink, SinkError } from '../ports/sink.js';
import { describeError, ensureParentDirectory } from './durable-fs.js';

function deliveryFailed(where: string, error: unknown): SinkError {
  const code = (error as { code?: unknown } | undefined)?.code;
  return {
    kind: 'delivery-failed',
    message: `Could not deliver to ${where}: ${describeError(error)}`,
    // EACCES, ENOSPC, EPIPE: the same code on consecutive cycles is "failing the same way".
    ...(typeof code === 'string' ? { code } : {}),
  };
}

/**
 * A {@link Sink} that prints each message's content followed by a newline. `write` defaults to
 * `process.stdout.write`; pass your own to capture output. A quiet cycle's `HEARTBEAT_OK` is
 * printed exactly as given.
 *
 * @example
 * ```ts
 * import { createStdoutSink } from '@heartbeat-kit/core/node';
 *
 * const sink = createStdoutSink();
 * await sink.deliver({ kind: 'work_found', content: 'WORK_FOUND: WORK_READY\n…', summary: 'WORK_READY -- 1 bead', at: new Date().toISOString() });
 * ```
 */
export function createStdoutSink(write?: (text: string) => void): Sink {
  const out = write ?? ((text: string): void => void process.stdout.write(text));
  return {
    name: 'stdout',
    deliver: (message) =>
      ResultAsync.fromPromise(
        Promise.resolve().then(() => out(`${message.content}\n`)),
        (error) => deliveryFailed('stdout', error),
      ),
  };
}

/** Options of {@link createJsonlFileSink}. */
export interface JsonlFileSinkOptions {
  /** The JSONL file; parent directories are created. */
  readonly path: string;
}

/**
 * A {@link Sink} that appends each message as one JSON line. The file is opened with O_APPEND
 * for every message, so concurrent writers never interleave within a line, and fsynced before the
 * delivery counts as done: a message reported delivered survives a crash.
 *
 * @example
 * ```ts
 * import { createJsonlFileSink } from '@heartbeat-kit/core/node';
 *
 * // One JSON line per message, fsynced before the delivery counts: an outbox another process reads.
 * const sink = createJsonlFileSink({ path: '.git/heartbeat-kit/outbox.jsonl' });
 * const sent = await sink.deliver({ kind: 'online', content: 'HEARTBEAT_ONLINE: …', summary: 'Heartbeat online', at: new Date().toISOString() });
 * if (sent.isErr()) console.error(sent.error.message);
 * ```
 */
export function createJsonlFileSink(options: JsonlFileSinkOptions): Sink {
  const { path } = options;
  const append = async (message: OutboundMessage): Promise<void> => {
    const line = `${JSON.stringify(message)}\n`;
    await ensureParentDirectory(path);
    const handle = await open(path, 'a', 0o644);
    try {
      // writeFile loops over short writes; each append lands at the end because of O_APPEND.
      await handle.writeFile(line, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
  };
  return { name: 'file', deliver: (message) => ResultAsync.fromPromise(append(message), (error) => deliveryFailed(path, error)) };
}
