import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crc16, hashTagOf, keySlot } from './key-slot.js';

describe('keySlot', () => {
  it('matches the values of the Redis Cluster specification and CLUSTER KEYSLOT', () => {
    // The specification's check value of CRC16/XMODEM, and slots redis-server 7 answers.
    expect(crc16(new TextEncoder().encode('123456789'))).toBe(0x31c3);
    expect(keySlot('foo')).toBe(12182);
    expect(keySlot('somekey')).toBe(11058);
    expect(keySlot('{user1000}.following')).toBe(keySlot('{user1000}.followers'));
  });

  it('hashes only the first non-empty {tag}', () => {
    expect(hashTagOf('{a}b{c}')).toBe('a');
    expect(hashTagOf('{}a')).toBe('{}a');
    expect(hashTagOf('a{b')).toBe('a{b');
    expect(hashTagOf('a{b}{c}')).toBe('b');
  });

  it('keeps every key with the same tag in one slot, inside 0..16383', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string(), fc.string(), (tag, before, after) => {
        fc.pre(!tag.includes('}') && !before.includes('{'));
        const slot = keySlot(`${before}{${tag}}${after}`);
        expect(slot).toBe(keySlot(tag));
        expect(slot).toBeGreaterThanOrEqual(0);
        expect(slot).toBeLessThan(16384);
      }),
    );
  });
});
