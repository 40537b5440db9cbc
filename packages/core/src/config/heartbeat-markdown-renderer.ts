import { formatDays } from '../time/calendar.js';
import { formatDuration } from '../time/duration.js';
import type { CheckSpec } from './check-schema.js';
import { heartbeatConfigSchemaFor, type ConfigHost, type HeartbeatConfig } from './heartbeat-config-schema.js';
import { readConfigSection, type ConfigSection, type ConfigSectionSlot } from './config-section.js';

/** The lines of the sections written at `slot`, in the host's order. */
function sectionLines(config: HeartbeatConfig, sections: readonly ConfigSection[], slot: ConfigSectionSlot): string[] {
  return sections
    .filter((section) => section.renderAt === slot)
    .flatMap((section) => section.render?.(readConfigSection(section, config)) ?? []);
}

// `<` escaped so an argv word can never open an HTML comment the parser would skip.
function commandJson(argv: readonly string[]): string {
  return JSON.stringify(argv).replace(/</g, '\\u003c');
}

function schedule(intervals: readonly number[]): string {
  return intervals.map(formatDuration).join(', ');
}

// The spec's form (a bare hour) when the time is on the hour, HH:MM otherwise.
function boundText(time: string): string {
  return time.endsWith(':00') ? String(Number(time.slice(0, -3))) : time;
}

// The title and how the file is read.
function preambleLines(): string[] {
  return [
    '# Heartbeat Configuration',
    '<!--',
    '  Read by heartbeat-kit on every cycle. Text inside HTML comments like this one is ignored.',
    '  Keys are case-insensitive. Unknown sections and keys are reported as warnings and skipped;',
    '  a value that cannot be used stops the cycle with its line, key and fix.',
    '  An empty or missing file means: the defaults written below.',
    '  Durations: 90 min, 4h, 2h30m, 1 hour, 30 minutes; write only the duration (words around it are an error).',
    '-->',
    '',
  ];
}

// Active Hours: when scanning runs.
function activeHoursLines(config: HeartbeatConfig): string[] {
  return [
    '## Active Hours',
    '<!--',
    '  Scanning runs from Start (inside) to End (outside): a whole hour (8) or HH:MM (08:30).',
    '  End may be 24 or 24:00 (midnight). Start > End crosses midnight (22:00 to 06:00);',
    '  Start = End means always active. Weekend: false keeps Saturday and Sunday outside.',
    '  Days, when set, lists the active days instead: Mon-Fri, Sun, Mon, Wed, Fri or Fri-Mon.',
    '  Days are judged by the local calendar day at each instant. Timezone: an IANA name such',
    '  as Europe/Berlin, or system for the machine’s zone. Outside active hours only P0/P1',
    '  beads, orchestrator failures and GChat replies are checked.',
    '-->',
    `- Start: ${boundText(config.activeHours.start)}`,
    `- End: ${boundText(config.activeHours.end)}`,
    `- Weekend: ${config.activeHours.weekend}`,
    config.activeHours.days === undefined ? '<!-- - Days: Mon-Fri -->' : `- Days: ${formatDays(config.activeHours.days)}`,
    `- Timezone: ${config.activeHours.timeZone ?? 'system'}`,
    '',
  ];
}

// Scan Parameters: the scanners' thresholds, each section's lines in the host's order.
function scanParameterLines(config: HeartbeatConfig, sections: readonly ConfigSection[]): string[] {
  return ['## Scan Parameters', '', ...sectionLines(config, sections, 'scan parameters')];
}

// Heartbeat: heartbeat-kit's cycle, dedup, repeat, cost and breaker settings.
function heartbeatLines(config: HeartbeatConfig): string[] {
  return [
    '## Heartbeat',
    '<!--',
    '  heartbeat-kit settings the spec leaves implicit.',
    '  Interval: time between cycles (bare number = seconds).',
    '  Dedup window: an unchanged finding reported within this window is not reported again (bare number = minutes).',
    '  Operator idle: Advisory and Normal findings wait until the operator has been quiet this long.',
    '  Repeat: how often a finding that has not changed is reported again: the waits after its first,',
    '  second, … report, never shorter than the one before; the last one repeats (30m, 2h, 8h lets a',
    '  long-standing finding decay). A finding whose content changed is reported at once. Without a',
    '  Repeat line a finding repeats every Dedup window. Repeat Immediate, Repeat Advisory and',
    '  Repeat Normal set it for one priority class and win over Repeat.',
    '  Cost alert: a cycle estimated above this many tokens sends COST_ALERT.',
    '  Message budget: long reports are cut per category ("+N more") to stay under this many tokens; COST_ALERT is for what the cut cannot prevent.',
    '  Breaker after: a scanner failing the same way this many cycles in a row is reported once (SCANNER_FAILING) and',
    '  then tried every 2nd, 4th, … cycle up to Breaker back-off cap (off = always every cycle). Skipped runs are still said.',
    '-->',
    `- Interval: ${formatDuration(config.intervalMs)}`,
    `- Dedup window: ${formatDuration(config.dedupWindowMs)}`,
    config.repeat.all ? `- Repeat: ${schedule(config.repeat.all)}` : '<!-- - Repeat: 30 minutes, 2 hours, 8 hours -->',
    ...(config.repeat.immediate ? [`- Repeat Immediate: ${schedule(config.repeat.immediate)}`] : []),
    ...(config.repeat.advisory ? [`- Repeat Advisory: ${schedule(config.repeat.advisory)}`] : []),
    ...(config.repeat.normal ? [`- Repeat Normal: ${schedule(config.repeat.normal)}`] : []),
    `- Operator idle: ${formatDuration(config.operatorIdleMs)}`,
    `- Cost alert: ${config.costAlertTokens} tokens`,
    `- Message budget: ${config.actionableBudgetTokens} tokens`,
    `- Breaker after: ${config.breaker.after === 0 ? 'off' : `${config.breaker.after} cycles`}`,
    `- Breaker back-off cap: ${config.breaker.backoffCap} cycles`,
    '',
  ];
}

// The sections of the commands tools run (GChat, Pipelines), then Environment: what environment they get.
function toolLines(config: HeartbeatConfig, sections: readonly ConfigSection[]): string[] {
  return [
    ...sectionLines(config, sections, 'tools'),
    '## Environment',
    '<!-- Tools get your environment minus a short deny-list (docs/environment.md). Allow: hardened mode, only these names',
    '     (PREFIX* for a prefix) plus PATH, HOME, USER, LANG, TMPDIR and TMUX_TMPDIR reach the tools. -->',
    config.envAllow ? `- Allow: ${config.envAllow.join(', ')}` : '<!-- - Allow: BEADS_DIR, HTTPS_PROXY, NO_PROXY, SSH_AUTH_SOCK, XDG_* -->',
    '',
  ];
}

// Checks: an example in a comment, then one sub-list per check.
function checksLines(config: HeartbeatConfig): string[] {
  return [
    '## Checks',
    '<!-- Commands run as scanners (docs/checks.md; the contract: heartbeat-kit help checks). One sub-list per check:',
    '- name: disk',
    '  - run: [sh, examples/checks/disk-usage.sh, /, "90"]',
    '  - every: 30m',
    '-->',
    ...config.checks.flatMap(checkLines),
  ];
}

// Delivery: where each priority class goes.
function deliveryLines(config: HeartbeatConfig): string[] {
  return [
    '## Delivery',
    '<!-- Routing by priority: a class listed here goes to its own sink (stdout, file:PATH, webhook:URL, command:CMD);',
    '     the others to Default, else --sink. --route PRIORITY=SINK overrides a line. -->',
    ...(config.delivery.immediate
      ? [`- Immediate: ${config.delivery.immediate}`]
      : ['<!-- - Immediate: webhook:https://ntfy.example/phone -->']),
    ...(config.delivery.advisory ? [`- Advisory: ${config.delivery.advisory}`] : ['<!-- - Advisory: file:.claude/inbox.jsonl -->']),
    ...(config.delivery.normal ? [`- Normal: ${config.delivery.normal}`] : []),
    ...(config.delivery.default ? [`- Default: ${config.delivery.default}`] : []),
    ...(config.ping ? [`- Ping: ${config.ping}`] : []),
    '',
  ];
}

/**
 * Writes a commented `.claude/HEARTBEAT.md` for `config` (defaults when omitted): the
 * original heartbeat's sections and keys (spec 000) plus heartbeat-kit's extra keys, explanations in HTML comments the parser skips.
 * The host's config `sections` write their own lines. `parseHeartbeatConfig` with the same sections
 * reads the result back to the same configuration.
 */
export function renderHeartbeatMarkdown(config?: HeartbeatConfig, host: Pick<ConfigHost, 'sections'> = {}): string {
  const sections = host.sections ?? [];
  const values = config ?? heartbeatConfigSchemaFor(host).parse({});
  const lines: string[] = [
    ...preambleLines(),
    ...activeHoursLines(values),
    ...scanParameterLines(values, sections),
    ...heartbeatLines(values),
    ...toolLines(values, sections),
    ...checksLines(values),
    ...deliveryLines(values),
  ];
  return lines.join('\n');
}

/** One check's lines, read back by the `## Checks` setters to the same check. */
function checkLines(check: CheckSpec): string[] {
  const run = typeof check.run === 'string' ? (check.run.includes('`') ? check.run : `\`${check.run}\``) : commandJson(check.run);
  const every = 'cycles' in check.every ? `${check.every.cycles} cycles` : formatDuration(check.every.ms);
  return [
    `- name: ${check.name}`,
    `  - run: ${run}`,
    ...(check.shell ? ['  - shell: true'] : []),
    `  - every: ${every}`,
    `  - timeout: ${formatDuration(check.timeoutMs)}`,
    `  - priority: ${check.priority}`,
    ...(check.category === undefined ? [] : [`  - category: ${check.category}`]),
    `  - outside-hours: ${check.outsideHours}`,
    ...(check.cwd === undefined ? [] : [`  - cwd: ${check.cwd}`]),
    ...(check.env?.allow === undefined ? [] : [`  - env allow: ${check.env.allow.join(', ')}`]),
    ...(check.env?.deny === undefined ? [] : [`  - env deny: ${check.env.deny.join(', ')}`]),
    `  - confirm: ${check.confirm}`,
    ...(check.repeat === undefined ? [] : [`  - repeat: ${schedule(check.repeat)}`]),
  ];
}
