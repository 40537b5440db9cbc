import { err, ok, type Result } from 'neverthrow';
import type { LockRecord } from '../ports/lock-store.js';
import { parseLockRecord } from './lock-decisions.js';

/**
 * How a lock record is written to and read from text, so a lock file can keep a format other
 * tools already read (WoterClip's `.heartbeat-lock`: `woterclipLockCodec` in
 * `@heartbeat-kit/woterclip`). `decode` never throws: bad text is an error message.
 */
export interface LockCodec {
  /** The file's full text for a record. */
  readonly encode: (record: LockRecord) => string;
  /** The record in a file's text, or why the text is not a lock. */
  readonly decode: (text: string) => Result<LockRecord, string>;
}

function parseJson(text: string): Result<unknown, string> {
  try {
    return ok(JSON.parse(text) as unknown);
  } catch (error) {
    return err(`not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
}

/** The default codec: the {@link LockRecord} itself as one line of JSON. */
export const jsonLockCodec: LockCodec = {
  encode: (record) => `${JSON.stringify(record)}\n`,
  decode: (text) => parseJson(text).andThen(parseLockRecord),
};
