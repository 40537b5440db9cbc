import type {
  CategoryTable,
  CycleDecision,
  HeartbeatConfig,
  OperatorActivity,
  OutboundMessage,
  Scanner,
  SinkError,
} from '@heartbeat-kit/core';
import type { Result, ResultAsync } from 'neverthrow';
import type { FleetHeartbeat } from '../fleet/fleet-heartbeat.js';
import type { OutboxBreakerSettings } from '../fleet/outbox-rules.js';

// The fleet worker's types, apart from the worker: its job processors (cycle-job, outbox-job,
// tick-job) and its context import them from here, so none imports the worker that imports them.

/** One outbox message handed to a {@link FleetSink}; `id` is stable across retries. */
export interface FleetDelivery {
  /** `<heartbeat>__<cycle>` (a cost alert adds `__cost`): a sink can drop repeats by it. */
  readonly id: string;
  readonly heartbeatId: string;
  readonly cycle: number;
  readonly message: OutboundMessage;
}

/** Where fleet messages go. Ok means the sink confirmed; an error is retried with backoff. */
export interface FleetSink {
  /** The sink's name as the operator knows it (`webhook`, `command`, …), said by its circuit breaker. */
  readonly name?: string;
  readonly deliver: (delivery: FleetDelivery) => ResultAsync<void, SinkError>;
}

/** What one cycle of a heartbeat runs with. */
export interface CycleSetup {
  readonly scanners: readonly Scanner[];
  readonly config: HeartbeatConfig;
  readonly timeZone: string;
  readonly operatorActivity?: OperatorActivity;
  /**
   * The categories' rules (an embedder's own from `defineCategories`): priority, outside-hours rule,
   * confirm cycles and header order of this heartbeat's findings and messages; default `OPEN_CATEGORIES`
   * (the CLI passes the CoBuilder table, `DEFAULT_CATEGORIES` of `@heartbeat-kit/scanners`).
   */
  readonly categories?: CategoryTable;
}

/** Turns a registration into scanners and config for one slot (the CLI wires the real scanners here). */
export type ResolveHeartbeat = (heartbeat: FleetHeartbeat, slot: number) => Promise<Result<CycleSetup, string>>;

/** What the worker did, as journal entries and `onEvent` calls. */
export type FleetEvent =
  | {
      readonly type: 'cycle';
      readonly heartbeatId: string;
      readonly slot: number;
      readonly cycle: number;
      readonly fence: number;
      readonly worker: string;
      readonly dueMs: number;
      readonly startedAtMs: number;
      readonly endedAtMs: number;
      readonly report: boolean;
      /** The decision's status (absent in events of older workers). */
      readonly status?: 'ok' | 'report';
      /** The findings in the cycle's message, counted by category and priority (empty when quiet). */
      readonly findings?: readonly { readonly category: string; readonly priority: string; readonly count: number }[];
      /** What went wrong around the cycle (operator activity unreadable, …), as `runCycle` reports it. */
      readonly warnings?: readonly string[];
    }
  | {
      readonly type: 'skip';
      readonly heartbeatId: string;
      readonly slot: number;
      readonly reason: 'already-ran' | 'unregistered' | 'overlap' | 'paused';
      readonly worker: string;
    }
  | {
      readonly type: 'stale-write';
      readonly heartbeatId: string;
      readonly slot: number;
      readonly fence: number;
      readonly current: number;
      readonly worker: string;
    }
  | { readonly type: 'failed'; readonly heartbeatId: string; readonly slot: number; readonly message: string; readonly worker: string }
  | {
      readonly type: 'delivered';
      readonly heartbeatId: string;
      readonly cycle: number;
      readonly id: string;
      readonly fence: number;
      readonly worker: string;
    }
  | {
      /** The sink refused an outbox message (redacted); the outbox retries it with backoff. */
      readonly type: 'delivery-failed';
      readonly heartbeatId: string;
      readonly cycle: number;
      readonly id: string;
      readonly message: string;
      readonly worker: string;
    }
  | {
      /**
       * The tick watchdog found the heartbeat's ticks stopped (its next tick over one interval late
       * and no job carrying it, or no scheduler at all) and scheduled them again.
       */
      readonly type: 'ticks-restarted';
      readonly heartbeatId: string;
      /** When the tick that never came was due (absent when the heartbeat had no scheduler). */
      readonly lostTickMs?: number;
      readonly worker: string;
    }
  | {
      /** A BullMQ queue reported an error (a script refused, the next tick not scheduled, Redis unreachable); BullMQ retries. */
      readonly type: 'queue-error';
      readonly queue: 'ticks' | 'cycles' | 'outbox';
      readonly message: string;
      readonly worker: string;
    }
  | {
      /** The heartbeat's sink breaker: `tripped`, `recovered`, `changed` once each; `held` per message not tried. */
      readonly type: 'sink-breaker';
      readonly kind: 'tripped' | 'recovered' | 'changed' | 'held';
      readonly heartbeatId: string;
      /** The heartbeat's cycle the breaker counted this at. */
      readonly cycle: number;
      /** The outbox message it happened to. */
      readonly id: string;
      readonly line: string;
      /** With `tripped`: the one SINK_FAILING advisory, for the operator's channel (the sink cannot carry it). */
      readonly advisory?: { readonly line: string; readonly action: string };
      readonly worker: string;
    };

/** Data of a cycle job. */
export interface CycleJobData {
  readonly heartbeatId: string;
  readonly slot: number;
  readonly dueMs: number;
}

/** Data of an outbox job: the whole decision, so `markDelivered` can run after confirmation. */
export interface OutboxJobData {
  readonly heartbeatId: string;
  readonly cycle: number;
  readonly decision: CycleDecision;
  /** The heartbeat's sink breaker settings when the cycle ran (absent in jobs from older workers: no breaker). */
  readonly breaker?: OutboxBreakerSettings;
}
