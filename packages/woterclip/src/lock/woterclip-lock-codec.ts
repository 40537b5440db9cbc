import type { LockCodec } from '@heartbeat-kit/core';
import { err, ok, type Result } from 'neverthrow';
import { z } from 'zod';

function parseJson(text: string): Result<unknown, string> {
  try {
    return ok(JSON.parse(text) as unknown);
  } catch (error) {
    return err(`not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
}

const woterclipLockSchema = z.object({
  beat_id: z.string().min(1).max(512),
  started_at: z.string().optional(),
  started_epoch: z
    .number()
    .int()
    .nonnegative()
    .max(Number.MAX_SAFE_INTEGER / 1000),
});

/** `YYYY-MM-DDTHH:MM:SSZ` of an epoch-milliseconds instant, the way WoterClip writes `started_at`. */
export function formatWoterclipTimestamp(epochMs: number): string {
  return new Date(Math.floor(epochMs / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * WoterClip's lockfile format (reference §5): `{"beat_id", "started_at", "started_epoch"}`, for
 * core's file lock store (`createFileLockStore({ path, codec: woterclipLockCodec })`).
 * `beat_id` is the owner; `started_epoch` (seconds) is the clock, so `acquiredAtMs` loses its
 * milliseconds. `started_at` is written for humans and ignored on read: the epoch is the beat clock.
 */
export const woterclipLockCodec: LockCodec = {
  encode: (record) => {
    const epoch = Math.floor(record.acquiredAtMs / 1000);
    return `{"beat_id": ${JSON.stringify(record.owner)}, "started_at": "${formatWoterclipTimestamp(record.acquiredAtMs)}", "started_epoch": ${epoch}}\n`;
  },
  decode: (text) =>
    parseJson(text).andThen((value) => {
      const parsed = woterclipLockSchema.safeParse(value);
      if (!parsed.success) {
        return err(parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; '));
      }
      return ok({ owner: parsed.data.beat_id, acquiredAtMs: parsed.data.started_epoch * 1000 });
    }),
};
