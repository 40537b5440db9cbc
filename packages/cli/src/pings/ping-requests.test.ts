import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PING_SUMMARY_MAX, pingRequest, pingSummaryText, slotRunId } from './ping-requests.js';
import type { PingSpec } from './ping-spec.js';

const hc: PingSpec = { flavour: 'healthchecks', url: 'https://hc-ping.com/uuid', origin: 'https://hc-ping.com' };
const cronitor: PingSpec = { flavour: 'cronitor', url: 'https://cronitor.link/p/KEY/hb', origin: 'https://cronitor.link' };
const RID = slotRunId('/repo/.git/heartbeat-kit/state.json', Date.parse('2026-02-19T14:10:00Z'));

describe('slotRunId', () => {
  it('is a UUID (version 5, RFC variant), the same for the same slot and different for another', () => {
    expect(RID).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(slotRunId('/repo/.git/heartbeat-kit/state.json', Date.parse('2026-02-19T14:10:00Z'))).toBe(RID);
    expect(slotRunId('/repo/.git/heartbeat-kit/state.json', Date.parse('2026-02-19T14:20:00Z'))).not.toBe(RID);
    expect(slotRunId('/other/state.json', Date.parse('2026-02-19T14:10:00Z'))).not.toBe(RID);
  });
});

describe('pingRequest: Healthchecks.io', () => {
  it('/start, the base URL on success, /fail for a failed scanner, /EXIT otherwise; rid on each; the summary as body', () => {
    expect(pingRequest(hc, { kind: 'start' }, RID)).toEqual({ method: 'POST', url: `https://hc-ping.com/uuid/start?rid=${RID}`, body: '' });
    expect(pingRequest(hc, { kind: 'end', result: { kind: 'success' }, summary: 'cycle #1 HEARTBEAT_OK' }, RID)).toEqual({
      method: 'POST',
      url: `https://hc-ping.com/uuid?rid=${RID}`,
      body: 'cycle #1 HEARTBEAT_OK',
    });
    expect(pingRequest(hc, { kind: 'end', result: { kind: 'fail' }, summary: 's' }, RID).url).toBe(
      `https://hc-ping.com/uuid/fail?rid=${RID}`,
    );
    expect(pingRequest(hc, { kind: 'end', result: { kind: 'exit', code: 3 }, summary: 's' }, RID).url).toBe(
      `https://hc-ping.com/uuid/3?rid=${RID}`,
    );
    expect(pingRequest(hc, { kind: 'end', result: { kind: 'exit', code: 999 }, summary: 's' }, RID).url).toBe(
      `https://hc-ping.com/uuid/255?rid=${RID}`,
    );
  });
});

describe('pingRequest: Cronitor telemetry', () => {
  it('state=run, complete or fail, the run id as series, the summary as message, the exit as status_code', () => {
    expect(pingRequest(cronitor, { kind: 'start' }, RID)).toEqual({
      method: 'GET',
      url: `https://cronitor.link/p/KEY/hb?state=run&series=${RID}`,
    });
    const ok = new URL(pingRequest(cronitor, { kind: 'end', result: { kind: 'success' }, summary: 'cycle #1 HEARTBEAT_OK' }, RID).url);
    expect(Object.fromEntries(ok.searchParams)).toEqual({ state: 'complete', message: 'cycle #1 HEARTBEAT_OK', series: RID });
    const failed = new URL(pingRequest(cronitor, { kind: 'end', result: { kind: 'exit', code: 3 }, summary: 'x' }, RID).url);
    expect(Object.fromEntries(failed.searchParams)).toEqual({ state: 'fail', message: 'x', status_code: '3', series: RID });
  });
});

describe('pingSummaryText', () => {
  it('redacts secrets with the repo redaction and keeps one line', () => {
    const text = pingSummaryText('delivery failed:\nAuthorization: Bearer ghp_abcdefghijklmnopqrstuvwxyz0123456789AB');
    expect(text).not.toContain('ghp_abcdefghijklmnopqrstuvwxyz0123456789AB');
    expect(text).not.toContain('\n');
  });

  it('is always one line of at most the limit', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 2000 }), (summary) => {
        const text = pingSummaryText(summary);
        expect(text.length).toBeLessThanOrEqual(PING_SUMMARY_MAX);
        expect(text).not.toMatch(/[\n\r]/);
      }),
    );
  });
});
