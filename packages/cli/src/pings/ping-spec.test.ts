import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePingSpec } from './ping-spec.js';

describe('parsePingSpec', () => {
  it('reads a Healthchecks URL, a cronitor: URL and a bare URL with a flavour', () => {
    expect(parsePingSpec('https://hc-ping.com/0b1c', '--ping')).toEqual({
      ok: true,
      spec: { flavour: 'healthchecks', url: 'https://hc-ping.com/0b1c', origin: 'https://hc-ping.com' },
    });
    expect(parsePingSpec('`cronitor:https://cronitor.link/p/KEY/job/`', 'HEARTBEAT.md: Delivery → Ping')).toEqual({
      ok: true,
      spec: { flavour: 'cronitor', url: 'https://cronitor.link/p/KEY/job', origin: 'https://cronitor.link' },
    });
    expect(parsePingSpec('https://cronitor.link/p/KEY/job', '--ping', 'cronitor')).toMatchObject({
      ok: true,
      spec: { flavour: 'cronitor' },
    });
  });

  it('refuses what is not a ping target, naming where it came from and the fix', () => {
    for (const bad of [
      'hc-ping.com/x',
      'ftp://x/y',
      'https://user:pw@hc-ping.com/x',
      'https://hc-ping.com/x?rid=1',
      'https://hc-ping.com/x#f',
    ]) {
      const parsed = parsePingSpec(bad, '--ping');
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) expect(parsed.message).toMatch(/^--ping: .*Fix: /);
    }
    const flavour = parsePingSpec('https://x/y', '--ping', 'uptime');
    expect(flavour.ok ? '' : flavour.message).toContain('--ping-flavour');
    expect(parsePingSpec('cronitor:https://x/y', '--ping', 'healthchecks')).toMatchObject({ ok: false });
  });

  it('never throws, and what it accepts is http(s) with the origin printable apart from the path', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.webUrl().map((u) => `cronitor:${u}`),
          fc.webUrl(),
        ),
        (value) => {
          const parsed = parsePingSpec(value, '--ping');
          if (parsed.ok) {
            expect(parsed.spec.url.startsWith(parsed.spec.origin)).toBe(true);
            expect(parsed.spec.origin).toMatch(/^https?:\/\//);
          } else expect(parsed.message).toContain('Fix:');
        },
      ),
    );
  });
});
