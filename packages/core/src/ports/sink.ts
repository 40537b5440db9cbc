import type { ResultAsync } from 'neverthrow';
import type { FindingCategory, PriorityClass } from '../domain/categories.js';

/** The kinds of message a heartbeat sends (`resolved`: a report with only `RESOLVED:` lines). */
export type MessageKind = 'online' | 'work_found' | 'resolved' | 'cost_alert' | 'shutdown';

/**
 * One finding of a report, for receivers that keep findings apart (a ticket per finding, a chat
 * thread that must not repeat itself).
 */
export interface MessageFinding {
  /**
   * Stable id of this finding as it now stands (see `stableFindingId`): its fingerprint and the
   * hash of its content. The same finding with the same content has the same id in every message,
   * whatever else the message holds, on every attempt and cycle; a receiver that already has the
   * id may drop the finding. Content leaves out what grows by itself (ages, minutes idle), so only
   * a change worth showing again (another branch, a pane that moved and went quiet again) makes a
   * new id for the same fingerprint.
   */
  readonly id: string;
  /**
   * `CATEGORY:subject` (sanitised like the text): the same for every version of the finding, so a
   * new id under a known fingerprint replaces what was shown for it.
   */
  readonly fingerprint: string;
  readonly category: FindingCategory;
  readonly priority: PriorityClass;
  /** The finding's line as the Findings section shows it (sanitised, redacted). */
  readonly line: string;
}

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
  /**
   * Every finding of a report with its own stable id (also those a long report cut from `content`
   * with "+N more"), so a receiver can drop the findings it already has; `id` stays the id of the
   * whole message. Absent on messages without findings (online, shutdown, cost alert).
   */
  readonly findings?: readonly MessageFinding[];
  /** Fingerprints of the delivered findings this message says are resolved (one `RESOLVED:` line each). */
  readonly resolved?: readonly string[];
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

/**
 * A sink kept the message back without failing (a tmux pane with half-typed input): nobody was
 * told, the findings stay unreported and are offered again next cycle, and the sink's circuit
 * breaker does not count it as a failure. `why` is one line for `history` and the operator.
 */
export interface SinkHeld {
  readonly state: 'held';
  readonly why: string;
}

/** What a delivery resolved to: nothing (`undefined`) = delivered; {@link SinkHeld} = held back. */
export type SinkDelivery = void | SinkHeld;

/** The `why` of a held delivery, or undefined when the sink delivered. */
export function heldWhy(delivery: SinkDelivery): string | undefined {
  return typeof delivery === 'object' && delivery !== null && delivery.state === 'held' ? delivery.why : undefined;
}

/** Where messages go (stdout, a JSONL file, a webhook, a command, a tmux pane, a team lead's inbox). */
export interface Sink {
  /** What the operator calls it in breaker lines (`webhook`, `command`); absent = `sink`. */
  readonly name?: string;
  /** Resolves to nothing when delivered, to {@link SinkHeld} when held back; an error when it failed. */
  readonly deliver: (message: OutboundMessage) => ResultAsync<SinkDelivery, SinkError>;
}
