/**
 * Redis keys and BullMQ queue names of one fleet, derived from its prefix. Every key carries a
 * Redis Cluster hash tag (`{…}`) so that each multi-key operation stays in one slot: the fleet's
 * queues, registry and journal share the fleet tag `{<prefix>}` (BullMQ's rule: a queue prefix in
 * braces), and each heartbeat's lock, fences, state and receipts share the heartbeat's tag
 * `{<prefix>:hb:<id>}`, so different heartbeats spread over a cluster's shards.
 */
export interface FleetKeys {
  readonly prefix: string;
  /** Hash: heartbeat id → registration JSON. */
  readonly registry: string;
  /** List of journal entries (when the worker journals). */
  readonly journal: string;
  /** BullMQ key prefix of the fleet's queues (a hash tag, so every queue's keys share one slot). */
  readonly bullPrefix: string;
  readonly tickQueue: string;
  readonly cycleQueue: string;
  readonly outboxQueue: string;
  readonly lock: (heartbeatId: string) => string;
  readonly state: (heartbeatId: string) => string;
  /** List of the heartbeat's receipts (one record per slot; see `createRedisReceiptStore`). */
  readonly receipts: (heartbeatId: string) => string;
  /** Sorted set: the slots an overlap record closed (a re-delivered job must not run them; see overlap-records.ts). */
  readonly overlaps: (heartbeatId: string) => string;
  /** String: the heartbeat's operator acks (`heartbeat-kit fleet ack`), read once per slot. */
  readonly acks: (heartbeatId: string) => string;
  /** String: the heartbeat's operator pause (`heartbeat-kit fleet pause`), read once per slot. */
  readonly pause: (heartbeatId: string) => string;
  /** String set once the sink confirmed an outbox message (shrinks the re-delivery window). */
  readonly delivered: (messageId: string) => string;
}

/** Default prefix of every fleet key. */
export const DEFAULT_FLEET_PREFIX = 'hbk';

/** The keys of the fleet stored under `prefix` (letters, digits, `.`, `_`, `-`: no braces). */
export function fleetKeys(prefix: string = DEFAULT_FLEET_PREFIX): FleetKeys {
  const fleet = `{${prefix}}`;
  const heartbeat = (id: string): string => `{${prefix}:hb:${id}}`;
  return {
    prefix,
    registry: `${fleet}:registry`,
    journal: `${fleet}:journal`,
    bullPrefix: `${fleet}:bull`,
    tickQueue: 'ticks',
    cycleQueue: 'cycles',
    outboxQueue: 'outbox',
    lock: (id) => `${heartbeat(id)}:lock`,
    state: (id) => `${heartbeat(id)}:state`,
    receipts: (id) => `${heartbeat(id)}:receipts`,
    overlaps: (id) => `${heartbeat(id)}:overlaps`,
    acks: (id) => `${heartbeat(id)}:acks`,
    pause: (id) => `${heartbeat(id)}:pause`,
    delivered: (messageId) => `{${prefix}:delivered:${messageId}}`,
  };
}
