import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFileMtimeOperatorActivity } from './file-mtime-operator-activity.js';
import { nodeSleep, systemClock } from './system-clock.js';

describe('systemClock and nodeSleep', () => {
  it('the clock follows real time', async () => {
    const before = Date.now();
    await nodeSleep.sleep(20);
    const now = systemClock.now().getTime();
    expect(now).toBeGreaterThanOrEqual(before + 15);
  });

  it('resolves (never rejects) when aborted mid-wait', async () => {
    const controller = new AbortController();
    const sleeping = nodeSleep.sleep(600_000, controller.signal);
    let done = false;
    void sleeping.then(() => {
      done = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(done).toBe(false);
    controller.abort();
    await expect(sleeping).resolves.toBeUndefined();
  });

  it('resolves at once for an already aborted signal, and for huge or invalid delays does not fire early', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(nodeSleep.sleep(600_000, controller.signal)).resolves.toBeUndefined();
    await expect(nodeSleep.sleep(Number.NaN)).resolves.toBeUndefined();
    const huge = new AbortController();
    let fired = false;
    const long = nodeSleep.sleep(2 ** 40, huge.signal).then(() => {
      fired = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fired).toBe(false);
    huge.abort();
    await long;
    expect(fired).toBe(true);
  });
});

describe('createFileMtimeOperatorActivity', () => {
  it('reads the mtime, and a missing file as unknown', async () => {
    const root = mkdtempSync(join(tmpdir(), 'hb-core-activity-'));
    try {
      const path = join(root, 'inbox');
      const activity = createFileMtimeOperatorActivity(path);
      expect((await activity.lastActiveAt())._unsafeUnwrap()).toBeUndefined();
      writeFileSync(path, 'hi');
      const when = new Date('2026-07-22T10:03:00Z');
      utimesSync(path, when, when);
      expect((await activity.lastActiveAt())._unsafeUnwrap()?.toISOString()).toBe(when.toISOString());
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
