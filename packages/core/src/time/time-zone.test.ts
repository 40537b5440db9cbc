import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { normalizeTimeZone, isValidTimeZone, resolveTimeZone } from './time-zone.js';

describe('time zones', () => {
  it('corrects the letter case of a valid zone but keeps aliases as written', () => {
    expect(normalizeTimeZone('Asia/Kolkata')).toBe('Asia/Kolkata');
    expect(normalizeTimeZone('utc')).toBe('UTC');
    expect(normalizeTimeZone('america/new_york')).toBe('America/New_York');
    expect(normalizeTimeZone(' Europe/Berlin ')).toBe('Europe/Berlin');
    expect(isValidTimeZone('Australia/Lord_Howe')).toBe(true);
  });

  it('rejects unknown and empty names', () => {
    expect(normalizeTimeZone('Mars/Olympus_Mons')).toBeUndefined();
    expect(normalizeTimeZone('')).toBeUndefined();
    expect(isValidTimeZone('   ')).toBe(false);
  });

  it('never throws on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const zone = normalizeTimeZone(text);
        expect(zone === undefined || typeof zone === 'string').toBe(true);
      }),
    );
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

describe('UTC without ICU (issue 16)', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('normalizes every spelling of UTC as Intl does, without asking Intl', () => {
    const spellings = fc
      .sample(
        fc
          .constantFrom('u', 'U')
          .chain((u) => fc.tuple(fc.constant(u), fc.constantFrom('t', 'T'), fc.constantFrom('c', 'C'), fc.constantFrom('', ' ', '\t'))),
        40,
      )
      .map(([u, t, c, pad]) => `${pad}${u}${t}${c}${pad}`);
    const viaIntl = spellings.map((zone) => new Intl.DateTimeFormat('en-US', { timeZone: zone.trim() }).resolvedOptions().timeZone);
    const dateTimeFormat = vi.spyOn(Intl, 'DateTimeFormat');
    const normalized = spellings.map((zone) => normalizeTimeZone(zone));
    expect(dateTimeFormat).not.toHaveBeenCalled();
    expect(normalized).toEqual(viaIntl);
  });

  it('reads the system zone only when none is configured', () => {
    const system = vi.fn(() => 'Europe/Berlin');
    expect(resolveTimeZone('UTC', system)._unsafeUnwrap()).toBe('UTC');
    expect(system).not.toHaveBeenCalled();
    expect(resolveTimeZone(undefined, system)._unsafeUnwrap()).toBe('Europe/Berlin');
    expect(resolveTimeZone('  ', system)._unsafeUnwrap()).toBe('Europe/Berlin');
    expect(system).toHaveBeenCalledTimes(2);
  });
});
