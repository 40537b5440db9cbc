import { join } from 'node:path';
import { decodeHeartbeatState } from '@heartbeat-kit/core';
import {
  acksOverPlan,
  describePause,
  deterministicJitter,
  type PlanJudge,
  type PlannedSlot,
  type PlanRunbook,
  type PlanSchedule,
  planSlots,
} from '@heartbeat-kit/core/host';
import { createFileStateStore, NotRegularFileError, readRegularFile } from '@heartbeat-kit/core/node';
import { CHECK_SLICE } from '@heartbeat-kit/scanners';
import { calendarDateIn, dueItems, formatCalendarDate, isEffectivelyEmpty, parseRunbook } from '@heartbeat-kit/runbook';
import { CONFIG_PATH, parseWoterclipConfig, quietHoursPlanJudge } from '@heartbeat-kit/woterclip';
import { err, ok, type Result } from 'neverthrow';
import { defineCommand, usageFailure } from '../cli-kernel/index.js';
import { EXIT } from '../exit-codes.js';
import { planCheckLines, planChecks } from '../format/plan-checks.js';
import { createCliRunner } from '../wiring/cli-runner.js';
import { parseCronFlag } from '../wiring/cron-schedule.js';
import { resolvePath } from '../wiring/cycle-deps.js';
import { loadHeartbeatSettings } from '../wiring/heartbeat-settings.js';
import { parseDurationFlag } from '../wiring/duration-flag.js';
import { commandClock, parseInstantFlag } from '../wiring/instant.js';
import { existingStatePath, locateProject } from '../wiring/project-location.js';
import { pauseStoreFor } from '../wiring/pause-file.js';
import { readAcks } from '../wiring/ack-file.js';
import { plannedAckLines } from '../format/plan-acks.js';

function positive(flag: string, value: string | undefined, min: number, max: number): Result<number | undefined, string> {
  if (value === undefined) return ok(undefined);
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || n < min || n > max)
    return err(`${flag} "${value}" is not a number from ${min} to ${max}. Fix: e.g. ${flag} ${flag === '--hours' ? 24 : 600}.`);
  return ok(n);
}

async function woterclipQuietHours(cwd: string): Promise<Result<PlanJudge | undefined, string>> {
  let text: string;
  try {
    text = await readRegularFile(join(cwd, CONFIG_PATH), { followSymlinks: true });
  } catch (error) {
    // A FIFO or device is refused (a read would block), not mistaken for "no WoterClip here".
    if (error instanceof NotRegularFileError) return err(error.message);
    return ok(undefined); // no WoterClip here
  }
  const parsed = parseWoterclipConfig(text, join(cwd, CONFIG_PATH));
  if (parsed.isErr()) return err(parsed.error.message);
  return ok(quietHoursPlanJudge(parsed.value.heartbeat.quiet_hours));
}

async function runbookJudge(file: string, timeZone: string): Promise<Result<PlanRunbook, string>> {
  let text: string;
  try {
    text = await readRegularFile(file, { followSymlinks: true });
  } catch (error) {
    return err(
      `cannot read runbook ${file}: ${(error as Error).message}. Fix: pass an existing file to --runbook, or run 'heartbeat-kit runbook init'.`,
    );
  }
  if (isEffectivelyEmpty(text)) return ok({ at: () => ({ verdict: 'not-due', reason: 'runbook empty: the tick skips (runbook-empty)' }) });
  const runbook = parseRunbook(text);
  return ok({
    at: (instant) => {
      const due = dueItems(runbook, instant, timeZone);
      const day = formatCalendarDate(calendarDateIn(instant, timeZone));
      return due.length === 0
        ? { verdict: 'not-due', reason: `no tracked item dated ${day}` }
        : {
            verdict: 'due',
            reason: `${due.length} tracked item${due.length === 1 ? '' : 's'} due ${day} (line ${due.map((d) => d.item.line).join(', ')})`,
          };
    },
  });
}

/** When each check last ran, from the state's check slices (an unreadable state: none ran). */
async function checkLastRuns(statePath: string): Promise<Map<string, number>> {
  const loaded = await createFileStateStore({ path: statePath }).load();
  const state = decodeHeartbeatState(loaded.isOk() ? loaded.value.document : undefined).state;
  const runs = new Map<string, number>();
  for (const [name, slice] of Object.entries(state.scannerSlices ?? {})) {
    const read = slice.version === CHECK_SLICE.version ? CHECK_SLICE.schema.safeParse(slice.data) : undefined;
    if (read?.success === true && read.data.lastRunMs !== undefined) runs.set(name, read.data.lastRunMs);
  }
  return runs;
}

/** The slots' grid: `--cron`'s fire times, else the loop's interval with its `--jitter` offset. */
async function planSchedule(
  cron: string | undefined,
  loop: { readonly intervalMs: number; readonly jitterMs: number | undefined },
  project: string,
  timeZone: string,
): Promise<Result<PlanSchedule, string>> {
  if (cron !== undefined) {
    const parsed = await parseCronFlag(cron, timeZone);
    if (parsed.isErr()) return err(parsed.error);
    return ok({ kind: 'cron', expression: cron, nextAfter: parsed.value.nextAfter });
  }
  // The same offset `loop --jitter` derives from the project directory.
  const offsetMs = loop.jitterMs === undefined ? 0 : deterministicJitter(project, loop.jitterMs);
  return ok({ kind: 'interval', intervalMs: loop.intervalMs, offsetMs });
}

/** The schedule as the plan's first line names it. */
function scheduleText(schedule: PlanSchedule, timeZone: string): string {
  return schedule.kind === 'cron'
    ? `cron "${schedule.expression}" (${timeZone})`
    : `every ${schedule.intervalMs / 1000} s${schedule.offsetMs === 0 ? '' : ` + ${schedule.offsetMs / 1000} s offset`}`;
}

/** A slot as `plan --json` prints it: each companion's verdict under its own name (`woterclip`), as always. */
function slotJson({ beside, ...slot }: PlannedSlot): Record<string, unknown> {
  const { runbook, ...cycle } = slot;
  return { ...cycle, ...beside, ...(runbook === undefined ? {} : { runbook }) };
}

/** Groups consecutive slots with the same verdicts into one line. */
function textLines(slots: readonly PlannedSlot[]): string[] {
  const lines: string[] = [];
  let index = 0;
  while (index < slots.length) {
    const first = slots[index]!;
    let last = index;
    const same = (s: PlannedSlot) =>
      s.verdict === first.verdict &&
      s.reason === first.reason &&
      s.beside?.['woterclip']?.verdict === first.beside?.['woterclip']?.verdict &&
      s.runbook?.reason === first.runbook?.reason;
    while (last + 1 < slots.length && same(slots[last + 1]!)) last += 1;
    const count = last - index + 1;
    const span = count === 1 ? first.at : `${first.at} … ${slots[last]!.at} (${count} slots)`;
    const beat = first.beside?.['woterclip'];
    const woterclip = beat === undefined ? '' : `; WoterClip: ${beat.verdict === 'runs' ? 'beats run' : beat.reason}`;
    const runbook = first.runbook === undefined ? '' : `; runbook: ${first.runbook.reason}`;
    lines.push(`${span}  ${first.verdict}: ${first.reason}${woterclip}${runbook}`);
    index = last + 1;
  }
  return lines;
}

/** `heartbeat-kit plan`: the coming slots and what each will do. */
export const planCommand = defineCommand(
  {
    name: 'plan',
    usage: '[options]',
    description: `Shows the coming slots of this project's heartbeat and what each will do: run every scanner
(inside active hours), or only P0/P1 beads, orchestrator failures and GChat replies (outside
active hours, weekend). With a .woterclip/config.yaml it also says what a WoterClip beat does
(quiet hours: skip or triage-only), and with --runbook whether the checklist tick has work
(items dated that local day). Deterministic under --now. With "## Checks" in HEARTBEAT.md it
lists each check's cadence, whether the next slot runs it and its next run (from its last run
in the state).

Slots are the loop's wall-clock grid (multiples of the interval, plus the --jitter offset the
loop uses), or the fire times of --cron for a cron-driven 'cycle'.`,
    flags: {
      cwd: { type: 'string', value: 'DIR', help: 'project directory (default: current directory)' },
      config: {
        type: 'string',
        value: 'FILE',
        help: "heartbeat config (default: as 'cycle', the nearest .claude/HEARTBEAT.md up to\nthe repository root)",
      },
      hours: { type: 'string', value: 'N', help: 'how far ahead to look (default: 24)' },
      interval: { type: 'string', value: 'D', help: "the loop's interval: 10m, 1h30m, or seconds (default: the config's, 600)" },
      jitter: { type: 'string', value: 'D', help: "the loop's --jitter (a stable per-project offset in [0, D)): 30s, 5m, or seconds" },
      cron: {
        type: 'string',
        value: 'EXPR',
        help: `plan a cron-driven 'cycle' instead, e.g. "*/10 8-21 * * 1-5" (read in the
active hours' time zone)`,
      },
      runbook: { type: 'string', value: 'FILE', help: "also say, per slot, whether this runbook's checklist tick is due" },
      state: {
        type: 'string',
        value: 'FILE',
        help: `the state file whose operator pause and acks to show (default: as 'cycle');
slots inside a pause say "paused until …: note", a pause of some scanners or
--except-critical is named in each slot's reason; the acks in force at the
start are listed with who, the note, their end and the slot they end in`,
      },
      now: { type: 'string', value: 'ISO', help: 'plan from this instant (default: now)' },
      json: {
        type: 'boolean',
        help: `print {"from", "hours", "schedule", "pause"?, "acks": [{"id", "selector", "by",
"note", "at", "until"?, "snooze", "endsInSlot"?}], "slots": [{"at", "verdict",
"reason", "woterclip"?, "runbook"?}], "checks": [{"name", "every",
"outsideHours", "lastRun", "nextSlot": {"at", "runs", "why"}, "nextRun"}]}`,
      },
    },
    exitCodes: [
      [EXIT.ok, 'printed'],
      [EXIT.usage, 'usage or config error'],
    ],
  },
  async ({ flags: values, io }) => {
    const now = parseInstantFlag('--now', values.now);
    if (now.isErr()) return usageFailure(now.error);
    const hours = positive('--hours', values.hours, 1, 24 * 31);
    if (hours.isErr()) return usageFailure(hours.error);
    const interval = parseDurationFlag('--interval', values.interval, { unit: 's', example: '10m', minMs: 1000, maxMs: 7 * 86_400_000 });
    if (interval.isErr()) return usageFailure(interval.error);
    const jitter = parseDurationFlag('--jitter', values.jitter, { unit: 's', example: '30s', maxMs: 7 * 86_400_000, allowZero: true });
    if (jitter.isErr()) return usageFailure(jitter.error);
    if (values.cron !== undefined && (values.interval !== undefined || values.jitter !== undefined)) {
      return usageFailure('--cron plans a cron-driven cycle; --interval and --jitter describe the loop. Fix: give one or the other.');
    }
    const cwd = resolvePath(io.cwd, values.cwd ?? '.');
    // The same project as 'loop' (config walked up to the repository root, the same jitter); a
    // plan only predicts, so outside a repository it plans for the directory as given.
    const located = await locateProject(cwd, { runner: createCliRunner(io), env: io.env, flag: '--cwd' });
    const project = located.isOk() ? located.value.project : cwd;
    const settings = await loadHeartbeatSettings(values.config === undefined ? project : cwd, values.config, io.env);
    if (settings.isErr()) return usageFailure(settings.error);
    for (const warning of settings.value.warnings) io.stderr(`heartbeat-kit plan: warning: ${warning}\n`);
    const { config, timeZone } = settings.value;

    const planned = await planSchedule(
      values.cron,
      { intervalMs: interval.value ?? config.intervalMs, jitterMs: jitter.value },
      project,
      timeZone,
    );
    if (planned.isErr()) return usageFailure(planned.error);
    const schedule = planned.value;
    const quiet = await woterclipQuietHours(cwd);
    if (quiet.isErr()) return usageFailure(quiet.error);
    const runbook = values.runbook === undefined ? undefined : await runbookJudge(resolvePath(io.cwd, values.runbook), timeZone);
    if (runbook?.isErr() === true) return usageFailure(runbook.error);

    // The operator's pause beside the project's state (with --state, that one): its window shows in the slots.
    const statePath =
      values.state !== undefined ? resolvePath(io.cwd, values.state) : located.isOk() ? await existingStatePath(located.value) : undefined;
    const storedPause = statePath === undefined ? undefined : await pauseStoreFor(statePath).read();
    if (storedPause?.isErr() === true) io.stderr(`heartbeat-kit plan: warning: ${storedPause.error.message}\n`);
    const pause = storedPause?.isOk() === true ? storedPause.value : undefined;
    const storedAcks = statePath === undefined ? undefined : await readAcks(statePath);
    for (const warning of storedAcks?.warnings ?? []) io.stderr(`heartbeat-kit plan: warning: ${warning}\n`);
    const from = commandClock(io, now.value).now();
    const slots = planSlots({
      ...(pause === undefined ? {} : { pause }),
      fromMs: from.getTime(),
      hours: hours.value ?? 24,
      schedule,
      config,
      timeZone,
      ...(quiet.value ? { beside: { woterclip: quiet.value } } : {}),
      ...(runbook?.isOk() === true ? { runbook: runbook.value } : {}),
    });
    // The acks in force at the start, each with the slot it ends in (none: it holds through the plan).
    const acks = acksOverPlan(
      storedAcks?.acks ?? [],
      slots.map((slot) => slot.at),
      from.getTime(),
    );
    // Each check's cadence from its last run (the state's check slices; none = never ran).
    const lastRuns = located.isOk() ? await checkLastRuns(join(located.value.stateDir, 'state.json')) : new Map<string, number>();
    const checks = planChecks(config.checks, slots, lastRuns, schedule.kind === 'interval' ? schedule.intervalMs : config.intervalMs);
    if (values.json === true) {
      const scheduleJson =
        schedule.kind === 'cron'
          ? { kind: 'cron', expression: schedule.expression, timeZone }
          : { kind: 'interval', intervalMs: schedule.intervalMs, offsetMs: schedule.offsetMs };
      io.stdout(
        `${JSON.stringify({ from: from.toISOString(), hours: hours.value ?? 24, schedule: scheduleJson, ...(pause === undefined ? {} : { pause }), acks, slots: slots.map(slotJson), checks })}\n`,
      );
      return ok(EXIT.ok);
    }
    io.stdout(`Plan from ${from.toISOString()} for ${hours.value ?? 24} h, ${scheduleText(schedule, timeZone)}: ${slots.length} slots\n`);
    if (pause !== undefined && (pause.until === undefined || Date.parse(pause.until) > from.getTime()))
      io.stdout(`Operator pause: ${describePause(pause)} (end it: heartbeat-kit resume)\n`);
    for (const line of plannedAckLines(acks)) io.stdout(`${line}\n`);
    for (const line of textLines(slots)) io.stdout(`${line}\n`);
    for (const line of planCheckLines(checks)) io.stdout(`${line}\n`);
    return ok(EXIT.ok);
  },
);
