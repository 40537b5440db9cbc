import { describe, expect, it } from 'vitest';
import { refusedUrl, usePingReceivers } from '../../test/support/ping-receiver.js';
import { parsePingSpec } from './ping-spec.js';
import { createSlotPinger } from './slot-pinger.js';

const receiver = usePingReceivers();
const SLOT = Date.parse('2026-02-19T14:10:00Z');
const END = { kind: 'end', result: { kind: 'success' }, summary: 'cycle #1 HEARTBEAT_OK' } as const;

function pingerTo(url: string, timeoutMs?: number) {
  const spec = parsePingSpec(url, '--ping');
  if (spec.isErr()) throw new Error(spec.error);
  const lines: string[] = [];
  const pinger = createSlotPinger({
    spec: spec.value,
    statePath: '/s/state.json',
    onFailure: (l) => lines.push(l),
    ...(timeoutMs ? { timeoutMs } : {}),
  });
  return { pinger, lines };
}

describe('createSlotPinger against a loopback monitor', () => {
  it('a good monitor: /start then the base URL, with the same rid and the summary as body; nothing failed', async () => {
    const monitor = await receiver();
    const { pinger, lines } = pingerTo(monitor.url);
    pinger.start(SLOT);
    expect(await pinger.end(SLOT, END)).toEqual({});
    expect(monitor.pings.map((p) => `${p.method} ${p.path}`)).toEqual(['POST /ping/check-1/start', 'POST /ping/check-1']);
    expect(monitor.pings[0]!.query.rid).toBe(monitor.pings[1]!.query.rid);
    expect(monitor.pings[1]!.body).toBe('cycle #1 HEARTBEAT_OK');
    expect(lines).toEqual([]);
  });

  it('a monitor answering 500: both pings fail, said once each, naming the origin only', async () => {
    const monitor = await receiver(() => 500);
    const { pinger, lines } = pingerTo(monitor.url);
    pinger.start(SLOT);
    expect(await pinger.end(SLOT, END)).toEqual({ start: 'HTTP 500', end: 'HTTP 500' });
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe(`end ping to ${new URL(monitor.url).origin} (healthchecks) failed: HTTP 500; the cycle is not affected.`);
    expect(lines.join('')).not.toContain('check-1');
  });

  it('a refused connection is a failure with the reason, never a throw', async () => {
    const { pinger, lines } = pingerTo(await refusedUrl());
    pinger.start(SLOT);
    expect(await pinger.end(SLOT, END)).toEqual({ start: 'ECONNREFUSED', end: 'ECONNREFUSED' });
    expect(lines).toHaveLength(2);
  });

  it('a monitor that never answers: start returns at once, each ping gives up at the timeout', async () => {
    const monitor = await receiver(() => 'hang');
    const { pinger } = pingerTo(monitor.url, 200);
    pinger.start(SLOT); // returns without waiting: the cycle goes on
    await monitor.received(1);
    expect(await pinger.end(SLOT, END)).toEqual({ start: 'no answer within 200 ms', end: 'no answer within 200 ms' });
    expect(monitor.pings).toHaveLength(2);
  });
});
