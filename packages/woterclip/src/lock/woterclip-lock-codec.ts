import type { LockCodec } from '@heartbeat-kit/core/host';
import { err, ok, type Result } from 'neverthrow';
import { z } from 'zod';

function parseJson(text: string): Result<unknown, string> {
  try {
    return ok(JSON.parse(text) as unknown);
  } catch (error) {
    return err(`not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
}

// The holder's identity fields are optional and forgiving: a lock written by an older version or
// by WoterClip's own printf has none, and a malformed one is read as absent, so the lock's age
// decides (never a corrupt-lock error that would stop every beat until a human deletes the file).
const optionalIdentity = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);

const woterclipLockSchema = z.object({
  beat_id: z.string().min(1).max(512),
  started_at: z.string().optional(),
  started_epoch: z
    .number()
    .int()
    .nonnegative()
    .max(Number.MAX_SAFE_INTEGER / 1000),
  host: optionalIdentity(z.string().min(1).max(256)),
  pid: optionalIdentity(
    z
      .number()
      .int()
      .positive()
      .max(2 ** 31),
  ),
  process_start: optionalIdentity(z.string().min(1).max(64)),
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
 *
 * After the spec's three keys the holder's `host`, `pid` and `process_start` (its start time, from
 * `/proc/<pid>/stat`) are written when the store knows them, so that a beat on the same host takes
 * over at once the lock of a beat that was killed (pid and start time tell a dead or reused pid
 * from a live one), instead of skipping for `stale_lock_hours`. A lock without them (an older
 * version, WoterClip's own printf, another host) is judged by its age, as the spec says.
 */
export const woterclipLockCodec: LockCodec = {
  encode: (record) => {
    const epoch = Math.floor(record.acquiredAtMs / 1000);
    const identity = [
      record.host === undefined ? '' : `, "host": ${JSON.stringify(record.host)}`,
      record.pid === undefined ? '' : `, "pid": ${record.pid}`,
      record.processStart === undefined ? '' : `, "process_start": ${JSON.stringify(record.processStart)}`,
    ].join('');
    return `{"beat_id": ${JSON.stringify(record.owner)}, "started_at": "${formatWoterclipTimestamp(record.acquiredAtMs)}", "started_epoch": ${epoch}${identity}}\n`;
  },
  decode: (text) =>
    parseJson(text).andThen((value) => {
      const parsed = woterclipLockSchema.safeParse(value);
      if (!parsed.success) {
        return err(parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; '));
      }
      const { beat_id, started_epoch, host, pid, process_start } = parsed.data;
      return ok({
        owner: beat_id,
        acquiredAtMs: started_epoch * 1000,
        ...(host === undefined ? {} : { host }),
        ...(pid === undefined ? {} : { pid }),
        ...(process_start === undefined ? {} : { processStart: process_start }),
      });
    }),
};
