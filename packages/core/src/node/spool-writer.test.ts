import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { processStartMark } from './process-liveness.js';
import { spoolWriterRuns, startedAtMs, startMarkSync } from './spool-writer.js';

describe('spool writer liveness', () => {
  it('reads the same start mark as the locks do, synchronously, and none for a pid that does not exist', async () => {
    expect(startMarkSync(process.pid)).toBe(await processStartMark(process.pid));
    expect(startMarkSync(2 ** 30)).toBeUndefined();
  });

  it('dates a start mark between boot and now', () => {
    const started = startedAtMs(startMarkSync(process.pid) ?? '0') ?? 0;
    // This process started before this line ran, and after the machine booted (both within the clock's slack).
    expect(started).toBeLessThanOrEqual(Date.now() + 2000);
    expect(started).toBeGreaterThan(Date.now() - 365 * 24 * 3600 * 1000);
  });

  it('a recorded start mark decides: the same one is the writer, another is a later process with the pid', () => {
    fc.assert(
      fc.property(fc.nat(), fc.nat(), fc.integer(), fc.integer(), (recorded, current, startedAt, changedAt) => {
        expect(
          spoolWriterRuns({
            recordedStart: String(recorded),
            currentStart: String(current),
            currentStartedAtMs: startedAt,
            spoolChangedAtMs: changedAt,
          }),
        ).toBe(recorded === current);
      }),
    );
  });

  it('without a recorded mark (an older name), a process that started after the spool last changed is not its writer', () => {
    const changed = 1_000_000;
    expect(spoolWriterRuns({ currentStart: '5', currentStartedAtMs: changed - 60_000, spoolChangedAtMs: changed })).toBe(true);
    // Within the clock's slack (whole-second boot time): maybe the writer, waited for.
    expect(spoolWriterRuns({ currentStart: '5', currentStartedAtMs: changed + 1500, spoolChangedAtMs: changed })).toBe(true);
    expect(spoolWriterRuns({ currentStart: '5', currentStartedAtMs: changed + 60_000, spoolChangedAtMs: changed })).toBe(false);
    // Unknown start time: never taken for dead.
    expect(spoolWriterRuns({ currentStart: '5', spoolChangedAtMs: changed })).toBe(true);
  });

  it('a running group whose leader has exited (or no /proc) still prints through its members', () => {
    expect(spoolWriterRuns({ recordedStart: '7', spoolChangedAtMs: 0 })).toBe(true);
    expect(spoolWriterRuns({ spoolChangedAtMs: 0 })).toBe(true);
  });
});
