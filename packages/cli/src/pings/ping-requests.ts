// The HTTP requests of each ping event, per protocol: pure, so every protocol rule is tested without a network.
import { createHash } from 'node:crypto';
import { redactSecrets } from '@heartbeat-kit/core';
import { stripTerminalEscapes } from '@heartbeat-kit/core/host';
import type { PingSpec } from './ping-spec.js';

/** What a ping says: a slot began, or how it ended. */
export type PingEvent =
  | { readonly kind: 'start' }
  | {
      readonly kind: 'end';
      /** `success`: exit 0 and every scanner looked; `fail`: exit 0 but a scanner failed or timed out; otherwise the exit code. */
      readonly result: { readonly kind: 'success' } | { readonly kind: 'fail' } | { readonly kind: 'exit'; readonly code: number };
      /** One line saying what the slot did (redacted and cut here). */
      readonly summary: string;
    };

/** One request to send. */
export interface PingRequest {
  readonly method: 'GET' | 'POST';
  readonly url: string;
  readonly body?: string;
}

/** The longest summary a ping carries (Cronitor's message allows 2,000; a log line needs far less). */
export const PING_SUMMARY_MAX = 500;

/**
 * The slot's run id: a name-based UUID (RFC 9562 version 5, SHA-1) of the state file and the slot's
 * instant. Healthchecks.io takes `rid` only in the UUID form; the same slot always gets the same id,
 * so its `/start` and its end pair up, and a slot killed mid-cycle leaves a `/start` whose rid no end
 * ever carries.
 */
export function slotRunId(statePath: string, slotMs: number): string {
  const hash = createHash('sha1')
    .update(`heartbeat-kit slot\0${statePath}\0${new Date(slotMs).toISOString()}`)
    .digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** A summary as it may leave the machine: one line, no control characters, secrets redacted, at most {@link PING_SUMMARY_MAX}. */
export function pingSummaryText(summary: string): string {
  const line = redactSecrets(stripTerminalEscapes(summary)).replace(/\s+/g, ' ').trim();
  return line.length <= PING_SUMMARY_MAX ? line : `${line.slice(0, PING_SUMMARY_MAX - 1)}…`;
}

/**
 * The request of one event. Healthchecks.io: `/start`, the base URL on success, `/fail` (a scanner
 * failed) or `/{exit}` (0–255) otherwise, `?rid=` the slot's id, the summary as the POST body.
 * Cronitor telemetry: GET `?state=run|complete|fail&series=<id>`, the summary as `message`, the exit
 * code as `status_code`.
 */
export function pingRequest(spec: PingSpec, event: PingEvent, runId: string): PingRequest {
  if (spec.flavour === 'cronitor') {
    const query = new URLSearchParams();
    if (event.kind === 'start') query.set('state', 'run');
    else {
      query.set('state', event.result.kind === 'success' ? 'complete' : 'fail');
      query.set('message', pingSummaryText(event.summary));
      if (event.result.kind === 'exit') query.set('status_code', String(event.result.code));
    }
    query.set('series', runId);
    return { method: 'GET', url: `${spec.url}?${query.toString()}` };
  }
  const rid = `?rid=${runId}`;
  if (event.kind === 'start') return { method: 'POST', url: `${spec.url}/start${rid}`, body: '' };
  const suffix =
    event.result.kind === 'success' ? '' : event.result.kind === 'fail' ? '/fail' : `/${Math.max(0, Math.min(255, event.result.code))}`;
  return { method: 'POST', url: `${spec.url}${suffix}${rid}`, body: pingSummaryText(event.summary) };
}
