import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { STOP_REASON_TABLE, STOP_REASONS, isStopReason, stopReasonInfo } from './stop-reasons.js';

describe('stop reasons', () => {
  it('the table maps exactly the closed set', () => {
    expect(Object.keys(STOP_REASON_TABLE).sort()).toEqual([...STOP_REASONS].sort());
    expect(new Set(STOP_REASONS).size).toBe(STOP_REASONS.length);
    expect(STOP_REASONS).toHaveLength(7);
  });

  it('follows the reference exit table', () => {
    for (const reason of STOP_REASONS) {
      const info = stopReasonInfo(reason);
      expect(info.description.length).toBeGreaterThan(0);
      expect(info.message.length).toBeGreaterThan(0);
      // Only lock_conflict neither owns the lock nor records a beat line.
      expect(info.recordsBeatLine).toBe(reason !== 'lock_conflict');
      expect(info.appliesOwnershipRule).toBe(reason !== 'lock_conflict');
    }
    expect(stopReasonInfo('lock_conflict').message).toBe('Previous heartbeat still active. Skipping.');
    expect(stopReasonInfo('quiet_hours').message).toBe('Quiet hours active. Skipping.');
  });

  it('isStopReason accepts the set and nothing else', () => {
    for (const reason of STOP_REASONS) expect(isStopReason(reason)).toBe(true);
    for (const value of ['', 'COMPLETE', 'toString', '__proto__', 'constructor', 'complete ', null, undefined, 3, {}]) {
      expect(isStopReason(value)).toBe(false);
    }
    fc.assert(
      fc.property(
        fc.anything(),
        (value) => isStopReason(value) === (typeof value === 'string' && (STOP_REASONS as readonly string[]).includes(value)),
      ),
    );
  });
});
