import { access, mkdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { addCalendarDays } from '@heartbeat-kit/core/host';
import { calendarDateIn, formatMonthDay, formatCalendarDate } from '@heartbeat-kit/runbook';
import { err, ok, type Result } from 'neverthrow';
import { commandFailure, defineCommand, type CommandFailure } from '../../cli-kernel/index.js';
import { EXIT } from '../../exit-codes.js';
import { SAMPLE_RUNBOOK_FILE, SAMPLE_STATUS_FILE, runbookSpec } from './help.js';
import { printJson, resolveCommon, resolvePath, runbookUsage } from './shared.js';

const MINUTE = 60_000;

/**
 * The sample runbook: the rules a newcomer needs are in a short opening comment (it is part of
 * every checklist prompt like any line, so it says to delete it), and the tracked items are dated
 * a week and two weeks from `now` so that `runbook check` accepts the file and nothing is due yet.
 */
export function sampleRunbook(now: Date, timeZone: string): string {
  const date = calendarDateIn(now, timeZone);
  const today = formatCalendarDate(date);
  // Calendar days, not 7 × 24 h: across a DST change a week of hours can end on the sixth day.
  const inAWeek = formatMonthDay(addCalendarDays(date, 7));
  const inTwoWeeks = formatMonthDay(addCalendarDays(date, 14));
  return `<!--
  Sample runbook from 'heartbeat-kit runbook init'. The whole file, this comment too, goes into
  every checklist prompt: delete the comment once you know the rules.
  Reference sections (no cap): Standing Orders, Governance, Playbook index.
  Tracked sections (10 items in all, 20 only in a real surge): Active Blockers, Watch Items,
  Open Discussion. A tracked item is one "- " line with a lift trigger ("Lift when ...", or
  "lift when #12 merges") and a bare month-day: "(check MM-DD)" is due that day, "DELETE MM-DD"
  removes it on or after that day. A full date (${today}) is not a due date. Delete closed items.
  Check the file: heartbeat-kit runbook check ${SAMPLE_RUNBOOK_FILE}   (more: heartbeat-kit runbook --help)
-->

## Standing Orders
- Stalled task (no progress for 45 min): read its last progress, steer it or cancel and recreate.
- Idle workers next to unassigned pool tasks: find out why the pool does not drain.

## Watch Items
- Webhook retries since ${today}. Lift when zero retries for 48 h (check ${inAWeek}).

## Active Blockers
- Release freeze for the v2 migration. Lift when the migration is done, DELETE ${inTwoWeeks}.
`;
}

/**
 * The sample status snapshot: a lead and a worker online, a server started two hours ago and one
 * completed checklist 40 minutes ago, so the next tick creates a task (the 30-minute interval has
 * passed) and the quiet check has a previous checklist to compare with.
 */
export function sampleStatus(now: Date): string {
  const at = (minutesAgo: number): string => new Date(now.getTime() - minutesAgo * MINUTE).toISOString();
  const status = {
    $comment: [
      'A snapshot of the agent server that heartbeat-kit runbook tick, quiet and boot-triage decide over.',
      "Replace it with your server's real state; every key is in docs/schemas/runbook-status.schema.json.",
      'The newest completed heartbeat-checklist task is the previous checklist; its output is what the lead answered.',
    ],
    version: 1,
    generatedAt: now.toISOString(),
    serverStartedAt: at(120),
    agents: [
      { id: 'lead', name: 'lead', isLead: true, status: 'online', busy: false },
      { id: 'worker-1', name: 'worker-1', isLead: false, status: 'online', busy: true },
    ],
    tasks: [
      {
        id: 'checklist-1',
        task: 'Heartbeat checklist',
        status: 'completed',
        taskType: 'heartbeat-checklist',
        agentId: 'lead',
        createdAt: at(40),
        lastUpdatedAt: at(38),
        finishedAt: at(38),
        output: 'All clear: no failures, schedules healthy.',
      },
      {
        id: 'task-1',
        task: 'Write the release notes',
        status: 'in_progress',
        agentId: 'worker-1',
        createdAt: at(20),
        lastUpdatedAt: at(5),
      },
    ],
    schedules: [{ id: 'nightly', name: 'nightly build', enabled: true, runs: 4, failed: 0 }],
    mentions: [],
  };
  return `${JSON.stringify(status, null, 2)}\n`;
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/** One file `runbook init` writes, and whether it is there already. */
interface SampleFile {
  readonly name: string;
  readonly path: string;
  readonly text: string;
  readonly exists: boolean;
}

/** Writes the files in order, never over an existing one; the failure names what was written. */
async function writeSamples(dir: string, files: readonly SampleFile[]): Promise<Result<string[], CommandFailure>> {
  const written: string[] = [];
  try {
    await mkdir(dir, { recursive: true });
    for (const f of files) {
      await writeFile(f.path, f.text, { flag: 'wx' });
      written.push(f.path);
    }
    return ok(written);
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    return commandFailure(
      `cannot write ${files[written.length]?.path ?? dir}: ${cause instanceof Error ? cause.message : String(cause)}${written.length > 0 ? ` (${written.join(', ')} was written)` : ''}`,
      code === 'EEXIST' ? EXIT.rejected : EXIT.failure,
    );
  }
}

/** `runbook init [DIR] [--dry-run]`: writes the sample runbook and status file; never overwrites. */
export const initCommand = defineCommand(
  runbookSpec('init', { 'dry-run': { type: 'boolean', help: 'print what it would write' } }),
  async ({ flags, positionals, io }) => {
    const common = resolveCommon('init', flags, io);
    if (common.isErr()) return err(common.error);
    const { json, now, tz } = common.value;
    if (positionals.length > 1)
      return runbookUsage('init', `expected at most one DIR, got ${positionals.length}; e.g. heartbeat-kit runbook init ops`);
    const dir = resolvePath(io, positionals[0] ?? '.');
    const files = [
      { name: SAMPLE_RUNBOOK_FILE, path: join(dir, SAMPLE_RUNBOOK_FILE), text: sampleRunbook(now, tz) },
      { name: SAMPLE_STATUS_FILE, path: join(dir, SAMPLE_STATUS_FILE), text: sampleStatus(now) },
    ];
    const present = await Promise.all(files.map(async (f) => ({ ...f, exists: await exists(f.path) })));
    const taken = present.filter((f) => f.exists);
    const dryRun = flags['dry-run'] === true;
    if (json && (dryRun || taken.length > 0)) {
      printJson(io, {
        dryRun,
        written: [],
        exists: taken.map((f) => f.path),
        files: dryRun ? present.map((f) => ({ path: f.path, exists: f.exists, text: f.text })) : undefined,
      });
    }
    if (taken.length > 0) {
      const them = taken.length === 1 ? 'it' : 'them';
      return commandFailure(
        `${taken.map((f) => f.path).join(' and ')} already exist${taken.length === 1 ? 's' : ''}; nothing written (move ${them} away or pick another DIR)`,
        EXIT.rejected,
      );
    }
    if (dryRun) {
      if (!json) for (const f of present) io.stdout(`would write ${f.path}:\n${f.text}\n`);
      return ok(EXIT.ok);
    }
    const written = await writeSamples(dir, present);
    if (written.isErr()) return err(written.error);
    if (json) printJson(io, { dryRun: false, written: written.value, exists: [] });
    else {
      const [runbookPath, statusPath] = present.map((f) => relative(io.cwd, f.path) || f.name);
      io.stdout(
        `wrote ${written.value.join('\nwrote ')}\nnext: heartbeat-kit runbook check ${runbookPath}\n      heartbeat-kit runbook tick --runbook ${runbookPath} --status ${statusPath}\n`,
      );
    }
    return ok(EXIT.ok);
  },
);
