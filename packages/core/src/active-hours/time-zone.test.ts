import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalTimeZone, isValidTimeZone, resolveTimeZone } from './time-zone.js';

describe('time zones', () => {
  it('canonicalises the spelling of a valid zone', () => {
    expect(canonicalTimeZone('america/new_york')).toBe('America/New_York');
    expect(canonicalTimeZone(' Europe/Berlin ')).toBe('Europe/Berlin');
    expect(isValidTimeZone('Australia/Lord_Howe')).toBe(true);
  });

  it('rejects unknown and empty names', () => {
    expect(canonicalTimeZone('Mars/Olympus_Mons')).toBeUndefined();
    expect(canonicalTimeZone('')).toBeUndefined();
    expect(isValidTimeZone('   ')).toBe(false);
  });

  it('never throws on arbitrary text', () => {
    fc.assert(fc.property(fc.string(), (text) => {
      const zone = canonicalTimeZone(text);
      expect(zone === undefined || typeof zone === 'string').toBe(true);
    }));
  });

  it('resolveTimeZone prefers the configured zone, else the system one', () => {
    expect(resolveTimeZone('Asia/Tokyo', 'Europe/Berlin')._unsafeUnwrap()).toBe('Asia/Tokyo');
    expect(resolveTimeZone(undefined, 'Europe/Berlin')._unsafeUnwrap()).toBe('Europe/Berlin');
    expect(resolveTimeZone('  ', 'Europe/Berlin')._unsafeUnwrap()).toBe('Europe/Berlin');
  });

  it('resolveTimeZone reports an invalid zone instead of guessing', () => {
    const error = resolveTimeZone('Nowhere/City', 'Europe/Berlin')._unsafeUnwrapErr();
    expect(error).toMatchObject({ kind: 'invalid-time-zone', zone: 'Nowhere/City' });
    expect(resolveTimeZone(undefined, 'bogus')._unsafeUnwrapErr().zone).toBe('bogus');
  });
});
