/**
 * What `scripts/docs-gen.mjs` writes, computed from the code itself: the configuration reference
 * and JSON Schemas from the zod schemas, the CLI reference from every command's `--help`.
 * Loaded through Vite's module runner, so the TypeScript sources are read directly (no build).
 * The root has no dependencies of its own, so the packages are imported by path.
 */
import { heartbeatConfigSchemaFor, renderHeartbeatMarkdown } from '../packages/core/src/host/index.js';
import { CONFIG_PATH, personaConfigSchema, woterclipConfigSchema } from '../packages/woterclip/src/index.js';
import { systemStatusSchema } from '../packages/runbook/src/index.js';
import { BUILTIN_CONFIG_SECTIONS, checkFindingLineSchema } from '../packages/scanners/src/index.js';
import { EXIT_CODE_TABLE } from '../packages/cli/src/index.js';
import { walkHelp } from './cli-help-walk.js';

/** One generated file: a path relative to the repository root and its full text. */
export interface GeneratedFile {
  readonly path: string;
  readonly text: string;
}

type JsonSchema = {
  readonly type?: string | readonly string[];
  readonly description?: string;
  readonly default?: unknown;
  readonly const?: unknown;
  readonly enum?: readonly unknown[];
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly items?: JsonSchema;
  readonly additionalProperties?: JsonSchema | boolean;
  readonly propertyNames?: JsonSchema;
  readonly anyOf?: readonly JsonSchema[];
  readonly pattern?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minItems?: number;
  readonly minLength?: number;
  readonly format?: string;
};

interface ConfigDoc {
  readonly id: string;
  readonly title: string;
  readonly file: string;
  readonly schemaFile: string;
  readonly intro: string;
  /** A zod 4 schema (its `toJSONSchema` method is `z.toJSONSchema` bound to it). */
  readonly schema: { readonly toJSONSchema: (params: { io: 'input'; target: 'draft-2020-12'; unrepresentable: 'any' }) => unknown };
  readonly example?: { readonly lang: string; readonly text: string; readonly caption: string };
  /** Descriptions for keys whose schema has no `.describe()`; a key the schema lacks fails generation. */
  readonly notes?: Readonly<Record<string, string>>;
}

const WOTERCLIP_NOTES: Readonly<Record<string, string>> = {
  version:
    'Schema version; `heartbeat-kit woterclip init` writes a version 2 file. Version 1 files (with a `linear:` section) are not migrated: move one aside, run init and copy the settings over.',
  'github.board_user':
    'GitHub login whose assigned issues are worked (the authenticated `gh` account); `Heartbeat #N` counts only its comments.',
  'github.repo': 'The repository, `owner/name`.',
  'heartbeat.max_issues_per_heartbeat': 'Issues worked per beat before it stops with `issue_budget`.',
  'heartbeat.stale_lock_hours':
    "A `.woterclip/.heartbeat-lock` older than this is stale and taken over (atomic rename). On the same host a lock whose beat no longer runs (pid and start time in the lock) is stale at once; the age decides for another host's lock or one without pid.",
  'heartbeat.time_ceiling_sec': 'A beat starts no new issue after this many seconds (`time_ceiling`).',
  'heartbeat.quiet_hours.enabled': 'Skip (or only triage) beats inside the quiet window.',
  'heartbeat.quiet_hours.timezone': 'IANA zone of the quiet window.',
  'heartbeat.quiet_hours.start': 'Start of the quiet window, HH:MM (inclusive; 8:30 and a whole hour such as 22 are read too).',
  'heartbeat.quiet_hours.end':
    'End of the quiet window, HH:MM (exclusive); start > end spans midnight; 24:00 is midnight (00:00-24:00 with days: a whole quiet day).',
  'heartbeat.quiet_hours.days':
    'Quiet only on these days of the local calendar: "Mon-Fri", "Sun", "Sat, Sun", "Fri-Mon" or a list; absent = every day. A window crossing midnight counts for the day it is on at each instant.',
  'heartbeat.quiet_hours.behavior':
    '`skip`: no work inside the window (stop reason `quiet_hours`); `triage-only`: only issues for the default persona are worked.',
  'heartbeat.cooldown': 'Reserved upstream; accepted and ignored.',
  'labels.working': 'Label put on an issue while a persona works it.',
  'labels.blocked': 'Label put on an issue the persona could not finish (with a Clears-when line).',
  personas: 'Personas by name (lowercase words).',
  'personas.<name>.path': "The persona's directory, relative to `.woterclip/`.",
  'personas.<name>.label': 'Issues with this label go to this persona.',
  'personas.<name>.is_default': 'Takes issues no label matches; at most one persona.',
  'dispatch.command':
    'argv of the agent CLI; `{model}`, `{max_turns}`, `{thinking_effort}` and `{persona}` are filled from the persona; the prompt goes to stdin.',
  'dispatch.fallback.command': 'Run when the command is refused at invocation; `{model}` becomes `fallback.model`.',
  'dispatch.fallback.model': "The session model the fallback runs on, disclosed on the comment's Model line.",
  'dispatch.mcp_tools': "MCP tools (names starting `mcp__`) available to the agent; they satisfy a persona's `required_tools`.",
  'dispatch.breaker':
    'The dispatch circuit breaker (issue 15 item 5): an agent dispatch failing the same way beat after beat is said once (DISPATCH_FAILING) instead of blocking every issue. Kept in the beat receipts (`.woterclip/receipts`).',
  'dispatch.breaker.after':
    'Beats in a row in which every dispatch failed the same way (same kind and message) before the breaker trips: one DISPATCH_FAILING line, then beats hold the dispatch back (exit `breaker-open`, no lock, no GitHub call) except retry beats (0 = off: every beat dispatches, failures only block their issues).',
  'dispatch.breaker.backoff_cap':
    'A tripped breaker retries the dispatch at the 2nd, 4th, … beat, never less often than every this many beats (1 = every beat: the advisory only, no back-off). A retry that works closes it with one `dispatch recovered` line.',
};

const PERSONA_NOTES: Readonly<Record<string, string>> = {
  name: 'Display name.',
  label: 'Issue label routed to this persona.',
  required_tools:
    'Tools that must be available before dispatch: on PATH, or in `dispatch.mcp_tools` for `mcp__` tools; otherwise the issue is blocked.',
  'runtime.model': 'Model name passed as `{model}`.',
  'runtime.thinking_effort': 'Named in the prompt and passed as `{thinking_effort}`.',
  'runtime.max_turns': 'Passed as `{max_turns}`.',
  'runtime.enable_chrome': 'Tells the agent that browser tooling is available.',
};

const STATUS_NOTES: Readonly<Record<string, string>> = {
  $comment: 'Free text for people reading the file (JSON has no comments); ignored.',
  version: 'Snapshot format version.',
  generatedAt: 'When the snapshot was taken.',
  serverStartedAt: 'When the server last started; boot triage and the first tick are timed from it (no tick at boot).',
  'tasks[].taskType': "`heartbeat-checklist` and `boot-triage` are the runbook's own task types.",
  'tasks[].failureReason': 'Why a task failed; reboot-interrupted tasks are found by it.',
  'tasks[].output': "What the task completed with (the lead's checklist output).",
  'agents[].isLead': 'Checklist tasks go to the lead; no lead = no tick.',
  'mentions[].answered': 'An unanswered mention wakes the gate.',
};

const HEARTBEAT_NOTE = `HEARTBEAT.md is Markdown, not YAML: each setting is a list item \`- Key: value\` under a
heading. The parser maps headings and keys to the fields below (durations such as \`10 minutes\` or
\`4h\` become milliseconds); the JSON Schema describes the resulting configuration object, which
is also what an embedder gets from \`parseHeartbeatConfig(text, { sections: BUILTIN_CONFIG_SECTIONS })\`
(core's own keys plus each built-in scanner's section, exported by @heartbeat-kit/scanners; core's
\`heartbeatConfigSchema\` alone has only core's keys). \`heartbeat-kit init\` writes the
file below, and reading it back gives exactly the defaults.`;

const DOCS: readonly ConfigDoc[] = [
  {
    id: 'heartbeat-md',
    title: 'HEARTBEAT.md',
    file: '.claude/HEARTBEAT.md',
    schemaFile: 'heartbeat-config.schema.json',
    intro: HEARTBEAT_NOTE,
    // What the CLI reads: core's keys and the built-in scanners' sections.
    schema: heartbeatConfigSchemaFor({ sections: BUILTIN_CONFIG_SECTIONS }),
    example: {
      lang: 'markdown',
      text: renderHeartbeatMarkdown(undefined, { sections: BUILTIN_CONFIG_SECTIONS }),
      caption: 'What `heartbeat-kit init` writes (the defaults):',
    },
  },
  {
    id: 'woterclip-config-yaml',
    title: '.woterclip/config.yaml',
    file: CONFIG_PATH,
    schemaFile: 'woterclip-config.schema.json',
    intro:
      "The WoterClip repository configuration (schema version 2) read by `heartbeat-kit woterclip beat` and `status`, plus the kit's `dispatch:` section: how a persona's agent is started.",
    schema: woterclipConfigSchema,
    notes: WOTERCLIP_NOTES,
  },
  {
    id: 'persona-config-yaml',
    title: 'Persona config.yaml',
    file: '.woterclip/personas/<name>/config.yaml',
    schemaFile: 'woterclip-persona.schema.json',
    intro: "One persona's runtime settings; the repository config points at it with `personas.<name>.path`.",
    schema: personaConfigSchema,
    notes: PERSONA_NOTES,
  },
  {
    id: 'runbook-status-snapshot',
    title: 'Runbook status snapshot',
    file: 'status.json',
    schemaFile: 'runbook-status.schema.json',
    intro:
      'The system status snapshot (version 1) the runbook decisions read (`heartbeat-kit runbook tick --status FILE`, any file name): tasks, agents, schedules and mentions. Failures and the previous checklist result are derived from `tasks`, so the snapshot cannot contradict itself.',
    schema: systemStatusSchema,
    notes: STATUS_NOTES,
  },
  {
    id: 'check-finding-line',
    title: 'Check finding (one JSON line)',
    file: "a check's stdout",
    schemaFile: 'check-finding.schema.json',
    intro:
      'What a HEARTBEAT.md check (`## Checks`) prints on stdout to report findings: one JSON object per line, exit 0. Empty stdout is quiet, plain text is one finding (its first line), exit 2 is "not applicable now"; anything else is a scanner problem. See docs/checks.md and `heartbeat-kit help checks`.',
    schema: checkFindingLineSchema,
  },
];

function jsonSchemaOf(doc: ConfigDoc): Record<string, unknown> {
  const schema = doc.schema.toJSONSchema({ io: 'input', target: 'draft-2020-12', unrepresentable: 'any' }) as Record<string, unknown>;
  return {
    $schema: schema.$schema,
    $id: `https://example.invalid/heartbeat-kit/docs/schemas/${doc.schemaFile}`,
    title: doc.title,
    ...schema,
  };
}

function typeOf(schema: JsonSchema): string {
  if (schema.const !== undefined) return `\`${JSON.stringify(schema.const)}\``;
  if (schema.enum !== undefined) return schema.enum.map((v) => `\`${JSON.stringify(v)}\``).join(' | ');
  if (schema.anyOf !== undefined) return schema.anyOf.map(typeOf).join(' | ');
  const type = Array.isArray(schema.type) ? (schema.type as readonly string[]).join(' | ') : (schema.type as string | undefined);
  if (type === 'array') return `${schema.items === undefined ? 'any' : typeOf(schema.items)}[]`;
  if (type === 'object' && schema.properties === undefined && typeof schema.additionalProperties === 'object') {
    return `map of ${typeOf(schema.additionalProperties)}`;
  }
  if (type === 'string' && schema.format === 'date-time') return 'string (ISO date-time)';
  return type ?? 'any';
}

function constraints(schema: JsonSchema): string {
  const parts: string[] = [];
  // zod writes the safe-integer range on every `.int()`; only a real bound is worth a word.
  if (schema.minimum !== undefined && schema.minimum > Number.MIN_SAFE_INTEGER) parts.push(`≥ ${schema.minimum}`);
  if (schema.maximum !== undefined && schema.maximum < Number.MAX_SAFE_INTEGER) parts.push(`≤ ${schema.maximum}`);
  if (schema.minItems !== undefined && schema.minItems > 0) parts.push(`at least ${schema.minItems} item(s)`);
  if (schema.pattern !== undefined && schema.format !== 'date-time') parts.push(`matches \`${schema.pattern}\``);
  return parts.join(', ');
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** Flattens a JSON Schema object into rows: dotted key, type, required, default, description. */
function rows(schema: JsonSchema, notes?: Readonly<Record<string, string>>, used?: Set<string>, prefix = ''): string[] {
  const out: string[] = [];
  const required = new Set(schema.required ?? []);
  for (const [key, child] of Object.entries(schema.properties ?? {})) {
    const path = `${prefix}${key}`;
    const def = child.default === undefined ? '' : `\`${JSON.stringify(child.default)}\``;
    const description = [child.description ?? notes?.[path] ?? '', constraints(child)].filter((s) => s !== '').join(' — ');
    used?.add(path);
    out.push(`| \`${path}\` | ${cell(typeOf(child))} | ${required.has(key) ? 'yes' : ''} | ${cell(def)} | ${cell(description)} |`);
    if (child.properties !== undefined) out.push(...rows(child, notes, used, `${path}.`));
    if (typeof child.additionalProperties === 'object' && child.additionalProperties.properties !== undefined) {
      out.push(...rows(child.additionalProperties, notes, used, `${path}.<name>.`));
    }
    if (child.items?.properties !== undefined) out.push(...rows(child.items, notes, used, `${path}[].`));
  }
  return out;
}

/** Rows of a document; a note for a key the schema does not have is an error, so notes cannot drift. */
function rowsChecked(doc: ConfigDoc, schema: JsonSchema): string[] {
  const used = new Set<string>();
  const out = rows(schema, doc.notes, used);
  const unknown = Object.keys(doc.notes ?? {}).filter((key) => !used.has(key));
  if (unknown.length > 0) throw new Error(`docs-gen: notes for keys ${doc.title} does not have: ${unknown.join(', ')}`);
  return out;
}

function configurationReference(): string {
  const lines = [
    '<!-- GENERATED by scripts/docs-gen.mjs from the zod schemas. Do not edit; run `pnpm docs:gen`. -->',
    '# Configuration reference',
    '',
    'Every file a user writes is validated with a zod schema (`safeParse`): an unusable value stops with the',
    'file, the key and the fix, and unknown keys are rejected (HEARTBEAT.md only warns about them). This page',
    'and the JSON Schemas in [`docs/schemas/`](../schemas) are generated from those schemas, so they cannot',
    'drift from the code. Point an editor at a schema, e.g. for YAML with the Red Hat extension:',
    '`# yaml-language-server: $schema=../docs/schemas/woterclip-config.schema.json`.',
    '',
    ...DOCS.map((doc) => `- [${doc.title}](#${doc.id})`),
    '',
  ];
  for (const doc of DOCS) {
    const schema = jsonSchemaOf(doc) as JsonSchema;
    lines.push(
      `<a id="${doc.id}"></a>`,
      `## ${doc.title}`,
      '',
      `File: \`${doc.file}\` · JSON Schema: [\`docs/schemas/${doc.schemaFile}\`](../schemas/${doc.schemaFile})`,
      '',
      doc.intro,
      '',
      '| key | type | required | default | description |',
      '|---|---|---|---|---|',
      ...rowsChecked(doc, schema),
      '',
    );
    if (doc.example !== undefined) lines.push(doc.example.caption, '', `\`\`\`${doc.example.lang}`, doc.example.text.trimEnd(), '```', '');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

async function cliReference(): Promise<string> {
  const { top, pages } = await walkHelp();
  const sections: string[] = [];
  const toc: string[] = [];
  const add = (argv: readonly string[], text: string): void => {
    const title = `heartbeat-kit ${argv.join(' ')}`;
    toc.push(`${'  '.repeat(argv.length - 1)}- [\`${title}\`](#${argv.join('-')})`);
    sections.push(
      `<a id="${argv.join('-')}"></a>`,
      `${argv.length === 1 ? '##' : '###'} \`${title}\``,
      '',
      '```text',
      text.trimEnd(),
      '```',
      '',
    );
  };
  for (const page of pages) {
    if (page.parent === undefined) {
      if (page.code !== 0) throw new Error(`heartbeat-kit ${page.argv.join(' ')} --help exited ${page.code}`);
    } else if (page.code !== 0 || !page.text.startsWith('Usage:') || page.text === page.parent.text) continue;
    add(page.argv, page.text);
  }
  return (
    [
      '<!-- GENERATED by scripts/docs-gen.mjs from `heartbeat-kit <command> --help`. Do not edit; run `pnpm docs:gen`. -->',
      '# CLI reference',
      '',
      'Every command and subcommand of the `heartbeat-kit` binary, as its `--help` prints it.',
      '',
      '```text',
      top.text.trimEnd(),
      '```',
      '',
      '<a id="exit-codes"></a>',
      '## Exit codes',
      '',
      "Every code the binary exits with (`EXIT_CODE_TABLE`, where the CLI maps outcomes to codes); each command's `--help` says its own cases.",
      '',
      '| code | name | meaning |',
      '|---|---|---|',
      ...EXIT_CODE_TABLE.map((row) => `| ${row.code} | \`${row.name}\` | ${row.meaning.replaceAll('|', '\\|')} |`),
      '',
      ...toc,
      '',
      ...sections,
    ]
      .join('\n')
      .trimEnd() + '\n'
  );
}

/** Every generated documentation file, in a stable order. */
export async function generateDocs(): Promise<GeneratedFile[]> {
  const files: GeneratedFile[] = [{ path: 'docs/reference/configuration.md', text: configurationReference() }];
  for (const doc of DOCS) files.push({ path: `docs/schemas/${doc.schemaFile}`, text: `${JSON.stringify(jsonSchemaOf(doc), null, 2)}\n` });
  files.push({ path: 'docs/reference/cli.md', text: await cliReference() });
  return files;
}

/**
 * Computed while the module loads: Vite's `runnerImport` closes its module runner once the import
 * returns, and the CLI loads its commands lazily, so `--help` must run before that.
 */
export const generatedDocs: readonly GeneratedFile[] = await generateDocs();
