import { z } from 'zod';
import type { CategoryTable } from '../domain/category-table.js';
import { checksSchema, checksSchemaFor } from './check-schema.js';
import { composeShape, type ConfigSection } from './config-section.js';
import { repeatSchedule } from './repeat-limits.js';
import { daysSchema, timeOfDaySchema } from './window-schema.js';
import { PING_TARGET_PATTERN, ROUTE_SINK_PATTERN } from './heartbeat-delivery-readers.js';

const MINUTE = 60_000;

const routeSink = z
  .string()
  .regex(ROUTE_SINK_PATTERN, 'must be stdout, file:PATH, webhook:URL, command:CMD, inbox:DIR or tmux:SESSION[:WINDOW.PANE]')
  .describe('A sink as --sink takes it: stdout, file:PATH (JSONL), webhook:URL or command:CMD.');

/**
 * The validated heartbeat configuration: what `.claude/HEARTBEAT.md` says, with the original
 * heartbeat's defaults (spec 000: 600 s interval, active hours 8-22) for everything it leaves out. Durations are milliseconds.
 */
export const heartbeatConfigSchema = z
  .object({
    /** When scanning runs: `[start, end)` of the zone-local wall clock, on the active days. */
    activeHours: z
      .object({
        /** Opening time, `HH:MM` (a whole hour 0–23 is read as HH:00). */
        start: timeOfDaySchema('start', '08:00').describe(
          'Opening time (inclusive), "HH:MM" on the 24-hour clock such as "08:30"; a whole hour 0–23 is read as HH:00.',
        ),
        /** Closing time, `HH:MM`, exclusive; `start > end` crosses midnight. */
        end: timeOfDaySchema('end', '22:00').describe(
          'Closing time (exclusive), "HH:MM" such as "18:15"; "24:00" (or 24) is midnight. start > end crosses midnight (22:00-06:00); start = end is always active.',
        ),
        /** Scan on Saturday and Sunday (when `days` is absent). */
        weekend: z
          .boolean()
          .default(false)
          .describe(
            'Scan on Saturday and Sunday (judged by the local calendar day). When days is set it decides, and weekend becomes whether it holds Sat or Sun.',
          ),
        /** The active days of the local calendar; absent = Mon-Fri, or every day with `weekend`. */
        days: daysSchema
          .optional()
          .describe(
            'Active days of the local calendar: "Mon-Fri", "Sun", "Mon, Wed, Fri", "Fri-Mon" (wraps) or a list of day names; an overnight window counts for the day it is on at each instant. Absent = Mon-Fri, or every day with weekend: true.',
          ),
        /** IANA zone; absent = the system's zone (resolved by the caller, not here). */
        timeZone: z.string().min(1).optional().describe('IANA time zone such as Europe/Berlin; absent = the system zone.'),
      })
      // With days set, `weekend` is derived from it, so one window has one spelling (round trips).
      .transform((hours) =>
        hours.days === undefined ? hours : { ...hours, weekend: hours.days.includes('Sat') || hours.days.includes('Sun') },
      )
      .prefault({})
      .describe(
        'When scanning runs: [start, end) on the zone-local wall clock, on the active days (Days, or Weekend). Outside it only P0/P1 beads, orchestrator failures and GChat replies are checked.',
      ),
    /** What the loop does with slots missed while asleep, down or busy (docs/scheduling.md). */
    catchUp: z
      .object({
        /** skip: none; latest-once: one cycle now; all: up to `cap` cycles, oldest first. */
        policy: z
          .enum(['skip', 'latest-once', 'all'])
          .default('latest-once')
          .describe(
            'skip: run no missed slot; latest-once: one cycle now for the newest; all: the newest missed slots up to the cap, one after another.',
          ),
        /** At most this many cycles in one catch-up. */
        cap: z
          .number()
          .int()
          .min(0)
          .max(100)
          .default(3)
          .describe('At most this many cycles in one catch-up (0 = none; latest-once runs at most 1).'),
      })
      .prefault({})
      .describe(
        'Catch-up after sleep, downtime or a restart (HEARTBEAT.md Heartbeat → Catch-up, Catch-up cap). Every missed slot is recorded either way.',
      ),
    /** Per-scanner circuit breaker: when a scanner failing the same way stops being re-run every cycle (docs/scheduling.md). */
    breaker: z
      .object({
        /** Consecutive cycles a scanner must fail the same way before the breaker trips; 0 = off. */
        after: z
          .number()
          .int()
          .min(0)
          .max(100)
          .default(3)
          .describe(
            'A scanner that fails the same way this many cycles in a row trips its breaker: one SCANNER_FAILING advisory, then its runs back off (0 = off).',
          ),
        /** Longest back-off: a tripped scanner still runs at least every this many cycles. */
        backoffCap: z
          .number()
          .int()
          .min(1)
          .max(100)
          .default(8)
          .describe(
            'A tripped scanner runs every 2nd, 4th, … cycle, never less often than every this many (1 = every cycle: advisory only, no back-off).',
          ),
      })
      .prefault({})
      .describe(
        "Per-scanner circuit breaker (HEARTBEAT.md Heartbeat → Breaker after, Breaker back-off cap). Every skipped run is still said in the cycle's problems.",
      ),
    /** Cycle interval (spec: 600 s). */
    intervalMs: z.number().int().positive().default(600_000).describe('Time between cycles, in milliseconds (spec: 600 s).'),
    /** The operator is idle when its last message is older than this (5 min). */
    operatorIdleMs: z
      .number()
      .int()
      .positive()
      .default(5 * MINUTE)
      .describe('The operator is idle when its last message is older than this (ms).'),
    /** An unchanged fingerprint reported within this window is not reported again (3 cycles = 30 min); `repeat` may replace it per priority class. */
    dedupWindowMs: z
      .number()
      .int()
      .positive()
      .default(30 * MINUTE)
      .describe(
        'An unchanged finding reported within this window (ms) is not reported again (the repeat schedule of every priority class without a Repeat line); a finding whose content changed is reported at once.',
      ),
    /** How often an unchanged finding is reported again, per priority class (docs/concepts.md, Change-aware repeats). */
    repeat: z
      .object({
        /** HEARTBEAT.md `Repeat:`; every class without its own line. */
        all: repeatSchedule
          .optional()
          .describe('HEARTBEAT.md Heartbeat → Repeat: the schedule of every priority class without its own line.'),
        /** HEARTBEAT.md `Repeat Immediate:` (P0/P1 work, crashes, GChat replies, failed nodes). */
        immediate: repeatSchedule
          .optional()
          .describe(
            'HEARTBEAT.md Heartbeat → Repeat Immediate: P0/P1 work, orchestrator failures, GChat replies, pipeline node failures and finalizations.',
          ),
        /** HEARTBEAT.md `Repeat Advisory:` (stale worktrees and tasks, idle orchestrators, stalled pipelines). */
        advisory: repeatSchedule
          .optional()
          .describe('HEARTBEAT.md Heartbeat → Repeat Advisory: stale worktrees and tasks, idle orchestrators, stalled pipelines.'),
        /** HEARTBEAT.md `Repeat Normal:` (ready work, in-progress count changes). */
        normal: repeatSchedule.optional().describe('HEARTBEAT.md Heartbeat → Repeat Normal: ready work, in-progress count changes.'),
      })
      .strict()
      .prefault({})
      .describe(
        'Change-aware repeats: a finding whose content changed is reported at once; an unchanged one is reported again after the intervals of its priority class, in order, the last one repeating. A class with no schedule uses dedupWindowMs.',
      ),
    /** A cycle above this many tokens sends COST_ALERT (20,000). */
    costAlertTokens: z.number().int().positive().default(20_000).describe('A cycle estimated above this many tokens sends COST_ALERT.'),
    /**
     * The message budget: long reports are cut per category ("+N more") to stay under this many
     * tokens (10,000: the original heartbeat's per-cycle budget for an actionable, complex cycle; spec 000). Kept below `costAlertTokens`
     * so COST_ALERT is left for what the cut cannot prevent.
     */
    actionableBudgetTokens: z
      .number()
      .int()
      .positive()
      .default(10_000)
      .describe(
        'Message budget: long reports are cut per category ("+N more") to stay under this many tokens (HEARTBEAT.md "Message budget" or "Actionable budget").',
      ),
    /** Hardened mode: only these variables (and PATH, HOME, USER, LANG, TMPDIR, TMUX_TMPDIR) reach the tools; absent = the user's environment. */
    envAllow: z
      .array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*\*?$/, 'must be a variable name, or a prefix ending in *'))
      .optional()
      .describe(
        "Hardened mode (HEARTBEAT.md Environment → Allow): only these variable names (NAME, or PREFIX* for a prefix) plus PATH, HOME, USER, LANG, TMPDIR and TMUX_TMPDIR reach the tools; absent = the user's whole environment minus the documented deny-list (docs/environment.md).",
      ),
    /** `## Checks`: commands the heartbeat runs as scanners (docs/checks.md). */
    checks: checksSchema,
    /** Routes by priority (HEARTBEAT.md `## Delivery`): each listed class goes to its own sink. */
    delivery: z
      .object({
        immediate: routeSink
          .optional()
          .describe('HEARTBEAT.md Delivery → Immediate: the sink of crashes, P0/P1 work, GChat replies, failed nodes.'),
        advisory: routeSink
          .optional()
          .describe('HEARTBEAT.md Delivery → Advisory: the sink of stale worktrees and tasks, idle orchestrators, stalled pipelines.'),
        normal: routeSink.optional().describe('HEARTBEAT.md Delivery → Normal: the sink of ready work.'),
        default: routeSink
          .optional()
          .describe(
            'HEARTBEAT.md Delivery → Default: the sink of every class without its own line (instead of --sink; stdout when neither).',
          ),
      })
      .strict()
      .prefault({})
      .describe(
        'Routing by priority: each class listed goes to its own sink with its own message, id, retries, circuit breaker and receipt entry; a failing route never holds another back. --route PRIORITY=SINK overrides a line.',
      ),
    /** HEARTBEAT.md `## Delivery` → `Ping:`: the off-host monitor pinged at each slot's start and end (docs/pings.md). */
    ping: z
      .string()
      .regex(PING_TARGET_PATTERN, 'must be an http(s) URL, optionally prefixed cronitor:')
      .optional()
      .describe(
        'HEARTBEAT.md Delivery → Ping: an off-host monitor (Healthchecks.io URL, or cronitor:URL for Cronitor telemetry) pinged when each slot starts and ends; --ping replaces it. See docs/pings.md.',
      ),
  })
  .strict()
  .describe('heartbeat-kit configuration, as read from .claude/HEARTBEAT.md. Durations are milliseconds.');

/** The validated heartbeat configuration. */
export type HeartbeatConfig = z.infer<typeof heartbeatConfigSchema>;

/** The configuration used when `.claude/HEARTBEAT.md` is missing or empty. */
export const DEFAULT_HEARTBEAT_CONFIG: HeartbeatConfig = heartbeatConfigSchema.parse({});

/** What a host keeps for itself in the configuration and adds to it (see {@link heartbeatConfigSchemaFor}). */
export interface ConfigHost {
  /** Its category table: a check may not take one of its categories. Default: none reserved. */
  readonly categories?: CategoryTable;
  /** Its scanners' names: a check may not be called like one. Default: none reserved. */
  readonly scanners?: readonly string[];
  /** Its scanners' config sections (`BUILTIN_CONFIG_SECTIONS` of `@heartbeat-kit/scanners`). Default: none. */
  readonly sections?: readonly ConfigSection[];
}

const NONE = {};
type Schema = typeof heartbeatConfigSchema;
// One schema per host: a host parses its configuration every cycle with the same table, names and sections.
const schemaByHost = new WeakMap<object, WeakMap<object, WeakMap<object, Schema>>>();

function cacheOf<K extends object, V>(map: WeakMap<object, V>, key: K | undefined, make: () => V): V {
  let value = map.get(key ?? NONE);
  if (value === undefined) {
    value = make();
    map.set(key ?? NONE, value);
  }
  return value;
}

/**
 * {@link heartbeatConfigSchema} for a host: its config sections' keys added (each before the core key
 * it names, so the key order stays one), and a check may not be called like one of its scanners nor
 * take one of its categories (the CLI passes `BUILTIN_SCANNERS`, `DEFAULT_CATEGORIES` and
 * `BUILTIN_CONFIG_SECTIONS` of `@heartbeat-kit/scanners`). Its output type names core's keys only;
 * the sections' keys are there at run time, and a scanner reads its own with `readConfigSection`.
 */
export function heartbeatConfigSchemaFor(host: ConfigHost): typeof heartbeatConfigSchema {
  const bySections = cacheOf(schemaByHost, host.categories, () => new WeakMap<object, WeakMap<object, Schema>>());
  const byScanners = cacheOf(bySections, host.sections, () => new WeakMap<object, Schema>());
  return cacheOf(byScanners, host.scanners, () => {
    const reserved = { scanners: host.scanners ?? [], categories: new Set<string>(host.categories?.names ?? []) };
    const core = { ...heartbeatConfigSchema.shape, checks: checksSchemaFor(reserved) };
    const shape = composeShape(core, host.sections ?? []);
    const description = heartbeatConfigSchema.description ?? '';
    return z.object(shape).strict().describe(description) as unknown as Schema;
  });
}
