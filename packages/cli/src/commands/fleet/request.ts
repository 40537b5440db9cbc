// Each subcommand's own flags and ID, read and checked before Redis is contacted: a typo is a usage
// error naming the flag and the fix, never a connection failure or a worker waiting for Redis.
import {
  MAX_FAKE_SCAN_MS,
  MAX_FLEET_INTERVAL_MS,
  MIN_FLEET_INTERVAL_MS,
  isFleetHeartbeatId,
  parseFleetHeartbeat,
  type FleetHeartbeatInput,
} from '@heartbeat-kit/bullmq';
import { ackEnd, createPause, type Pause, validateAckNote } from '@heartbeat-kit/core/host';
import { BUILTIN_SCANNERS } from '@heartbeat-kit/scanners';
import { err, ok, type Result } from 'neverthrow';
import { parseMetricsFlags, type MetricsFlags } from '../../metrics/metrics-export.js';
import { parseSinkSpec, type SinkSpec } from '../../sinks/sink-spec.js';
import { resolvePath } from '../../wiring/cycle-deps.js';
import { parseDurationFlag } from '../../wiring/duration-flag.js';
import { parseInstantFlag } from '../../wiring/instant.js';
import { parseSince } from '../history.js';
import type { FleetValues, Subcommand } from './flags.js';

/** What one fleet subcommand was asked to do, every flag and argument already checked. */
export type FleetRequest =
  | { readonly sub: 'worker'; readonly worker: WorkerOptions }
  | { readonly sub: 'add'; readonly heartbeat: FleetHeartbeatInput }
  | { readonly sub: 'remove'; readonly id: string }
  | { readonly sub: 'list' | 'status' }
  | { readonly sub: 'history'; readonly id: string; readonly at: Date; readonly sinceMs: number }
  | { readonly sub: 'liveness'; readonly id: string; readonly at: Date; readonly maxAgeMs: number | undefined }
  | { readonly sub: 'ack'; readonly ack: FleetAckRequest }
  | { readonly sub: 'unack'; readonly id: string; readonly selector: string }
  | { readonly sub: 'pause'; readonly id: string; readonly pause: Pause; readonly rehearsal: boolean }
  | { readonly sub: 'resume'; readonly id: string };

/** A `fleet ack`'s checked flags (the selector is checked against the heartbeat's state in Redis). */
export interface FleetAckRequest {
  readonly id: string;
  /** Absent with `--list`. */
  readonly selector: string | undefined;
  readonly note: string;
  readonly until: string | undefined;
  readonly snooze: boolean;
  readonly by: string | undefined;
  readonly at: Date;
  /** `--now` was given: print what would be written, write nothing (as `heartbeat-kit ack --now`). */
  readonly rehearsal: boolean;
}

/** A `fleet worker`'s checked flags. */
export interface WorkerOptions {
  readonly concurrency: number | undefined;
  readonly lockTtlMs: number | undefined;
  /** How often the worker sweeps for stopped tick chains (0 = off; absent = the worker's default). */
  readonly tickWatchdogMs: number | undefined;
  /** Replicas that must confirm each new lock fence (`--min-replica-acks`). */
  readonly minReplicaAcks: number | undefined;
  readonly sink: SinkSpec;
  readonly fakeScanners: boolean;
  /** `--metrics-textfile` and `--metrics-listen` (empty: no figures, prom-client never loaded). */
  readonly metrics: MetricsFlags;
}

/** A checked value, or the usage error's message (`problem. Fix: how`). */
type Checked<T> = Result<T, string>;

const notAnId = (id: string): string => `"${id}" is not a heartbeat ID. Fix: use letters, digits, '.', '_' or '-' (no '__'), e.g. my-repo.`;

/** Reads and checks the subcommand's flags and ID (`id` is there when the subcommand takes one), or the usage error. */
export function readRequest(
  sub: Subcommand,
  id: string | undefined,
  values: FleetValues,
  place: { readonly cwd: string; readonly now: Date },
  selector?: string,
): Checked<FleetRequest> {
  const { cwd, now } = place;
  switch (sub) {
    case 'ack': {
      if (!isFleetHeartbeatId(id!)) return err(notAnId(id!));
      const ack = readAckFlags(id!, selector, values, now);
      return ack.map((value) => ({ sub, ack: value }));
    }
    case 'pause':
      return readPauseFlags(id!, values, now);
    case 'resume':
      return isFleetHeartbeatId(id!) ? ok({ sub, id: id! }) : err(notAnId(id!));
    case 'unack':
      return isFleetHeartbeatId(id!) ? ok({ sub, id: id!, selector: selector! }) : err(notAnId(id!));
    case 'worker': {
      const worker = readWorkerFlags(values, cwd);
      return worker.map((value) => ({ sub, worker: value }));
    }
    case 'add': {
      const heartbeat = readAddFlags(id!, values, cwd);
      return heartbeat.map((value) => ({ sub, heartbeat: value }));
    }
    case 'remove':
      return isFleetHeartbeatId(id!) ? ok({ sub, id: id! }) : err(notAnId(id!));
    case 'list':
    case 'status':
      return ok({ sub });
    case 'history':
    case 'liveness': {
      const history = readHistoryFlags(id!, values, now);
      if (history.isErr()) return err(history.error);
      const { at, sinceMs } = history.value;
      if (sub === 'history') return ok({ sub, id: id!, at, sinceMs });
      const maxAge = parseDurationFlag('--max-age', values['max-age'], { unit: 'm', example: '30m' });
      return maxAge.isOk() ? ok({ sub, id: id!, at, maxAgeMs: maxAge.value }) : err(maxAge.error);
    }
  }
}

/** `fleet pause ID`: the same checks as `heartbeat-kit pause` (core's `createPause`), before Redis is contacted. */
function readPauseFlags(id: string, values: FleetValues, clockNow: Date): Checked<FleetRequest> {
  if (!isFleetHeartbeatId(id)) return err(notAnId(id));
  const now = parseInstantFlag('--now', values.now);
  if (now.isErr()) return err(now.error);
  const made = createPause(
    { note: values.note, for: values.for, until: values.until, scanners: values.scanner, exceptCritical: values['except-critical'] },
    (now.value ?? clockNow).getTime(),
    BUILTIN_SCANNERS,
  );
  if (made.isErr()) return err(`${made.error.flag}: ${made.error.message}`);
  return ok({ sub: 'pause', id, pause: made.value, rehearsal: now.value !== undefined });
}

/** The longest `--for` an ack takes (as `heartbeat-kit ack`). */
const MAX_ACK_FOR_MS = 366 * 86_400_000;

function readAckFlags(id: string, selector: string | undefined, values: FleetValues, clockNow: Date): Checked<FleetAckRequest> {
  const now = parseInstantFlag('--now', values.now);
  if (now.isErr()) return err(now.error);
  const at = now.value ?? clockNow;
  const rehearsal = now.value !== undefined;
  const by = values.by?.trim().slice(0, 200);
  if (values.list === true) return ok({ id, selector: undefined, note: '', until: undefined, snooze: false, by, at, rehearsal });
  const note = validateAckNote(values.note);
  if (note.isErr()) return err(note.error.message);
  const forFlag = parseDurationFlag('--for', values.for, { unit: 'h', example: '4h', maxMs: MAX_ACK_FOR_MS });
  if (forFlag.isErr()) return err(forFlag.error);
  const untilFlag = parseInstantFlag('--until', values.until);
  if (untilFlag.isErr()) return err(untilFlag.error);
  const until = ackEnd({ forMs: forFlag.value, until: untilFlag.value, now: at });
  if (until.isErr()) return err(until.error.message);
  return ok({ id, selector, note: note.value, until: until.value, snooze: values.snooze === true, by, at, rehearsal });
}

function parseNumber(text: string | undefined, flag: string, min: number): Checked<number | undefined> {
  if (text === undefined) return ok(undefined);
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value < min)
    return err(`${flag} "${text}" must be a number ≥ ${min}. Fix: e.g. ${flag} ${Math.max(min, 1)}`);
  return ok(value);
}

function readWorkerFlags(values: FleetValues, cwd: string): Checked<WorkerOptions> {
  const concurrency = parseNumber(values.concurrency, '--concurrency', 1);
  if (concurrency.isErr()) return err(concurrency.error);
  const lockTtl = parseDurationFlag('--lock-ttl', values['lock-ttl'], { unit: 's', example: '30s', minMs: 1000 });
  if (lockTtl.isErr()) return err(lockTtl.error);
  const watchdog = parseDurationFlag('--tick-watchdog', values['tick-watchdog'], {
    unit: 's',
    example: '30s',
    minMs: 1000,
    maxMs: 3_600_000,
    allowZero: true,
  });
  if (watchdog.isErr()) return err(watchdog.error);
  const acks = parseNumber(values['min-replica-acks'], '--min-replica-acks', 0);
  if (acks.isErr()) return err(acks.error);
  if (acks.value !== undefined && !Number.isInteger(acks.value))
    return err(`--min-replica-acks "${values['min-replica-acks']}" must be a whole number. Fix: e.g. --min-replica-acks 1`);
  const sink = parseSinkSpec(values.sink ?? 'stdout');
  if (sink.isErr()) return err(sink.error.message);
  const metrics = parseMetricsFlags(values, cwd);
  if (metrics.isErr()) return err(metrics.error);
  const worker: WorkerOptions = {
    concurrency: concurrency.value === undefined ? undefined : Math.floor(concurrency.value),
    lockTtlMs: lockTtl.value,
    tickWatchdogMs: watchdog.value,
    minReplicaAcks: acks.value,
    sink: sink.value,
    fakeScanners: values['fake-scanners'] === true,
    metrics: metrics.value,
  };
  return ok(worker);
}

/** The instant `history` and `liveness` judge ages at and the start of the window. */
function readHistoryFlags(id: string, values: FleetValues, clockNow: Date): Checked<{ readonly at: Date; readonly sinceMs: number }> {
  if (!isFleetHeartbeatId(id)) return err(notAnId(id));
  const now = parseInstantFlag('--now', values.now);
  if (now.isErr()) return err(now.error);
  const at = now.value ?? clockNow;
  if (values.since === undefined) return ok({ at, sinceMs: Number.NEGATIVE_INFINITY });
  const since = parseSince(values.since, at);
  return since.isOk() ? ok({ at, sinceMs: since.value }) : err(since.error);
}

/** The registration `fleet add` asks for, checked as the scheduler will check it. */
function readAddFlags(id: string, values: FleetValues, cwd: string): Checked<FleetHeartbeatInput> {
  if (!isFleetHeartbeatId(id)) return err(notAnId(id));
  const rule = { unit: 's', example: '10m', minMs: MIN_FLEET_INTERVAL_MS, maxMs: MAX_FLEET_INTERVAL_MS } as const;
  const interval = parseDurationFlag('--interval', values.interval, rule);
  if (interval.isErr()) return err(interval.error);
  const source = readAddSource(values, cwd);
  if (source.isErr()) return err(source.error);
  const input: FleetHeartbeatInput = { id, intervalMs: interval.value ?? 600_000, source: source.value };
  // The scheduler checks the registration again; anything the flags above let through is still a usage error here.
  const checked = parseFleetHeartbeat(input);
  return checked.isOk() ? ok(input) : err(`${checked.error}. Fix: see 'heartbeat-kit fleet add --help'.`);
}

/** `--cwd DIR` (the real scanners) or `--scanners fake` with its `--scan-ms` and `--report-every`. */
function readAddSource(values: FleetValues, cwd: string): Checked<FleetHeartbeatInput['source']> {
  const scanMs = parseDurationFlag('--scan-ms', values['scan-ms'], {
    unit: 'ms',
    example: '250',
    allowZero: true,
    maxMs: MAX_FAKE_SCAN_MS,
  });
  if (scanMs.isErr()) return err(scanMs.error);
  const reportEvery = parseNumber(values['report-every'], '--report-every', 0);
  if (reportEvery.isErr()) return err(reportEvery.error);
  if ((values.cwd === undefined) === (values.scanners === undefined))
    return err('give exactly one of --cwd DIR or --scanners fake. Fix: heartbeat-kit fleet add my-repo --cwd ~/src/my-repo');
  if (values.scanners !== undefined && values.scanners !== 'fake')
    return err(`unknown scanner set "${values.scanners}". Fix: --scanners fake, or --cwd DIR for the real scanners.`);
  if (values.cwd !== undefined && (values['scan-ms'] !== undefined || values['report-every'] !== undefined))
    return err('--scan-ms and --report-every only apply to --scanners fake. Fix: drop them, or use --scanners fake instead of --cwd.');
  if (values.cwd !== undefined) return ok({ kind: 'project', cwd: resolvePath(cwd, values.cwd) });
  return ok({
    kind: 'scanners',
    set: 'fake',
    ...(scanMs.value === undefined ? {} : { scanMs: scanMs.value }),
    ...(reportEvery.value === undefined ? {} : { reportEvery: Math.floor(reportEvery.value) }),
  });
}
