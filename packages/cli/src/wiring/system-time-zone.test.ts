import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { systemTimeZone } from './system-time-zone.js';

const zones = Intl.supportedValuesOf('timeZone');
const nodeReports = (zone: string | undefined) => () => zone;

describe('systemTimeZone reads TZ the way glibc does, and never falls back to UTC silently', () => {
  it('any zone Intl knows, written as a name, `:name` or a zoneinfo path, is that zone', () => {
    fc.assert(
      fc.property(fc.constantFrom(...zones), fc.constantFrom('', ':', '/usr/share/zoneinfo/', ':/usr/share/zoneinfo/'), (zone, prefix) => {
        // What Node reports is ignored when TZ is set: it is what Node failed to read that matters.
        expect(systemTimeZone({ TZ: `${prefix}${zone}` }, nodeReports(undefined))._unsafeUnwrap()).toBe(zone);
      }),
    );
  });

  it('an empty TZ and the POSIX spellings of UTC are UTC, as glibc reads them', () => {
    for (const tz of ['', ' ', ':', 'UTC0', 'GMT0', 'utc'])
      expect(systemTimeZone({ TZ: tz }, nodeReports('Etc/Unknown'))._unsafeUnwrap()).toBe('UTC');
  });

  it('no TZ: the zone Node reports, or UTC on a machine with none configured', () => {
    const noLink = () => undefined;
    expect(systemTimeZone({}, nodeReports('Europe/Berlin'), noLink)._unsafeUnwrap()).toBe('Europe/Berlin');
    expect(systemTimeZone({}, nodeReports(undefined), noLink)._unsafeUnwrap()).toBe('UTC');
    expect(systemTimeZone({}, nodeReports('Etc/Unknown'), noLink)._unsafeUnwrap()).toBe('UTC');
  });

  it('no TZ and /etc/localtime linking to a UTC zone file: UTC without asking Intl (no ICU data loaded)', () => {
    const asked = () => {
      throw new Error('Intl was asked');
    };
    for (const link of ['/usr/share/zoneinfo/Etc/UTC', '../usr/share/zoneinfo/UTC', '/var/db/timezone/zoneinfo/Etc/Universal'])
      expect(systemTimeZone({}, asked, () => link)._unsafeUnwrap()).toBe('UTC');
    expect(systemTimeZone({ TZ: 'Etc/UTC' }, asked, () => undefined)._unsafeUnwrap()).toBe('UTC');
    // Any other link: Node's answer, as before (ICU reads the same link).
    expect(systemTimeZone({}, nodeReports('Europe/Berlin'), () => '/usr/share/zoneinfo/Europe/Berlin')._unsafeUnwrap()).toBe(
      'Europe/Berlin',
    );
  });

  it('a TZ that names no zone is an error that names TZ and says how to fix it', () => {
    const result = systemTimeZone({ TZ: 'Mars/Olympus' }, nodeReports(undefined));
    if (result.isOk()) throw new Error(`expected an error, got ${result.value}`);
    expect(result.error.message).toBe(
      `the environment's TZ="Mars/Olympus" is not a time zone heartbeat-kit can read (Node would silently use UTC)`,
    );
    expect(result.error.fix).toContain('set TZ to an IANA name such as Europe/Berlin');
  });

  it('never throws and never echoes more than 80 characters of any TZ', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300, unit: 'binary' }), (tz) => {
        const result = systemTimeZone({ TZ: tz }, nodeReports(undefined));
        if (result.isErr()) {
          expect(result.error.message.length).toBeLessThan(300);
          expect(result.error.message).not.toMatch(/\p{Cc}/u);
        }
      }),
    );
  });
});
