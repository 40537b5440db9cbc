import { describe, expect, it } from 'vitest';
import { formatHeartbeatConfigError } from '@heartbeat-kit/core';
import { DEFAULT_HEARTBEAT_CONFIG, parseHeartbeatConfig } from '../test/support/builtin-config.js';

const MIN = 60_000;
const HOUR = 60 * MIN;

const SPEC_EXAMPLE = `# Heartbeat Configuration

## Active Hours
- Start: 8
- End: 22
- Weekend: false

## Scan Parameters

### Beads
- Alert if: P0 or P1 tasks found
- Alert if: in_progress count changed since last check

### Orchestrators
- Expected: orch-auth, orch-dashboard
- Alert if: expected session missing

### Git
- Alert if: uncommitted changes older than 1 hour

### Stale Tasks
- Threshold: 4 hours with no commits

### Idle Orchestrators
- Threshold: 30 minutes with no tool calls
`;

function parse(markdown: string) {
  return parseHeartbeatConfig(markdown);
}

function errorOf(markdown: string) {
  return parse(markdown)._unsafeUnwrapErr();
}

describe('parseHeartbeatConfig', () => {
  it('reads spec 000’s example', () => {
    const { config, found, warnings } = parse(SPEC_EXAMPLE)._unsafeUnwrap();
    expect(found).toBe(true);
    expect(warnings).toEqual([]);
    expect(config).toEqual({
      ...DEFAULT_HEARTBEAT_CONFIG,
      expectedOrchestrators: ['orch-auth', 'orch-dashboard'],
      alertInProgressChanged: true,
    });
  });

  it.each(['', '   \n\t\n', '\uFEFF', undefined])('treats %j as missing: defaults, no warning', (text) => {
    expect(parseHeartbeatConfig(text)._unsafeUnwrap()).toMatchObject({ config: DEFAULT_HEARTBEAT_CONFIG, found: false, warnings: [] });
  });

  it('reads non-default values, with case-insensitive keys and * bullets', () => {
    const md = [
      '## active hours',
      '* START: 08:00',
      '* end: 24',
      '* WEEKEND: yes',
      '* Time zone: america/new_york',
      '### Stale Tasks',
      '- Threshold: 2h30m',
      '### Idle Orchestrators',
      '- Threshold: 90 min',
      '### Git',
      '- Alert if: uncommitted changes older than 3 hours',
      '## Heartbeat',
      '- Interval: 300',
      '- Dedup window: 1 hour',
      '- Operator idle: 10 minutes',
      '- Cost alert: 15,000 tokens',
      '- Actionable budget: 12000',
      '## GChat',
      '- Poll command: ["python3", "poll.py", "--marker-dir", "/tmp/m d"]',
      '## Pipelines',
      '- Dashboard command: python3 tools/dashboard.py',
    ].join('\n');
    const { config, warnings } = parse(md)._unsafeUnwrap();
    expect(warnings).toEqual([]);
    expect(config).toEqual({
      ...DEFAULT_HEARTBEAT_CONFIG,
      activeHours: { start: '08:00', end: '24:00', weekend: true, timeZone: 'America/New_York' },
      staleTaskMs: 150 * MIN,
      orchIdleMs: 90 * MIN,
      gitStaleMs: 3 * HOUR,
      intervalMs: 300_000,
      dedupWindowMs: HOUR,
      operatorIdleMs: 10 * MIN,
      costAlertTokens: 15_000,
      actionableBudgetTokens: 12_000,
      gchatPollCommand: ['python3', 'poll.py', '--marker-dir', '/tmp/m d'],
      pipelineDashboardCommand: ['python3', 'tools/dashboard.py'],
    });
  });

  it.each([
    ['8', '08:00'],
    ['08', '08:00'],
    ['8:00', '08:00'],
    ['08:00', '08:00'],
    ['0', '00:00'],
    ['23', '23:00'],
    ['8:30', '08:30'],
    ['08:30', '08:30'],
    ['23:59', '23:59'],
  ])('reads Start %j as %s', (text, time) => {
    expect(parse(`## Active Hours\n- Start: ${text}`)._unsafeUnwrap().config.activeHours.start).toBe(time);
  });

  it('reads minute-precise bounds and Days (issue 15 item 7)', () => {
    const { config, warnings } = parse(
      '## Active Hours\n- Start: 08:30\n- End: 18:15\n- Days: Mon-Fri\n- Timezone: Europe/Berlin\n',
    )._unsafeUnwrap();
    expect(warnings).toEqual([]);
    expect(config.activeHours).toEqual({
      start: '08:30',
      end: '18:15',
      weekend: false,
      days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'],
      timeZone: 'Europe/Berlin',
    });
    expect(parse('## Active Hours\n- Days: Sun\n')._unsafeUnwrap().config.activeHours).toMatchObject({ days: ['Sun'], weekend: true });
    expect(parse('## Active Hours\n- Days: fri - mon\n')._unsafeUnwrap().config.activeHours.days).toEqual(['Mon', 'Fri', 'Sat', 'Sun']);
    expect(parse('## Active Hours\n- Days: Monday, Wednesday and Friday\n')._unsafeUnwrap().config.activeHours.days).toEqual([
      'Mon',
      'Wed',
      'Fri',
    ]);
    expect(parse('## Active Hours\n- Start: 22:30\n- End: 06:15\n')._unsafeUnwrap().config.activeHours).toMatchObject({
      start: '22:30',
      end: '06:15',
    });
  });

  it('Weekend that contradicts Days is a warning naming both lines; Days decides', () => {
    const { config, warnings } = parse('## Active Hours\n- Weekend: true\n- Days: Mon-Fri\n')._unsafeUnwrap();
    expect(config.activeHours).toMatchObject({ weekend: false, days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'] });
    expect(warnings).toEqual(['.claude/HEARTBEAT.md:2: Weekend: true is ignored: Days (line 3) lists the active days (Mon-Fri).']);
    expect(parse('## Active Hours\n- Weekend: true\n- Days: Sat, Sun\n')._unsafeUnwrap().warnings).toEqual([]);
  });

  it.each([
    ['600', 600_000],
    ['600s', 600_000],
    ['10 minutes', 600_000],
    ['2m', 120_000],
  ])('reads Interval %j as %d ms', (text, ms) => {
    expect(parse(`## Heartbeat\n- Interval: ${text}`)._unsafeUnwrap().config.intervalMs).toBe(ms);
  });

  it('accepts End 24 and 24:00 as midnight, and decorated headings', () => {
    expect(parse('## **Active Hours:**\n- End: 24:00')._unsafeUnwrap().config.activeHours.end).toBe('24:00');
    expect(parse('## Active Hours\n- End: 24')._unsafeUnwrap().config.activeHours.end).toBe('24:00');
    expect(parse('## Stale_Tasks ##\n- Threshold: 3 hours')._unsafeUnwrap().config.staleTaskMs).toBe(3 * HOUR);
  });

  it('accepts the old upstream keys anywhere', () => {
    const md = [
      '# Settings',
      '- heartbeat_interval: 900',
      '- active_hours_start: 07:00',
      '- active_hours_end: 19:00',
      '- weekend_active: true',
      '- timezone: Europe/Berlin',
      '- stale_threshold_hours: 2',
      '- idle_threshold_minutes: 45',
      '- cost_alert_threshold: 30000',
    ].join('\n');
    const { config } = parse(md)._unsafeUnwrap();
    expect(config.intervalMs).toBe(900_000);
    expect(config.activeHours).toEqual({ start: '07:00', end: '19:00', weekend: true, timeZone: 'Europe/Berlin' });
    expect(config.staleTaskMs).toBe(2 * HOUR);
    expect(config.orchIdleMs).toBe(45 * MIN);
    expect(config.costAlertTokens).toBe(30_000);
  });

  // The old keys are settings like Interval (cobuilder.md §5 documents bare numbers: 600, 2, 30):
  // a bare number in the key's unit or a duration, and nothing around it.
  it.each([
    ['heartbeat_interval: 900', 'intervalMs', 900_000],
    ['heartbeat_interval: 10m', 'intervalMs', 600_000],
    ['stale_threshold_hours: 4', 'staleTaskMs', 4 * HOUR],
    ['stale_threshold_hours: 90 minutes', 'staleTaskMs', 90 * MIN],
    ['idle_threshold_minutes: 30', 'orchIdleMs', 30 * MIN],
    ['idle_threshold_minutes: 1h30m', 'orchIdleMs', 90 * MIN],
  ] as const)('reads the old key %j', (line, field, ms) => {
    expect(parse(`# Settings\n- ${line}\n`)._unsafeUnwrap().config[field]).toBe(ms);
  });

  it.each([
    ['stale_threshold_hours', '2 hours with no commits', 'has "with no commits" after the duration.', '4 (hours) or 90 minutes'],
    ['stale_threshold_hours', 'about 2', 'has "about" before the duration.', '4 (hours) or 90 minutes'],
    ['idle_threshold_minutes', '30 minutes of quiet', 'has "of quiet" after the duration.', '30 (minutes) or 2 hours'],
    ['heartbeat_interval', '600 or so', 'has "or so" after the duration.', '600 (seconds) or 10 minutes'],
    ['heartbeat_interval', 'every 10 minutes', 'has "every" before the duration.', '600 (seconds) or 10 minutes'],
  ])('the old key %s: %j is an error naming the file, the key and the fix, as Interval', (key, value, message, example) => {
    const error = errorOf(`- ${key}: ${value}\n`);
    expect(error).toMatchObject({ file: '.claude/HEARTBEAT.md', line: 1, key, value, message });
    expect(formatHeartbeatConfigError(error)).toBe(
      `.claude/HEARTBEAT.md:1: ${key}: "${value}" ${message} Fix: write only a duration such as ${example}.`,
    );
  });

  it('an old key under a section is named with it, as a new key is', () => {
    const interval = errorOf('## Heartbeat\n- Interval: 10 minutes of nothing\n');
    const legacy = errorOf('## Heartbeat\n- heartbeat_interval: 10 minutes of nothing\n');
    expect(legacy).toMatchObject({ key: 'Heartbeat → heartbeat_interval', message: interval.message });
    expect(formatHeartbeatConfigError(legacy)).toMatch(
      /^\.claude\/HEARTBEAT\.md:2: Heartbeat → heartbeat_interval: .* Fix: write only a duration/,
    );
  });

  it('dedups and trims expected sessions', () => {
    const md = '### Orchestrators\n- Expected:  orch-a , orch-b,orch-a,, \n';
    expect(parse(md)._unsafeUnwrap().config.expectedOrchestrators).toEqual(['orch-a', 'orch-b']);
  });

  it('an expected name with a character outside the allowed set is left out with a warning naming file:line, the key and the fix, never cut at the backtick (issue 25 item 10c)', () => {
    const cut = parse('### Orchestrators\n- Expected: orch-`touch X`\n')._unsafeUnwrap();
    expect(cut.config.expectedOrchestrators).toEqual([]);
    expect(cut.warnings).toEqual([
      ".claude/HEARTBEAT.md:2: Orchestrators → Expected: \"orch-`touch X`\" is not a tmux session name (letters, digits, '.', '_', '-' and spaces inside a name) — ignored. Fix: write the name as `tmux ls` shows it, e.g. orch-auth, and separate names with commas.",
    ]);
    const mixed = parse('## Orchestrators\n- **Expected:** `orch-a`, orch-$(id), orch b, orch-c;rm, **orch-d**\n')._unsafeUnwrap();
    expect(mixed.config.expectedOrchestrators).toEqual(['orch-a', 'orch b', 'orch-d']);
    expect(mixed.warnings.map((w) => /"([^"]*)" is not a tmux session name/.exec(w)?.[1])).toEqual(['orch-$(id)', 'orch-c;rm']);
    // The whole list as one code span is how markdown users quote it.
    expect(parse('## Orchestrators\n- Expected: `orch-a, orch-b.1`\n')._unsafeUnwrap()).toMatchObject({
      config: { expectedOrchestrators: ['orch-a', 'orch-b.1'] },
      warnings: [],
    });
  });

  it('ignores HTML comments, code fences and prose, keeping line numbers', () => {
    const md = [
      '## Active Hours',
      '<!-- - Start: 99',
      '- End: 99 -->',
      '```',
      '- Start: 77',
      '```',
      'Some prose: explaining things.',
      '- Start: 9 <!-- nine -->',
      '- End: 30',
    ].join('\n');
    const error = errorOf(md);
    expect(error.line).toBe(9);
    expect(error.key).toBe('Active Hours → End');
  });

  it('a "<!--" never closed hides the rest of the file, and a warning names its line and the fix', () => {
    const md = ['## Active Hours', '- Start: 8', '<!-- the evening shift', '- End: 18', '## Git', '- Threshold: 2 hours'].join('\n');
    const { config, warnings } = parse(md)._unsafeUnwrap();
    expect(config.activeHours.end).toBe(DEFAULT_HEARTBEAT_CONFIG.activeHours.end);
    expect(warnings).toEqual([
      '.claude/HEARTBEAT.md:3: "<!--" opens a comment that is never closed, so every line after it is ignored. Fix: end the comment with "-->".',
    ]);
    // Closed on a later line: nothing to say.
    expect(parse(`${md}\n-->`)._unsafeUnwrap().warnings).toEqual([]);
  });

  it('treats Timezone: system as the machine zone', () => {
    const md = '## Active Hours\n- Timezone: Asia/Tokyo\n- Timezone: system\n';
    const parsed = parse(md)._unsafeUnwrap();
    expect(parsed.config.activeHours.timeZone).toBeUndefined();
    expect(parsed.warnings).toEqual(['.claude/HEARTBEAT.md:3: "Timezone" also set on line 2; this line wins.']);
  });

  it('warns about unknown sections, keys and conditions without failing', () => {
    const md = [
      '## Active Hours',
      '- Colour: blue',
      '## Mystery',
      '- Start: 99',
      '### Beads',
      '- Alert if: the moon is full',
      '- just words',
    ].join('\n');
    const { config, warnings } = parse(md)._unsafeUnwrap();
    expect(config).toEqual(DEFAULT_HEARTBEAT_CONFIG);
    expect(warnings).toEqual([
      '.claude/HEARTBEAT.md:2: unknown key "Colour" under Active Hours — ignored.',
      '.claude/HEARTBEAT.md:3: unknown section "Mystery" — its lines are ignored.',
      '.claude/HEARTBEAT.md:6: condition "the moon is full" is not one heartbeat-kit checks — ignored.',
      '.claude/HEARTBEAT.md:7: "just words" is not "Key: value" — ignored.',
    ]);
  });

  it.each([
    ['## Active Hours\n- Start: 25', 2, 'Active Hours → Start', '25', 'has hour 25; hours go 00–23.'],
    ['## Active Hours\n- Start: 08:60', 2, 'Active Hours → Start', '08:60', 'has minutes 60; minutes go 00–59.'],
    ['## Active Hours\n- Start: 24:00', 2, 'Active Hours → Start', '24:00', 'has hour 24; hours go 00–23.'],
    ['## Active Hours\n- End: 25', 2, 'Active Hours → End', '25', 'has hour 25; hours go 00–23 (24:00 is midnight).'],
    ['## Active Hours\n- End: 24:30', 2, 'Active Hours → End', '24:30', 'has hour 24; hours go 00–23 (24:00 is midnight).'],
    ['## Active Hours\n- End: eight', 2, 'Active Hours → End', 'eight', 'is not a time of day.'],
    ['## Active Hours\n- Days: Funday', 2, 'Active Hours → Days', 'Funday', 'holds "Funday", which is not a day of the week.'],
    [
      '## Active Hours\n- Days: Mon-Fri-Sun',
      2,
      'Active Hours → Days',
      'Mon-Fri-Sun',
      'holds "Mon-Fri-Sun", which is not a day of the week.',
    ],
    ['## Active Hours\n- Days: ,', 2, 'Active Hours → Days', ',', 'lists no day.'],
    ['## Active Hours\n- Weekend: sometimes', 2, 'Active Hours → Weekend', 'sometimes', 'is not true or false.'],
    ['## Active Hours\n- Timezone: Mars/Base', 2, 'Active Hours → Timezone', 'Mars/Base', 'is not an IANA time zone.'],
    ['### Git\n- Alert if: uncommitted changes', 2, 'Git → Alert if', 'uncommitted changes', 'has no duration (a number with a unit).'],
    ['### Stale Tasks\n- Threshold: 4 hourz', 2, 'Stale Tasks → Threshold', '4 hourz', 'has an unknown unit "hourz".'],
    ['## Heartbeat\n- Interval: 0', 2, 'Heartbeat → Interval', '0', 'must be longer than zero.'],
    // A setting is the duration alone; prose after it is an error rather than ignored.
    [
      '## Heartbeat\n- Interval: 10 minutes of nothing',
      2,
      'Heartbeat → Interval',
      '10 minutes of nothing',
      'has "of nothing" after the duration.',
    ],
    ['## Heartbeat\n- Dedup window: 30m or so', 2, 'Heartbeat → Dedup window', '30m or so', 'has "or so" after the duration.'],
    [
      '## Heartbeat\n- Operator idle: about 5 minutes',
      2,
      'Heartbeat → Operator idle',
      'about 5 minutes',
      'has "about" before the duration.',
    ],
    ['## Heartbeat\n- Cost alert: lots', 2, 'Heartbeat → Cost alert', 'lots', 'is not a positive number of tokens.'],
    [
      '## GChat\n- Poll command: ["a", 1]',
      2,
      'GChat → Poll command',
      '["a", 1]',
      'is not a command (a non-empty list of non-empty words).',
    ],
    ['## GChat\n- Poll command: [oops', 2, 'GChat → Poll command', '[oops', 'is not a valid JSON array.'],
    ['### Orchestrators\n- Prefix: orch x', 2, 'Orchestrators → Prefix', 'orch x', 'is not a session-name prefix.'],
    ['- active_hours_start: 24', 1, 'active_hours_start', '24', 'has hour 24; hours go 00–23.'],
  ])('rejects %j with a located error', (md, line, key, value, message) => {
    const error = errorOf(md);
    expect(error).toMatchObject({ kind: 'invalid-heartbeat-config', file: '.claude/HEARTBEAT.md', line, key, value, message });
    expect(error.fix.length).toBeGreaterThan(0);
  });

  it('uses the given file name', () => {
    const error = parseHeartbeatConfig('## Active Hours\n- Start: 30', { file: 'x/HB.md' })._unsafeUnwrapErr();
    expect(error.file).toBe('x/HB.md');
  });

  it('reads Delivery routes to every sink kind, inbox:DIR and tmux: included; anything else is a located error', () => {
    const md = '## Delivery\n- Immediate: tmux:agent:0.1\n- Advisory: inbox:.heartbeat/inbox\n- Default: stdout\n';
    expect(parseHeartbeatConfig(md)._unsafeUnwrap().config.delivery).toEqual({
      immediate: 'tmux:agent:0.1',
      advisory: 'inbox:.heartbeat/inbox',
      default: 'stdout',
    });
    expect(errorOf('## Delivery\n- Advisory: inbox\n')).toMatchObject({ key: 'Delivery → Advisory' });
  });

  it('reads Delivery → Ping (issue 30): an http(s) URL, cronitor: in front allowed; anything else is a located error', () => {
    expect(parseHeartbeatConfig('## Delivery\n- Ping: https://hc-ping.com/abc\n')._unsafeUnwrap().config.ping).toBe(
      'https://hc-ping.com/abc',
    );
    expect(parseHeartbeatConfig('## Delivery\n- Ping: `cronitor:https://cronitor.link/p/K/hb`\n')._unsafeUnwrap().config.ping).toBe(
      'cronitor:https://cronitor.link/p/K/hb',
    );
    expect(parseHeartbeatConfig('## Git\n- Threshold: 2 hours\n')._unsafeUnwrap().config.ping).toBeUndefined();
    expect(errorOf('## Delivery\n- Ping: hc-ping.com/abc\n')).toMatchObject({
      line: 2,
      key: 'Delivery → Ping',
      message: 'is not a ping URL.',
    });
  });

  it('reads the Environment allow-list (hardened mode); absent means the user environment', () => {
    const parsed = parseHeartbeatConfig('## Environment\n- Allow: BEADS_DIR, HTTPS_PROXY XDG_*\n')._unsafeUnwrap();
    expect(parsed.config.envAllow).toEqual(['BEADS_DIR', 'HTTPS_PROXY', 'XDG_*']);
    expect(parseHeartbeatConfig('## Environment\n- **Allow:** BEADS_DIR, LC_*\n')._unsafeUnwrap().config.envAllow).toEqual([
      'BEADS_DIR',
      'LC_*',
    ]);
    expect(parseHeartbeatConfig('## Git\n- Threshold: 2 hours\n')._unsafeUnwrap().config.envAllow).toBeUndefined();
    const error = errorOf('## Environment\n- Allow: BEADS_DIR, $(id)\n');
    expect(formatHeartbeatConfigError(error)).toMatch(
      /^\.claude\/HEARTBEAT\.md:2: Environment → Allow: .*not a variable name\. Fix: list names/,
    );
  });

  it('reads the circuit breaker keys (Breaker after, Breaker back-off cap; off turns it off) and names file, key and fix for a bad value', () => {
    expect(DEFAULT_HEARTBEAT_CONFIG.breaker).toEqual({ after: 3, backoffCap: 8 });
    expect(parse('## Heartbeat\n- Breaker after: 5 cycles\n- Breaker back-off cap: 4\n')._unsafeUnwrap().config.breaker).toEqual({
      after: 5,
      backoffCap: 4,
    });
    expect(parse('## Heartbeat\n- Breaker after: off\n')._unsafeUnwrap().config.breaker).toEqual({ after: 0, backoffCap: 8 });
    expect(formatHeartbeatConfigError(errorOf('## Heartbeat\n- Breaker after: often\n'))).toBe(
      '.claude/HEARTBEAT.md:2: Heartbeat → Breaker after: "often" is not a number of cycles 0–100. Fix: write how many failing cycles in a row trip the breaker, such as 3 (off or 0 turns it off).',
    );
    expect(formatHeartbeatConfigError(errorOf('## Heartbeat\n\n- Breaker back-off cap: 0\n'))).toBe(
      '.claude/HEARTBEAT.md:3: Heartbeat → Breaker back-off cap: "0" is not a number of cycles 1–100. Fix: write the longest back-off in cycles, such as 8 (1 = never skip a run).',
    );
  });

  it('strips terminal escapes from values it reports', () => {
    const error = errorOf('## Active Hours\n- Start: \u001b[31m25\u001b[0m');
    expect(error.value).toBe('25');
  });
});

describe('formatHeartbeatConfigError', () => {
  it('writes one line with file, line, key, value and fix', () => {
    const error = errorOf('# Heartbeat Configuration\n\n## Active Hours\n- Start: 25\n');
    expect(formatHeartbeatConfigError(error)).toBe(
      '.claude/HEARTBEAT.md:4: Active Hours → Start: "25" has hour 25; hours go 00–23. Fix: write a time HH:MM on the 24-hour clock, such as 08:30.',
    );
    expect(formatHeartbeatConfigError(errorOf('## Active Hours\n- Days: Funday\n'))).toBe(
      '.claude/HEARTBEAT.md:2: Active Hours → Days: "Funday" holds "Funday", which is not a day of the week. Fix: write days such as Mon-Fri, Sun, or Mon, Wed, Fri (a range may wrap: Fri-Mon).',
    );
  });
});
