// The `## Checks` section of HEARTBEAT.md: any command as a scanner. Its zod schema, the names it may
// not take, and the category and cadence every reader of a check (scanner, plan, decision) derives alike.
import { z } from 'zod';
import { repeatSchedule } from './repeat-limits.js';

/** What a check may be called: lower-case letters, digits and `-`, starting with a letter (it names a scanner and a category). */
export const CHECK_NAME_PATTERN = /^[a-z][a-z0-9-]{0,39}$/;

/** What a check's own category may be called: upper-case letters, digits and `_`. */
export const CHECK_CATEGORY_PATTERN = /^[A-Z][A-Z0-9_]{0,63}$/;

/** The longest a check may run: below the cycle's 30 s per-scanner bound, so the check's own deadline (and its kill) comes first. */
export const MAX_CHECK_TIMEOUT_MS = 25_000;

/** The default deadline of a check (10 s). */
export const DEFAULT_CHECK_TIMEOUT_MS = 10_000;

/** At most this many checks in one HEARTBEAT.md (each is a scanner; the state keeps at most 64 slices). */
export const MAX_CHECKS = 32;

/** The longest `every:` duration (7 days). */
export const MAX_CHECK_EVERY_MS = 7 * 86_400_000;

const envNames = z
  .array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*\*?$/, 'must be a variable name, or a prefix ending in *'))
  .min(1)
  .max(100);

/** One check: a command the heartbeat runs as a scanner, with its cadence, deadline and reporting rules. */
export const checkSchema = z
  .object({
    name: z
      .string()
      .regex(CHECK_NAME_PATTERN, 'must be lower-case letters, digits and -, starting with a letter (at most 40)')
      .describe(
        'The check’s name: its scanner’s name in reports, history and `heartbeat-kit check run NAME`. Never a built-in scanner’s name.',
      ),
    run: z
      .union([z.array(z.string().min(1).max(4096)).min(1).max(64), z.string().min(1).max(4096)])
      .describe('The command as an argv list ([df, --output=pcent, /]); a string only with shell: true (run by /bin/sh -c).'),
    shell: z.boolean().default(false).describe('Run `run` (then a string) through /bin/sh -c. Off by default: an argv list runs no shell.'),
    every: z
      .union([
        z.object({ cycles: z.number().int().min(1).max(1000) }).strict(),
        z.object({ ms: z.number().int().positive().max(MAX_CHECK_EVERY_MS) }).strict(),
      ])
      .default({ cycles: 1 })
      .describe('How often it runs: every N cycles ({ cycles }) or at least this long apart ({ ms }); default every cycle.'),
    timeoutMs: z
      .number()
      .int()
      .min(100)
      .max(MAX_CHECK_TIMEOUT_MS)
      .default(DEFAULT_CHECK_TIMEOUT_MS)
      .describe('Deadline in ms (default 10 s, at most 25 s): then its whole process group gets SIGTERM, SIGKILL after a grace.'),
    priority: z
      .enum(['Immediate', 'Advisory', 'Normal'])
      .default('Normal')
      .describe('Priority class of its findings (a JSON line may lower or raise its own).'),
    category: z
      .string()
      .regex(CHECK_CATEGORY_PATTERN, 'must be upper-case letters, digits and _')
      .optional()
      .describe('Category of its findings; default CHECK_<NAME> (upper case, - as _).'),
    outsideHours: z
      .enum(['run', 'skip'])
      .default('skip')
      .describe('run: it also runs (and reports) outside active hours; skip (default): it does not.'),
    cwd: z
      .string()
      .min(1)
      .max(4096)
      .optional()
      .describe('Working directory, relative to the project directory (default the project directory).'),
    env: z
      .object({
        allow: envNames
          .optional()
          .describe(
            'HEARTBEAT.md "- env allow:": only PATH, HOME, USER, LANG, TMPDIR, TMUX_TMPDIR and these (NAME or PREFIX*) reach the check.',
          ),
        deny: envNames.optional().describe('HEARTBEAT.md "- env deny:": these (NAME or PREFIX*) are removed from what the check inherits.'),
      })
      .strict()
      .optional()
      .describe(
        'Environment policy: allow = hardened mode for this check (only the essentials and these names); deny = names (PREFIX*) removed.',
      ),
    confirm: z
      .number()
      .int()
      .min(1)
      .max(100)
      .default(1)
      .describe('Hysteresis: a finding is reported once this many runs in a row produced it.'),
    repeat: repeatSchedule.optional().describe('Its own repeat schedule (like the Repeat lines); absent = that of its priority class.'),
  })
  .strict()
  .superRefine((check, ctx) => {
    if (typeof check.run === 'string' && !check.shell)
      ctx.addIssue({
        code: 'custom',
        path: ['run'],
        message: 'is a shell string, and this check has no shell: true',
        params: { fix: 'write an argv list such as [df, --output=pcent, /], or add "- shell: true" to run it through /bin/sh -c' },
      });
  });

/** One validated check. */
export type CheckSpec = z.infer<typeof checkSchema>;

/** Names a host keeps for itself: a check may not be called like one of its scanners nor report as one of its categories. */
export interface ReservedNames {
  /** The host's scanners (the CLI: the built-in ones). */
  readonly scanners: readonly string[];
  /** The categories of the host's table. */
  readonly categories: ReadonlySet<string>;
}

/** The `checks` key of a configuration whose host reserves `reserved`: names and categories unique, never a reserved one. */
export function checksSchemaFor({ scanners, categories: reservedCategories }: ReservedNames) {
  return z
    .array(checkSchema)
    .max(MAX_CHECKS)
    .default([])
    .superRefine((checks, ctx) => {
      const names = new Map<string, number>();
      const categories = new Map<string, number>();
      checks.forEach((check, index) => {
        if (scanners.includes(check.name))
          ctx.addIssue({
            code: 'custom',
            path: [index, 'name'],
            message: `is the name of a built-in scanner`,
            params: { fix: `give the check another name, such as ${check.name}-check (built-ins: ${scanners.join(', ')})` },
          });
        const first = names.get(check.name);
        if (first !== undefined)
          ctx.addIssue({
            code: 'custom',
            path: [index, 'name'],
            message: `is the name of check ${first + 1} too`,
            params: { fix: 'give every check its own name' },
          });
        else names.set(check.name, index);
        const category = checkCategoryOf(check);
        if (reservedCategories.has(category))
          ctx.addIssue({
            code: 'custom',
            path: [index, 'category'],
            message: `is a built-in category`,
            params: { fix: `leave category out (it defaults to ${defaultCheckCategory(check.name)}) or pick a name of your own` },
          });
        const sharing = categories.get(category);
        if (sharing !== undefined)
          ctx.addIssue({
            code: 'custom',
            path: [index, 'category'],
            message: `${category} is the category of check ${sharing + 1} too`,
            params: { fix: 'give every check its own category (or leave category out: it defaults to CHECK_<NAME>)' },
          });
        else categories.set(category, index);
      });
    })
    .describe('## Checks: commands run as scanners. See docs/checks.md for the output contract.');
}

/** The `checks` key with no name reserved: what a configuration is checked with before a host gives its own. */
export const checksSchema = checksSchemaFor({ scanners: [], categories: new Set() });

/** `CHECK_<NAME>`: a check's category when it names none. */
export function defaultCheckCategory(name: string): string {
  return `CHECK_${name.toUpperCase().replace(/-/g, '_')}`;
}

/** The category of a check's findings. */
export function checkCategoryOf(check: Pick<CheckSpec, 'name' | 'category'>): string {
  return check.category ?? defaultCheckCategory(check.name);
}

/**
 * Whether a check runs in a cycle at `nowMs`, given when it last ran: every cycle (always), every N cycles
 * (N × the configured interval, half an interval early so a late slot does not push it a whole cycle), or at
 * least `every.ms` apart (the same half-interval slack). A clock set back before the last run runs it.
 */
export function isCheckDue(check: Pick<CheckSpec, 'every'>, lastRunMs: number | undefined, nowMs: number, intervalMs: number): boolean {
  // Every cycle means every cycle, however often cycles are started (cron, by hand, a loop).
  if (lastRunMs === undefined || nowMs < lastRunMs || ('cycles' in check.every && check.every.cycles === 1)) return true;
  const spanMs = 'cycles' in check.every ? check.every.cycles * intervalMs : check.every.ms;
  return nowMs - lastRunMs >= spanMs - intervalMs / 2;
}

/** When a check that last ran at `lastRunMs` is next due (epoch ms); `lastRunMs` undefined = now. */
export function checkDueAtMs(check: Pick<CheckSpec, 'every'>, lastRunMs: number | undefined, nowMs: number, intervalMs: number): number {
  if (isCheckDue(check, lastRunMs, nowMs, intervalMs)) return nowMs;
  if (lastRunMs === undefined) return nowMs;
  const spanMs = 'cycles' in check.every ? check.every.cycles * intervalMs : check.every.ms;
  return Math.max(nowMs, lastRunMs + spanMs - intervalMs / 2);
}

/** `every cycle`, `every 3 cycles`, `every 1h`: a check's cadence as the plan and help print it. */
export function describeCheckEvery(check: Pick<CheckSpec, 'every'>, formatMs: (ms: number) => string): string {
  if ('cycles' in check.every) return check.every.cycles === 1 ? 'every cycle' : `every ${check.every.cycles} cycles`;
  return `every ${formatMs(check.every.ms)}`;
}
