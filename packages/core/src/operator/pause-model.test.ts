import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createPause, describePause, PAUSE_NOTE_MAX } from './pause-model.js';

const NOW = Date.parse('2026-02-19T10:00:00Z');
const KNOWN = ['beads', 'git', 'gchat'];

describe('createPause', () => {
  it('builds a pause for --for, --until or no end', () => {
    expect(createPause({ note: ' deploy ', for: '2h' }, NOW, KNOWN)._unsafeUnwrap()).toEqual({
      v: 1,
      note: 'deploy',
      since: '2026-02-19T10:00:00.000Z',
      until: '2026-02-19T12:00:00.000Z',
    });
    expect(createPause({ note: 'x', until: '2026-02-19T11:30:00Z' }, NOW, KNOWN)._unsafeUnwrap().until).toBe('2026-02-19T11:30:00.000Z');
    const open = createPause({ note: 'x', scanners: ['git', 'git'], exceptCritical: true }, NOW, KNOWN)._unsafeUnwrap();
    expect(open).toEqual({ v: 1, note: 'x', since: '2026-02-19T10:00:00.000Z', scanners: ['git'], exceptCritical: true });
    expect(describePause(open)).toContain('no end');
  });

  it.each([
    [{ note: 'x', for: '4 hours please' }, '--for'],
    [{ note: 'x', for: '0m' }, '--for'],
    [{ note: 'x', until: '2026-02-19T09:59:59Z' }, '--until'],
    [{ note: 'x', until: 'tomorrow' }, '--until'],
    [{ note: 'x', for: '1h', until: '2026-02-19T12:00:00Z' }, '--for'],
    [{ note: '' }, '--note'],
    [{ note: undefined }, '--note'],
    [{ note: '   ' }, '--note'],
    [{ note: 'a'.repeat(PAUSE_NOTE_MAX + 1) }, '--note'],
    [{ note: 'two\nlines' }, '--note'],
    [{ note: 'x', scanners: ['gti'] }, '--scanner'],
  ])('refuses %j naming %s and the fix', (request, flag) => {
    const error = createPause(request, NOW, KNOWN)._unsafeUnwrapErr();
    expect(error.flag).toBe(flag);
    expect(error.message).toMatch(/Fix: /);
  });

  it('any note of 1–500 printable characters is kept as given (trimmed)', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: PAUSE_NOTE_MAX, unit: fc.constantFrom('a', 'é', ' ', '"', '😀', 'z') }), (note) => {
        const made = createPause({ note }, NOW, KNOWN);
        if (note.trim() === '' || note.trim().length > PAUSE_NOTE_MAX) expect(made.isErr()).toBe(true);
        else expect(made._unsafeUnwrap().note).toBe(note.trim());
      }),
    );
  });

  it('a strict duration: prose after or before the duration is refused, never read as a number', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 999 }),
        fc.constantFrom('h', 'm'),
        fc.constantFrom(' please', ' or so', 'x'),
        (n, unit, prose) => {
          expect(createPause({ note: 'x', for: `${n}${unit}` }, NOW, KNOWN).isOk()).toBe(true);
          expect(createPause({ note: 'x', for: `${n}${unit}${prose}` }, NOW, KNOWN)._unsafeUnwrapErr().flag).toBe('--for');
        },
      ),
    );
  });
});
