/** Redis keys and BullMQ queue names of one fleet, derived from its prefix. */
export interface FleetKeys {
  readonly prefix: string;
  /** Hash: heartbeat id → registration JSON. */
  readonly registry: string;
  /** List of journal entries (when the worker journals). */
  readonly journal: string;
  /** BullMQ key prefix of the fleet's queues. */
  readonly bullPrefix: string;
  readonly tickQueue: string;
  readonly cycleQueue: string;
  readonly outboxQueue: string;
  readonly lock: (heartbeatId: string) => string;
  readonly state: (heartbeatId: string) => string;
  /** List of the heartbeat's receipts (one record per slot; see `createRedisReceiptStore`). */
  readonly receipts: (heartbeatId: string) => string;
  /** String: the heartbeat's operator acks (`heartbeat-kit fleet ack`), read once per slot. */
  readonly acks: (heartbeatId: string) => string;
  /** String set once the sink confirmed an outbox message (shrinks the re-delivery window). */
  readonly delivered: (messageId: string) => string;
}

/** Default prefix of every fleet key. */
export const DEFAULT_FLEET_PREFIX = 'hbk';

/** The keys of the fleet stored under `prefix`. */
export function fleetKeys(prefix: string = DEFAULT_FLEET_PREFIX): FleetKeys {
  return {
    prefix,
    registry: `${prefix}:registry`,
    journal: `${prefix}:journal`,
    bullPrefix: `${prefix}:bull`,
    tickQueue: 'ticks',
    cycleQueue: 'cycles',
    outboxQueue: 'outbox',
    lock: (id) => `${prefix}:hb:${id}:lock`,
    state: (id) => `${prefix}:hb:${id}:state`,
    receipts: (id) => `${prefix}:hb:${id}:receipts`,
    acks: (id) => `${prefix}:hb:${id}:acks`,
    delivered: (messageId) => `${prefix}:delivered:${messageId}`,
  };
}
