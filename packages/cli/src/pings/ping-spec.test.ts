import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePingSpec } from './ping-spec.js';

describe('parsePingSpec', () => {
  it('reads a Healthchecks URL, a cronitor: URL and a bare URL with a flavour', () => {
    expect(parsePingSpec('https://hc-ping.com/0b1c', '--ping')._unsafeUnwrap()).toEqual({
      flavour: 'healthchecks',
      url: 'https://hc-ping.com/0b1c',
      origin: 'https://hc-ping.com',
    });
    expect(parsePingSpec('`cronitor:https://cronitor.link/p/KEY/job/`', 'HEARTBEAT.md: Delivery → Ping')._unsafeUnwrap()).toEqual({
      flavour: 'cronitor',
      url: 'https://cronitor.link/p/KEY/job',
      origin: 'https://cronitor.link',
    });
    expect(parsePingSpec('https://cronitor.link/p/KEY/job', '--ping', 'cronitor')._unsafeUnwrap()).toMatchObject({
      flavour: 'cronitor',
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
      expect(parsePingSpec(bad, '--ping')._unsafeUnwrapErr()).toMatch(/^--ping: .*Fix: /);
    }
    expect(parsePingSpec('https://x/y', '--ping', 'uptime')._unsafeUnwrapErr()).toContain('--ping-flavour');
    expect(parsePingSpec('cronitor:https://x/y', '--ping', 'healthchecks').isErr()).toBe(true);
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
          if (parsed.isOk()) {
            expect(parsed.value.url.startsWith(parsed.value.origin)).toBe(true);
            expect(parsed.value.origin).toMatch(/^https?:\/\//);
          } else expect(parsed.error).toContain('Fix:');
        },
      ),
    );
  });
});
