import { err, ok, type Result } from 'neverthrow';
import { z } from 'zod';
import { parseIsoInstant } from '../text/iso-instant.js';
import { formatDuration, parseDurationStrict } from '../time/duration.js';

/** The longest note a pause keeps: one line for an operator, not a log. */
export const PAUSE_NOTE_MAX = 500;

/**
 * One operator pause, as stored beside the state (`<state>.pause.json`) or per heartbeat in Redis.
 * Without `until` it lasts until `resume`. With `scanners` only those scanners stop (the others
 * run); with `exceptCritical` the slot still runs, but only Immediate findings (P0/P1 work,
 * orchestrator failures) and GChat replies are reported.
 */
export const pauseSchema = z.object({
  v: z.literal(1),
  /** Why, in the operator's words (required). */
  note: z.string().min(1).max(PAUSE_NOTE_MAX),
  /** When the pause was written (ISO instant). */
  since: z.iso.datetime(),
  /** When it ends by itself (ISO instant); absent = until `resume`. */
  until: z.iso.datetime().optional(),
  /** Only these scanners are paused; absent = the whole slot. */
  scanners: z.array(z.string().min(1).max(100)).min(1).max(50).optional(),
  /** Immediate findings, orchestrator failures and GChat replies keep flowing. */
  exceptCritical: z.literal(true).optional(),
});

/** One operator pause (see {@link pauseSchema}). */
export type Pause = z.infer<typeof pauseSchema>;

/** What the operator asked for, as the flags gave it (raw text, checked by {@link createPause}). */
export interface PauseRequest {
  readonly note: string | undefined;
  /** `--for`: a duration such as `2h` or `90m` (a bare number is hours). */
  readonly for?: string | undefined;
  /** `--until`: an ISO instant with a zone, later than now. */
  readonly until?: string | undefined;
  readonly scanners?: readonly string[] | undefined;
  readonly exceptCritical?: boolean | undefined;
}

/** A request that cannot become a pause: the flag at fault and one line naming the fix. */
export interface PauseInputError {
  readonly kind: 'invalid-pause';
  readonly flag: '--note' | '--for' | '--until' | '--scanner';
  readonly message: string;
}

function invalid(flag: PauseInputError['flag'], message: string): Result<never, PauseInputError> {
  return err({ kind: 'invalid-pause', flag, message });
}

/**
 * Checks a pause request and builds the pause that starts at `nowMs`. Pure: the caller writes it.
 * `knownScanners` are the scanner names this heartbeat runs; a paused scanner must be one of them,
 * so a typo never leaves everything running while the operator believes it paused.
 */
export function createPause(request: PauseRequest, nowMs: number, knownScanners: readonly string[]): Result<Pause, PauseInputError> {
  const note = request.note?.trim() ?? '';
  if (note === '') return invalid('--note', 'a pause needs a note saying why. Fix: add --note "deploying the new runner".');
  if (note.length > PAUSE_NOTE_MAX)
    return invalid('--note', `the note is ${note.length} characters, over ${PAUSE_NOTE_MAX}. Fix: shorten it to one line.`);
  if ([...note].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f))
    return invalid('--note', 'the note holds control characters or line breaks. Fix: give one line of plain text.');
  if (request.for !== undefined && request.until !== undefined)
    return invalid('--for', '--for and --until both say when the pause ends. Fix: give one of them.');
  let untilMs: number | undefined;
  if (request.for !== undefined) {
    const parsed = parseDurationStrict(request.for, 'h');
    if (parsed.isErr())
      return invalid(
        '--for',
        `--for ${JSON.stringify(request.for)} ${parsed.error.message} Fix: give only a duration, e.g. --for 2h or --for 90m.`,
      );
    if (parsed.value > 366 * 86_400_000)
      return invalid(
        '--for',
        `--for ${JSON.stringify(request.for)} is longer than ${formatDuration(366 * 86_400_000)}. Fix: pause without an end and resume by hand.`,
      );
    untilMs = nowMs + parsed.value;
  }
  if (request.until !== undefined) {
    const parsed = parseIsoInstant(request.until);
    if (parsed.isErr())
      return invalid(
        '--until',
        `--until ${JSON.stringify(request.until)} ${parsed.error.message} Fix: use an ISO-8601 instant with a zone, e.g. --until 2026-02-19T14:50:00Z.`,
      );
    if (parsed.value.getTime() <= nowMs)
      return invalid(
        '--until',
        `--until ${request.until} is not later than now (${new Date(nowMs).toISOString()}). Fix: give a future instant, or --for 2h.`,
      );
    untilMs = parsed.value.getTime();
  }
  const scanners = [...new Set(request.scanners ?? [])];
  const unknown = scanners.filter((name) => !knownScanners.includes(name));
  if (unknown.length > 0)
    return invalid(
      '--scanner',
      `unknown scanner${unknown.length === 1 ? '' : 's'} ${unknown.map((n) => JSON.stringify(n)).join(', ')}. Fix: name one of ${knownScanners.join(', ')}.`,
    );
  return ok({
    v: 1,
    note,
    since: new Date(nowMs).toISOString(),
    ...(untilMs === undefined ? {} : { until: new Date(untilMs).toISOString() }),
    ...(scanners.length === 0 ? {} : { scanners }),
    ...(request.exceptCritical === true ? { exceptCritical: true as const } : {}),
  });
}

/** One line naming a pause: `paused until 2026-02-19T12:00:00.000Z: deploying` (and what it covers). */
export function describePause(pause: Pause): string {
  const end = pause.until === undefined ? `paused since ${pause.since} (no end: until resume)` : `paused until ${pause.until}`;
  const what = [
    ...(pause.scanners === undefined ? [] : [`scanners ${pause.scanners.join(', ')}`]),
    ...(pause.exceptCritical === true ? ['except Immediate findings, orchestrator failures and GChat replies'] : []),
  ];
  return `${end}${what.length === 0 ? '' : ` (${what.join('; ')})`}: ${pause.note}`;
}
