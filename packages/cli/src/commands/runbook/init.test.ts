import { describe, expect, it } from 'vitest';
import { sampleRunbook } from './init.js';

describe('sampleRunbook', () => {
  it('dates its items a week and two weeks ahead in calendar days, also across a DST change near midnight', () => {
    // 00:30 on 2026-10-19 in Berlin; the clocks go back an hour on 2026-10-25, so 7 × 24 h later it
    // is 23:30 on 10-25, a day short of a week.
    const text = sampleRunbook(new Date('2026-10-18T22:30:00Z'), 'Europe/Berlin');
    expect(text).toContain('Webhook retries since 2026-10-19.');
    expect(text).toContain('(check 10-26)');
    expect(text).toContain('DELETE 11-02');
  });

  it('reads today in the zone: near midnight UTC a zone ahead is a day later than a zone behind', () => {
    const at = new Date('2026-12-31T23:30:00Z');
    expect(sampleRunbook(at, 'Asia/Tokyo')).toContain('(check 01-08)');
    expect(sampleRunbook(at, 'America/Los_Angeles')).toContain('(check 01-07)');
  });
});
