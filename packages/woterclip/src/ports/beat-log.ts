import type { ResultAsync } from 'neverthrow';
import type { LogLine, ParsedLog } from '../log/log-lines.js';

/** Why the log could not be read or appended. */
export interface BeatLogError {
  readonly kind: 'io';
  readonly message: string;
}

/**
 * `.woterclip/heartbeat-log.jsonl`: append-only, one JSON object per line, never rotated.
 * `append` is durable (fsync) before it resolves; `read` tolerates a torn last line.
 */
export interface BeatLog {
  readonly append: (line: LogLine) => ResultAsync<void, BeatLogError>;
  readonly read: () => ResultAsync<ParsedLog, BeatLogError>;
}
