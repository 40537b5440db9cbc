import { mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFileLockStore } from '@heartbeat-kit/core/node';
import { afterAll, describe, expect, it } from 'vitest';
import { runBeat, woterclipLockCodec } from '../src/index.js';
import { harness, report } from './beat-harness.js';

const dir = mkdtempSync(join(tmpdir(), 'woterclip-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('superseded beat on the real lockfile', () => {
  it('another beat retakes .heartbeat-lock mid-dispatch: no comment, no beat line, its lock untouched', async () => {
    const path = join(dir, '.heartbeat-lock');
    const h = harness({ issues: [{ number: 1, title: 'a', labels: ['backend'] }] });
    const successor = '{"beat_id": "1784721600-777", "started_at": "2026-07-22T12:00:00Z", "started_epoch": 1784721600}\n';
    const dispatcher = {
      dispatch: (r: Parameters<typeof h.dispatcher.dispatch>[0]) => {
        // What a later beat does after judging this one stale: delete, then exclusively re-create.
        expect(readFileSync(path, 'utf8')).toContain(`"beat_id": "${Math.floor(h.clock.now().getTime() / 1000)}-4821"`);
        unlinkSync(path);
        writeFileSync(path, successor, { flag: 'wx' });
        return h.dispatcher.dispatch(r).map(() => report('completed', {}, r));
      },
    };
    const lock = createFileLockStore({ path, codec: woterclipLockCodec, clock: h.clock });
    const result = await runBeat({ ...h.deps, lock, dispatcher });
    expect(result.exit).toBe('superseded');
    expect(result.messages).toEqual([]);
    expect(h.tracker.calls.filter((c) => c.op === 'comment' || c.op === 'close')).toEqual([]);
    expect(h.log.text).toBe('');
    expect(readFileSync(path, 'utf8')).toBe(successor);
  });

  it('the same beat without interference releases the real lockfile', async () => {
    const path = join(dir, '.heartbeat-lock-2');
    const h = harness({ issues: [{ number: 1, title: 'a', labels: ['backend'] }] });
    const result = await runBeat({ ...h.deps, lock: createFileLockStore({ path, codec: woterclipLockCodec, clock: h.clock }) });
    expect(result.exit).toBe('complete');
    expect(() => readFileSync(path)).toThrow();
  });
});
