// Sends a slot's pings: bounded, never throwing, so a dead monitor never blocks or fails a cycle.
import { redactSecrets } from '@heartbeat-kit/core';
import { pingRequest, slotRunId, type PingEvent } from './ping-requests.js';
import type { PingSpec } from './ping-spec.js';

/** How long one ping may take (Healthchecks.io's own examples use 5 s). */
export const PING_TIMEOUT_MS = 5_000;

/** The pings of one slot that failed, by event: the receipt's optional `ping` field. */
export interface PingFailures {
  readonly start?: string;
  readonly end?: string;
}

/** Pings a monitor at the start and end of each slot. */
export interface SlotPinger {
  /** Sends `/start` (Cronitor: `state=run`) without waiting for it. */
  readonly start: (slotMs: number) => void;
  /**
   * Sends the end ping once the slot's start ping settled (each bounded by the timeout) and says
   * which of the two failed; never rejects.
   */
  readonly end: (slotMs: number, event: Extract<PingEvent, { kind: 'end' }>) => Promise<PingFailures>;
}

/** Options of {@link createSlotPinger}. */
export interface SlotPingerOptions {
  readonly spec: PingSpec;
  /** The state file: with the slot's instant it names the run id. */
  readonly statePath: string;
  /** Told once per failed ping (the CLI writes it on stderr). */
  readonly onFailure: (line: string) => void;
  readonly timeoutMs?: number;
  readonly fetch?: typeof fetch;
}

/**
 * A pinger over `fetch`. A ping that times out, is refused or answers non-2xx is one line for
 * `onFailure` naming only the monitor's origin (its path is a credential) and the reason, and a
 * failure entry for the receipt; nothing is retried (the next slot pings again).
 */
export function createSlotPinger(options: SlotPingerOptions): SlotPinger {
  const timeoutMs = options.timeoutMs ?? PING_TIMEOUT_MS;
  const doFetch = options.fetch ?? fetch;
  const started = new Map<number, Promise<string | undefined>>();
  const send = async (event: PingEvent, slotMs: number): Promise<string | undefined> => {
    const request = pingRequest(options.spec, event, slotRunId(options.statePath, slotMs));
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      const response = await doFetch(request.url, {
        method: request.method,
        ...(request.body === undefined ? {} : { body: request.body, headers: { 'content-type': 'text/plain; charset=utf-8' } }),
        redirect: 'manual',
        signal,
      });
      await response.body?.cancel().catch(() => undefined);
      if (response.ok) return undefined;
      return `HTTP ${response.status}`;
    } catch (error) {
      if (signal.aborted) return `no answer within ${timeoutMs} ms`;
      const cause = (error as { cause?: { code?: unknown } }).cause?.code;
      return redactSecrets(typeof cause === 'string' ? cause : (error as Error).message).slice(0, 200);
    }
  };
  const report = (kind: 'start' | 'end', reason: string | undefined): string | undefined => {
    if (reason !== undefined)
      options.onFailure(`${kind} ping to ${options.spec.origin} (${options.spec.flavour}) failed: ${reason}; the cycle is not affected.`);
    return reason;
  };
  return {
    start: (slotMs) => {
      started.set(
        slotMs,
        send({ kind: 'start' }, slotMs).then((reason) => report('start', reason)),
      );
    },
    end: async (slotMs, event) => {
      const start = await started.get(slotMs);
      started.delete(slotMs);
      const end = report('end', await send(event, slotMs));
      return { ...(start === undefined ? {} : { start }), ...(end === undefined ? {} : { end }) };
    },
  };
}
