import { isWithinActiveHours, judgeLiveness, pauseLiveness } from '@heartbeat-kit/core/host';
import { join } from 'node:path';
import { createFileLockStore, createFilePauseStore, createFileReceiptStore, receiptsDirectoryFor } from '@heartbeat-kit/core/node';
import { isQuietTime, loadWoterclipConfig, woterclipLockCodec } from '@heartbeat-kit/woterclip';
import { createDirectoryWorkspace } from '@heartbeat-kit/woterclip/node';
import { err, ok, type Result } from 'neverthrow';
import { commandFailure, defineCommand, usageFailure, type CommandFailure } from '../cli-kernel/index.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { cycleLockPath } from '../wiring/cycle-lock.js';
import { resolvePath } from '../wiring/cycle-deps.js';
import { loadHeartbeatSettings } from '../wiring/heartbeat-settings.js';
import { receiptStoreFor, locateState } from '../wiring/receipts.js';
import { parseDurationFlag } from '../wiring/duration-flag.js';
import { commandClock, parseInstantFlag } from '../wiring/instant.js';
import { pauseStoreFor } from '../wiring/pause-file.js';
import { ackHoldingLine, readAckHolding } from '../wiring/ack-file.js';

/** `heartbeat-kit check-liveness`: exit 0 when the heartbeat ran recently, 1 with the reason otherwise. */
export const checkLivenessCommand = defineCommand(
  {
    name: 'check-liveness',
    usage: '[options]',
    description: `Watches the watcher: exits 0 when the newest 'ran' receipt (a cycle that evaluated and finished
its delivery) is at most --max-age old, else 1 with the reason: the loop or its scheduler
stopped, every recent slot was skipped (and why), the cycle lock is stuck, no cycle ever ran, or
the last cycle is dated in the future (the clock moved back: judged on the current clock, never a
negative age; with a recent run before now it is alive, with a warning on stderr).
Meant for a systemd timer, a Kubernetes livenessProbe, a cron monitor or CI.`,
    flags: {
      cwd: { type: 'string', value: 'DIR', help: "a directory of the project's git repository (default: current directory)" },
      config: { type: 'string', value: 'FILE', help: "heartbeat config, for the default --max-age (default: as 'cycle')" },
      state: { type: 'string', value: 'FILE', help: "the state file whose receipts to judge (default: as 'cycle')" },
      'max-age': { type: 'string', value: 'DURATION', help: 'how old the last run may be, e.g. 30m or 2h (default: 3 × the interval)' },
      'active-hours-only': {
        type: 'boolean',
        help: `count only time inside the config's active hours and days toward the age,
for a heartbeat scheduled only then (a night or weekend is not "stopped")`,
      },
      woterclip: {
        type: 'boolean',
        help: `judge WoterClip beats instead of cycles: the receipts in DIR/.woterclip/receipts
and the lock .woterclip/.heartbeat-lock, DIR being the repository root
(default --max-age 2h; with --active-hours-only, time inside quiet hours
with behavior skip does not count)`,
      },
      'max-pause-age': {
        type: 'string',
        value: 'DURATION',
        help: `an operator pause with no end older than this gets a warning on stderr
(still exit 0: is it forgotten?), e.g. 12h (default: 24h)`,
      },
      now: { type: 'string', value: 'ISO', help: 'judge as at this instant' },
      json: { type: 'boolean', help: 'print {"live": …, "reason"?, "message", "lastRan"?, "acks"?: {"inForce", "held"}}' },
    },
    notes: `While an operator pause is in force ('heartbeat-kit pause') the answer is "paused until …: note"
(or "paused since … (no end…)") and the exit is 0: a pause is not a death. --json: {"live": true,
"paused": {…}, "message"}. Paused slots after the last run also keep the heartbeat alive once the
pause has ended, until the next slot runs.

With operator acks in force ('heartbeat-kit ack') a second line says how many findings they
hold ("held by acks: N findings (M acks in force; …)"), --json adds "acks": {"inForce": M,
"held": [fingerprint…]}; an ack with no end older than --max-pause-age gets a warning on stderr.
Acks never change the exit code.`,
    exitCodes: [
      [EXIT.ok, 'alive (or paused)'],
      [EXIT.rejected, 'not alive (reason on stdout)'],
      [EXIT.usage, 'usage or config error (or DIR is not in a git repository)'],
      [EXIT.failure, 'receipts unreadable'],
    ],
  },
  async ({ flags: values, io }) => {
    const now = parseInstantFlag('--now', values.now);
    if (now.isErr()) return usageFailure(now.error);
    const maxAge = parseDurationFlag('--max-age', values['max-age'], { unit: 'm', example: '30m' });
    if (maxAge.isErr()) return usageFailure(maxAge.error);
    const maxPauseAge = parseDurationFlag('--max-pause-age', values['max-pause-age'], { unit: 'h', example: '24h' });
    if (maxPauseAge.isErr()) return usageFailure(maxPauseAge.error);
    if (values.woterclip === true) {
      if (values.state !== undefined || values.config !== undefined)
        return usageFailure('--woterclip judges .woterclip/ under --cwd; --state and --config are for cycles. Fix: drop them.');
      return checkWoterclip(io, {
        ...values,
        maxAgeMs: maxAge.value,
        maxPauseAgeMs: maxPauseAge.value ?? 24 * 3_600_000,
        nowDate: now.value,
      });
    }
    const located = await locateState(io, values);
    if (located.isErr()) return usageFailure(located.error);
    const { statePath } = located.value;
    const expected = await cycleExpectations(values, io, located.value.configDir, maxAge.value);
    if (expected.isErr()) return usageFailure(expected.error);
    const { maxAgeMs, expectedAt } = expected.value;
    // A pause in force is the answer: the operator said not to run, so no run is not a death.
    const nowMs = commandClock(io, now.value).now().getTime();
    const storedPause = await pauseStoreFor(statePath).read();
    if (storedPause.isErr()) io.stderr(`heartbeat-kit check-liveness: warning: ${storedPause.error.message}\n`);
    const paused = pauseLiveness(storedPause.isOk() ? storedPause.value : undefined, nowMs, maxPauseAge.value ?? 24 * 3_600_000);
    // What the operator's acks hold: said beside the answer, never changing it.
    const acked = await readAckHolding(statePath, nowMs, maxPauseAge.value ?? 24 * 3_600_000);
    for (const warning of [...acked.warnings, ...acked.holding.warnings]) io.stderr(`heartbeat-kit check-liveness: warning: ${warning}\n`);
    const ackLine = ackHoldingLine(acked.holding);
    const ackText = ackLine === undefined ? '' : `${ackLine}\n`;
    const ackJson = acked.holding.inForce === 0 ? {} : { acks: { inForce: acked.holding.inForce, held: acked.holding.held } };
    if (paused !== undefined) {
      if (paused.warning !== undefined) io.stderr(`heartbeat-kit check-liveness: warning: ${paused.warning}\n`);
      io.stdout(
        values.json === true
          ? `${JSON.stringify({ live: true, paused: storedPause.isOk() ? storedPause.value : undefined, message: paused.message, notes: paused.warning === undefined ? [] : [paused.warning], ...ackJson })}\n`
          : `${paused.message}\n${ackText}`,
      );
      return ok(EXIT.ok);
    }
    const listed = await receiptStoreFor(statePath, commandClock(io, now.value)).list();
    if (listed.isErr()) return commandFailure(`${listed.error.message}. Fix: check that ${receiptsDirectoryFor(statePath)} is readable.`);
    for (const warning of listed.value.warnings) io.stderr(`heartbeat-kit check-liveness: warning: ${warning}\n`);
    const lock = await createFileLockStore({ path: cycleLockPath(statePath) }).read();
    if (lock.isErr())
      io.stderr(
        `heartbeat-kit check-liveness: warning: cannot read ${cycleLockPath(statePath)}: ${lock.error.kind === 'held' ? 'held' : lock.error.message}\n`,
      );
    const verdict = judgeLiveness(listed.value.receipts, {
      nowMs: commandClock(io, now.value).now().getTime(),
      maxAgeMs,
      lock: lock.isOk() ? lock.value : undefined,
      expectedAt,
    });
    if (verdict.live) {
      const message = `alive: cycle #${verdict.lastRan.cycle} ran at ${verdict.lastRan.slot} (${Math.floor(verdict.ageMs / 60_000)} min ${expectedAt === undefined ? 'ago' : 'of active hours ago'}, max ${Math.floor(maxAgeMs / 60_000)} min)`;
      for (const note of verdict.notes) io.stderr(`heartbeat-kit check-liveness: warning: ${note}\n`);
      io.stdout(
        values.json === true
          ? `${JSON.stringify({ live: true, message, lastRan: verdict.lastRan, notes: verdict.notes, ...ackJson })}\n`
          : `${message}\n${ackText}`,
      );
      return ok(EXIT.ok);
    }
    const message = `not alive (${verdict.reason}): ${verdict.message}`;
    io.stdout(
      values.json === true
        ? `${JSON.stringify({ live: false, reason: verdict.reason, message, ...(verdict.lastRan ? { lastRan: verdict.lastRan } : {}), ...ackJson })}\n`
        : `${message}\n${ackText}`,
    );
    return ok(EXIT.rejected);
  },
);

/**
 * How old the last cycle may be (`--max-age`, else 3 × the config's interval) and, with `--active-hours-only`,
 * when a run is expected at all. The config is read only when one of them needs it.
 */
async function cycleExpectations(
  values: { readonly 'active-hours-only'?: boolean | undefined; readonly config?: string | undefined; readonly cwd?: string | undefined },
  io: CliIo,
  configDir: string,
  maxAgeFlagMs: number | undefined,
): Promise<Result<{ readonly maxAgeMs: number; readonly expectedAt: ((ms: number) => boolean) | undefined }, string>> {
  const activeHoursOnly = values['active-hours-only'] === true;
  if (maxAgeFlagMs !== undefined && !activeHoursOnly) return ok({ maxAgeMs: maxAgeFlagMs, expectedAt: undefined });
  const settings = await loadHeartbeatSettings(
    values.config === undefined ? configDir : resolvePath(io.cwd, values.cwd ?? '.'),
    values.config,
    io.env,
  );
  if (settings.isErr()) return err(settings.error);
  const window = { ...settings.value.config.activeHours, timeZone: settings.value.timeZone };
  return ok({
    maxAgeMs: maxAgeFlagMs ?? 3 * settings.value.config.intervalMs,
    expectedAt: activeHoursOnly ? (ms: number) => isWithinActiveHours(new Date(ms), window) : undefined,
  });
}

/** `check-liveness --woterclip`: the same judgement over WoterClip's beat receipts and lock. */
async function checkWoterclip(
  io: CliIo,
  values: {
    readonly cwd?: string | undefined;
    readonly json?: boolean | undefined;
    readonly 'active-hours-only'?: boolean | undefined;
    readonly maxAgeMs: number | undefined;
    readonly maxPauseAgeMs: number;
    readonly nowDate: Date | undefined;
  },
): Promise<Result<ExitCode, CommandFailure>> {
  const root = resolvePath(io.cwd, values.cwd ?? '.');
  const dir = join(root, '.woterclip');
  const maxAgeMs = values.maxAgeMs ?? 2 * 3_600_000;
  let expectedAt: ((ms: number) => boolean) | undefined;
  if (values['active-hours-only'] === true) {
    const loaded = await loadWoterclipConfig(createDirectoryWorkspace(dir, { boundary: root }));
    if (loaded.isErr()) return usageFailure(loaded.error.message);
    const quiet = loaded.value.config.heartbeat.quiet_hours;
    if (quiet.behavior === 'skip') expectedAt = (ms) => !isQuietTime(new Date(ms), quiet);
  }
  const directory = join(dir, 'receipts');
  const nowDate = commandClock(io, values.nowDate).now();
  // WoterClip's own pause (woterclip pause): a paused WoterClip is not a dead one.
  const storedPause = await createFilePauseStore({ path: join(dir, 'pause.json') }).read();
  if (storedPause.isErr()) io.stderr(`heartbeat-kit check-liveness: warning: ${storedPause.error.message}\n`);
  const paused = pauseLiveness(storedPause.isOk() ? storedPause.value : undefined, nowDate.getTime(), values.maxPauseAgeMs);
  if (paused !== undefined) {
    if (paused.warning !== undefined)
      io.stderr(
        `heartbeat-kit check-liveness: warning: ${paused.warning.replace("'heartbeat-kit resume'", "'heartbeat-kit woterclip resume'")}\n`,
      );
    io.stdout(
      values.json === true
        ? `${JSON.stringify({ live: true, paused: storedPause.isOk() ? storedPause.value : undefined, message: `WoterClip ${paused.message}`, notes: paused.warning === undefined ? [] : [paused.warning] })}\n`
        : `WoterClip ${paused.message}\n`,
    );
    return ok(EXIT.ok);
  }
  const listed = await createFileReceiptStore({ directory, clock: { now: () => nowDate } }).list();
  if (listed.isErr()) return commandFailure(`${listed.error.message}. Fix: check that ${directory} is readable.`);
  for (const warning of listed.value.warnings) io.stderr(`heartbeat-kit check-liveness: warning: ${warning}\n`);
  const lockPath = join(dir, '.heartbeat-lock');
  const lock = await createFileLockStore({ path: lockPath, codec: woterclipLockCodec }).read();
  if (lock.isErr())
    io.stderr(
      `heartbeat-kit check-liveness: warning: cannot read ${lockPath}: ${lock.error.kind === 'held' ? 'held' : lock.error.message}\n`,
    );
  const verdict = judgeLiveness(
    listed.value.receipts.filter((r) => r.source === 'woterclip'),
    {
      nowMs: nowDate.getTime(),
      maxAgeMs,
      lock: lock.isOk() ? lock.value : undefined,
      expectedAt,
      terms: { run: 'WoterClip beat', lock: 'WoterClip lock' },
    },
  );
  if (verdict.live) {
    const message = `alive: WoterClip beat #${verdict.lastRan.cycle} ran at ${verdict.lastRan.slot} (${Math.floor(verdict.ageMs / 60_000)} min ${expectedAt === undefined ? 'ago' : 'outside quiet hours ago'}, max ${Math.floor(maxAgeMs / 60_000)} min)`;
    io.stdout(values.json === true ? `${JSON.stringify({ live: true, message, lastRan: verdict.lastRan, notes: [] })}\n` : `${message}\n`);
    return ok(EXIT.ok);
  }
  const message = `not alive (${verdict.reason}): ${verdict.message}`;
  io.stdout(
    values.json === true
      ? `${JSON.stringify({ live: false, reason: verdict.reason, message, ...(verdict.lastRan ? { lastRan: verdict.lastRan } : {}) })}\n`
      : `${message}\n`,
  );
  return ok(EXIT.rejected);
}
