import { err, ok, type Result } from 'neverthrow';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { type BreakerSettings, daysSchema, isKnownZone, timeOfDaySchema } from '@heartbeat-kit/core/host';

/** Path of the repo config, relative to the repository root. */
export const CONFIG_PATH = '.woterclip/config.yaml';

/** The message of the "config missing" exit (spec step 1): nothing exists yet, so the user runs init. */
export const CONFIG_MISSING_MESSAGE = `No ${CONFIG_PATH} found. Run \`heartbeat-kit woterclip init --repo OWNER/NAME --board-user LOGIN\` to set up WoterClip in this repository.`;

/** The command that sets WoterClip up, named by every message that sends the user there. */
export const INIT_COMMAND = 'heartbeat-kit woterclip init';

/** Defaults of the dispatch breaker: the cycle's scanner breaker defaults (3 beats, back-off up to every 8th beat). */
export const DEFAULT_DISPATCH_BREAKER: BreakerSettings = { after: 3, backoffCap: 8 };

/** The dispatch breaker's settings of a validated config (`dispatch.breaker`), in core's form. */
export function dispatchBreakerSettings(config: {
  readonly dispatch: { readonly breaker: { readonly after: number; readonly backoff_cap: number } };
}): BreakerSettings {
  return { after: config.dispatch.breaker.after, backoffCap: config.dispatch.breaker.backoff_cap };
}

/** Default beat time ceiling in seconds (reference §3: 1200 s upstream, configurable here). */
export const DEFAULT_TIME_CEILING_SEC = 1200;

const placeholderFree = (what: string) =>
  z
    .string()
    .min(1)
    .refine((value) => !/\{\{[A-Z_]+\}\}/.test(value), `still holds the init placeholder; set the real ${what}`);

// A model name is substituted into the agent command's argv (`{model}`): one that starts with `-`
// would be read there as an option, so it must start with a letter or digit.
const modelName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/, 'must be a model name such as "opus"');

const personaRef = z
  .object({
    path: z
      .string()
      .min(1)
      .refine((p) => !p.startsWith('/') && !p.split(/[\\/]/).includes('..'), 'must be a path inside .woterclip/'),
    label: z.string().min(1).nullable().default(null),
    is_default: z.boolean().default(false),
  })
  .strict();

const quietHours = z
  .object({
    enabled: z.boolean().default(false),
    timezone: z.string().refine(isKnownZone, 'is not an IANA time zone (e.g. "America/Los_Angeles")').default('UTC'),
    start: timeOfDaySchema('start', '22:00'),
    // 24:00 lets a window run to midnight: 00:00-24:00 with days is a whole quiet day.
    end: timeOfDaySchema('end', '07:00'),
    days: daysSchema.optional(),
    behavior: z.enum(['skip', 'triage-only']).default('skip'),
  })
  .strict();

const argv = z.array(z.string().min(1)).min(1, 'must list the program and its arguments');

/** Zod schema of `.woterclip/config.yaml`, schema version 2, plus the kit's `dispatch:` section. */
export const woterclipConfigSchema = z
  .object({
    version: z.literal(2, {
      error:
        'must be 2 (a version 1 config is not migrated: move it aside, run `heartbeat-kit woterclip init` and copy your settings over)',
    }),
    github: z
      .object({
        board_user: placeholderFree('Board GitHub login'),
        repo: placeholderFree('repository').refine((r) => /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(r), 'must be "owner/name"'),
      })
      .strict(),
    heartbeat: z
      .object({
        max_issues_per_heartbeat: z.number().int().min(1).default(2),
        stale_lock_hours: z.number().positive().default(4),
        time_ceiling_sec: z.number().int().positive().default(DEFAULT_TIME_CEILING_SEC),
        quiet_hours: quietHours.prefault({}),
        // Reserved upstream: read by nothing, accepted for schema compatibility.
        cooldown: z.record(z.string(), z.unknown()).optional(),
      })
      .strict()
      .prefault({}),
    labels: z
      .object({ working: z.string().min(1).default('agent-working'), blocked: z.string().min(1).default('agent-blocked') })
      .strict()
      .prefault({}),
    personas: z
      .record(z.string().regex(/^[a-z0-9][a-z0-9_-]*$/, 'persona names are lowercase words'), personaRef)
      .refine(
        (personas) => Object.values(personas).filter((p) => p.is_default).length <= 1,
        'at most one persona may have is_default: true',
      ),
    dispatch: z
      .object({
        command: argv.default(['claude', '--print', '--model', '{model}', '--max-turns', '{max_turns}']),
        fallback: z
          .object({ command: argv.default(['claude', '--print', '--max-turns', '{max_turns}']), model: modelName.default('session') })
          .strict()
          .prefault({}),
        timeout_sec: z.number().int().positive().optional(),
        mcp_tools: z.array(z.string().startsWith('mcp__')).default([]),
        // Same bounds as the cycle's scanner breaker (HEARTBEAT.md Breaker after / back-off cap).
        breaker: z
          .object({
            after: z.number().int().min(0).max(100).default(DEFAULT_DISPATCH_BREAKER.after),
            backoff_cap: z.number().int().min(1).max(100).default(DEFAULT_DISPATCH_BREAKER.backoffCap),
          })
          .strict()
          .prefault({}),
      })
      .strict()
      .prefault({}),
    // The kit's hardened mode: only these variables (plus PATH, HOME, USER, LANG, TMPDIR, TMUX_TMPDIR) reach gh and the agent.
    environment: z
      .object({
        allow: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*\*?$/, 'must be a variable name, or a prefix ending in *')).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

/** A validated repo config. */
export type WoterclipConfig = z.infer<typeof woterclipConfigSchema>;

/** A validated persona entry of the repo config. */
export type PersonaRef = WoterclipConfig['personas'][string];

/** Zod schema of a persona's `config.yaml` (reference §4). */
export const personaConfigSchema = z
  .object({
    name: z.string().min(1).optional(),
    role: z.string().min(1).optional(),
    label: z.string().min(1).nullable().optional(),
    is_default: z.boolean().optional(),
    escalates_to: z.string().min(1).optional(),
    required_tools: z.array(z.string().min(1)).default(['gh']),
    runtime: z
      .object({
        model: modelName.default('sonnet'),
        thinking_effort: z.enum(['low', 'medium', 'high']).default('medium'),
        max_turns: z.number().int().positive().default(100),
        enable_chrome: z.boolean().default(false),
        timeout: z.number().nonnegative().default(0),
        extra_args: z.array(z.string()).default([]),
      })
      .strict()
      .prefault({}),
  })
  .strict();

/** A validated persona `config.yaml`. */
export type PersonaConfig = z.infer<typeof personaConfigSchema>;

/** Why a config file was rejected: which file, which key, and what to do. */
export interface ConfigError {
  readonly kind: 'config-missing' | 'config-invalid';
  readonly file: string;
  readonly key?: string;
  /** One line naming the file, the key and the fix. */
  readonly message: string;
}

const FIXES: Readonly<Record<string, string>> = {
  invalid_type: 'set it to the expected type',
  invalid_value: 'use one of the allowed values',
  unrecognized_keys: 'remove the key or check its spelling',
  too_small: 'use a larger value',
  too_big: 'use a smaller value',
};

function firstIssue(file: string, error: z.ZodError): ConfigError {
  const issue = error.issues[0];
  if (issue === undefined) return { kind: 'config-invalid', file, message: `${file}: invalid configuration` };
  const keys = issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : '';
  const path = [...issue.path.map(String), ...(keys ? [keys] : [])].join('.') || '(root)';
  // A shared schema (a time of day, a day list) carries its own fix.
  const ownFix = issue.code === 'custom' && typeof issue.params?.['fix'] === 'string' ? issue.params['fix'].replace(/\.$/, '') : undefined;
  const fix = ownFix ?? FIXES[issue.code] ?? 'fix the value';
  const message = ownFix === undefined ? issue.message : issue.message.replace(/\.$/, '');
  return { kind: 'config-invalid', file, key: path, message: `${file}: key "${path}" ${message}; ${fix}.` };
}

function parseYamlText(file: string, text: string): Result<unknown, ConfigError> {
  try {
    return ok(parseYaml(text, { maxAliasCount: 100 }) as unknown);
  } catch (error) {
    const detail = error instanceof Error ? error.message.split('\n')[0] : 'unreadable';
    return err({ kind: 'config-invalid', file, message: `${file}: not valid YAML (${detail}); fix the syntax.` });
  }
}

/** Validates the text of `.woterclip/config.yaml`; `undefined` text means the file is missing. */
export function parseWoterclipConfig(text: string | undefined, file = CONFIG_PATH): Result<WoterclipConfig, ConfigError> {
  if (text === undefined) return err({ kind: 'config-missing', file, message: CONFIG_MISSING_MESSAGE });
  return parseYamlText(file, text).andThen((value): Result<WoterclipConfig, ConfigError> => {
    const parsed = woterclipConfigSchema.safeParse(value ?? {});
    if (!parsed.success) return err(firstIssue(file, parsed.error));
    const personas = Object.entries(parsed.data.personas);
    if (personas.length === 0) {
      return err({
        kind: 'config-invalid',
        file,
        key: 'personas',
        message: `${file}: key "personas" is empty; add at least one persona (heartbeat-kit woterclip init writes an Orchestrator).`,
      });
    }
    return ok(parsed.data);
  });
}

/** Validates the text of a persona's `config.yaml`; `undefined` text means the file is missing. */
export function parsePersonaConfig(text: string | undefined, file: string): Result<PersonaConfig, ConfigError> {
  if (text === undefined) {
    return err({
      kind: 'config-invalid',
      file,
      message: `${file}: file is missing; create it or fix the persona's "path" in ${CONFIG_PATH}.`,
    });
  }
  return parseYamlText(file, text).andThen((value): Result<PersonaConfig, ConfigError> => {
    const parsed = personaConfigSchema.safeParse(value ?? {});
    return parsed.success ? ok(parsed.data) : err(firstIssue(file, parsed.error));
  });
}
