import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isFleetHeartbeatId } from '../fleet/fleet-heartbeat.js';
import { keySlot } from '../fleet/key-slot.js';
import { fleetKeys, type FleetKeys } from './fleet-keys.js';

// Every multi-key operation the fleet sends, with the keys it passes (see redis-lock-store.ts,
// redis-state-store.ts, fleet-commit.ts, overlap-records.ts and BullMQ's scripts, which touch `<prefix>:<queue>:*`).
// Redis Cluster refuses any of them (CROSSSLOT) unless all its keys hash to one slot.
function multiKeyOperations(keys: FleetKeys, id: string, jobId: string): Record<string, readonly string[]> {
  const lock = keys.lock(id);
  const bullKeys = (queue: string): string[] =>
    ['wait', 'active', 'meta', 'events', 'delayed', 'prioritized', 'paused', 'id', 'marker', 'stalled', 'repeat', jobId].map(
      (suffix) => `${keys.bullPrefix}:${queue}:${suffix}`,
    );
  return {
    'lock acquire': [lock, `${lock}:fence`],
    'state save': [keys.state(id), `${keys.state(id)}:fence`, `${lock}:fence`],
    'state set aside': [keys.state(id), `${keys.state(id)}:corrupt:1700000000000`],
    'cycle commit': [keys.state(id), `${keys.state(id)}:fence`, `${lock}:fence`, keys.receipts(id)],
    'receipt while held': [keys.receipts(id), lock, keys.overlaps(id)],
    'tick queue': bullKeys(keys.tickQueue),
    'cycle queue': bullKeys(keys.cycleQueue),
    'outbox queue': bullKeys(keys.outboxQueue),
  };
}

const heartbeatId = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._-]{0,30}$/).filter(isFleetHeartbeatId);
const prefix = fc.stringMatching(/^[A-Za-z0-9._-]{1,20}$/);

describe('fleetKeys in a Redis Cluster', () => {
  it('keeps each multi-key operation in one slot, whatever the prefix and heartbeat', () => {
    fc.assert(
      fc.property(prefix, heartbeatId, (p, id) => {
        for (const [operation, keys] of Object.entries(multiKeyOperations(fleetKeys(p), id, `${id}__7`))) {
          const slots = new Set(keys.map(keySlot));
          expect({ operation, slots: slots.size }).toEqual({ operation, slots: 1 });
        }
      }),
    );
  });

  it('tags every key it names', () => {
    const keys = fleetKeys('hbk');
    const named = [
      keys.registry,
      keys.journal,
      keys.bullPrefix,
      keys.lock('a'),
      keys.state('a'),
      keys.receipts('a'),
      keys.delivered('a__1'),
    ];
    for (const key of named) expect(key).toMatch(/^\{[^{}]+\}/);
  });

  it('spreads heartbeats over the slots instead of piling them on the fleet slot', () => {
    const keys = fleetKeys('hbk');
    const slots = new Set(Array.from({ length: 200 }, (_, i) => keySlot(keys.state(`repo-${i}`))));
    expect(slots.size).toBeGreaterThan(190);
  });

  it('would fail on the untagged layout the fleet used before (`hbk:hb:<id>:lock`)', () => {
    const untagged: FleetKeys = {
      ...fleetKeys('hbk'),
      bullPrefix: 'hbk:bull',
      lock: (id) => `hbk:hb:${id}:lock`,
      state: (id) => `hbk:hb:${id}:state`,
      receipts: (id) => `hbk:hb:${id}:receipts`,
      overlaps: (id) => `hbk:hb:${id}:overlaps`,
    };
    const crossing = Object.entries(multiKeyOperations(untagged, 'api-repo', 'api-repo__7'))
      .filter(([, keys]) => new Set(keys.map(keySlot)).size > 1)
      .map(([operation]) => operation);
    expect(crossing).toEqual([
      'lock acquire',
      'state save',
      'state set aside',
      'cycle commit',
      'receipt while held',
      'tick queue',
      'cycle queue',
      'outbox queue',
    ]);
  });
});
