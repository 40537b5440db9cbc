import { okAsync } from 'neverthrow';
import type { OutboundMessage, Sink } from '@heartbeat-kit/core';

/** A sink that writes each message's one-line summary and keeps every message it was given. */
export interface SummarySink extends Sink {
  readonly messages: readonly OutboundMessage[];
}

/**
 * An embedder's own {@link Sink}: where a real orchestrator would post to its team channel or
 * its agent's inbox, this one prints `[kind] summary` through `write`.
 */
export function createSummarySink(write: (line: string) => void): SummarySink {
  const messages: OutboundMessage[] = [];
  return {
    messages,
    deliver: (message) => {
      messages.push(message);
      write(`[${message.kind}] ${message.summary}`);
      return okAsync(undefined);
    },
  };
}
