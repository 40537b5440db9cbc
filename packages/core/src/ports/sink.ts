import type { ResultAsync } from 'neverthrow';

/** The kinds of message a heartbeat sends. */
export type MessageKind = 'online' | 'work_found' | 'cost_alert' | 'shutdown';

/** One message to the operator: `content` is the body, `summary` the one-line preview. */
export interface OutboundMessage {
  readonly kind: MessageKind;
  readonly content: string;
  readonly summary: string;
  /** Cycle number, when the message belongs to a cycle. */
  readonly cycle?: number;
  /** ISO instant the message was made. */
  readonly at: string;
  /**
   * Stable id of a report (see `stableMessageId`): the same undelivered findings carry the same
   * id on every attempt and every retrying cycle, so a receiver can be idempotent.
   */
  readonly id?: string;
}

/** Why a delivery failed; the findings of a failed delivery stay unreported. */
export interface SinkError {
  readonly kind: 'delivery-failed';
  readonly message: string;
  /**
   * How it failed, short and stable across tries (`HTTP 503`, `exit 1`, `timeout`): the sink's
   * circuit breaker counts the same code on consecutive cycles as failing the same way. Absent =
   * the message is the code.
   */
  readonly code?: string;
}

/** Where messages go (stdout, a JSONL file, a webhook, a command, a team lead's inbox). */
export interface Sink {
  /** What the operator calls it in breaker lines (`webhook`, `command`); absent = `sink`. */
  readonly name?: string;
  readonly deliver: (message: OutboundMessage) => ResultAsync<void, SinkError>;
}
