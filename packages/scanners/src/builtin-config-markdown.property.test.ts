import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatHeartbeatConfigError } from '@heartbeat-kit/core';
import { formatDuration, parseDurationStrict, WEEKDAY_NAMES, type DurationUnit } from '@heartbeat-kit/core/host';
import {
  DEFAULT_HEARTBEAT_CONFIG,
  heartbeatConfigSchema,
  type BuiltinHeartbeatConfig as HeartbeatConfig,
  parseHeartbeatConfig,
  renderHeartbeatMarkdown,
} from '../test/support/builtin-config.js';

const HEADINGS = [
  'Heartbeat Configuration',
  'Active Hours',
  'Scan Parameters',
  'Beads',
  'Orchestrators',
  'Git',
  'Stale Tasks',
  'Idle Orchestrators',
  'Heartbeat',
  'GChat',
  'Pipelines',
  'Other',
];
const KEYS = [
  'Start',
  'End',
  'Weekend',
  'Days',
  'Timezone',
  'Time zone',
  'Expected',
  'Prefix',
  'Alert if',
  'Threshold',
  'Interval',
  'Dedup window',
  'Repeat',
  'Repeat Advisory',
  'Operator idle',
  'Cost alert',
  'Actionable budget',
  'Message budget',
  'Breaker after',
  'Breaker back-off cap',
  'Poll command',
  'Dashboard command',
  'active_hours_start',
  'stale_threshold_hours',
  'heartbeat_interval',
  'Colour',
];
const VALUES = [
  '8',
  '08:00',
  '8:30',
  '08:60',
  '24:00',
  'Mon-Fri',
  'Sun',
  'Funday',
  'fri-mon',
  '24',
  '-1',
  'true',
  'no',
  'maybe',
  'Europe/Berlin',
  'Not/AZone',
  'system',
  '1 hour',
  '2h30m',
  '0',
  '90 min',
  '10 minuts',
  '["a","b"]',
  '["',
  '[]',
  'orch-a, orch-b',
  'P0 or P1 tasks found',
  'in_progress count changed',
  '20000 tokens',
  '30m, 2h, 8h',
  '2h, 30m',
  '30m,,1h',
  '<!--',
  '-->',
  '```',
  '',
];

/** Lines that look like HEARTBEAT.md: headings, list items with known/unknown keys and odd values, noise. */
const markdownLine = fc.oneof(
  fc.tuple(fc.integer({ min: 1, max: 7 }), fc.constantFrom(...HEADINGS)).map(([level, title]) => `${'#'.repeat(level)} ${title}`),
  fc
    .tuple(fc.constantFrom('-', '*', '+', ''), fc.constantFrom(...KEYS), fc.oneof(fc.constantFrom(...VALUES), fc.string({ maxLength: 20 })))
    .map(([bullet, key, value]) => `${bullet} ${key}: ${value}`),
  fc.string({ maxLength: 40 }),
  fc.constantFrom('<!--', '-->', '```', '~~~', '', '\r', '\u001b[31m'),
);

const zones = fc.constantFrom(
  'America/New_York',
  'Europe/Berlin',
  'Australia/Lord_Howe',
  'Australia/Adelaide',
  'Asia/Kolkata',
  'UTC',
  'Pacific/Chatham',
);
const word = fc.stringMatching(/^[a-z][a-z0-9_-]{0,11}$/);
const argvWord = fc.string({ minLength: 1, maxLength: 12 }).filter((w) => w.trim() === w && w.trim() !== '');
const positiveMs = fc.oneof(
  fc.integer({ min: 1, max: 48 }).map((h) => h * 3_600_000),
  fc.integer({ min: 1, max: 600 }).map((m) => m * 60_000),
  fc.integer({ min: 1, max: 10_000 }).map((s) => s * 1000),
  fc.integer({ min: 1, max: 100_000_000 }),
);

/** A valid repeat schedule: 1–10 intervals, never shorter than the one before. */
const repeatArb = fc.array(positiveMs, { minLength: 1, maxLength: 10 }).map((intervals) => [...intervals].sort((a, b) => a - b));

/** `HH:MM` (or `H:MM`) of a minute in [min, max]. */
const timeOfDay = (min: number, max: number) =>
  fc
    .tuple(fc.integer({ min, max }), fc.boolean())
    .map(([m, pad]) => `${String(Math.floor(m / 60)).padStart(pad ? 2 : 1, '0')}:${String(m % 60).padStart(2, '0')}`);

/** Any valid configuration, built through the schema so it always is one. */
const configArb: fc.Arbitrary<HeartbeatConfig> = fc
  .record(
    {
      activeHours: fc.record(
        {
          start: fc.oneof(fc.integer({ min: 0, max: 23 }), timeOfDay(0, 1439)),
          end: fc.oneof(fc.integer({ min: 0, max: 24 }), timeOfDay(0, 1440)),
          weekend: fc.boolean(),
          days: fc.oneof(
            fc.uniqueArray(fc.constantFrom(...WEEKDAY_NAMES), { minLength: 1, maxLength: 7 }),
            fc.constantFrom('Mon-Fri', 'Sun', 'Fri-Mon', 'Mon, Wed, Fri'),
          ),
          timeZone: zones,
        },
        { requiredKeys: ['start', 'end', 'weekend'] },
      ),
      intervalMs: positiveMs,
      expectedOrchestrators: fc.uniqueArray(word, { maxLength: 4 }),
      orchestratorPrefix: word,
      gitStaleMs: positiveMs,
      staleTaskMs: positiveMs,
      orchIdleMs: positiveMs,
      operatorIdleMs: positiveMs,
      dedupWindowMs: positiveMs,
      costAlertTokens: fc.integer({ min: 1, max: 10_000_000 }),
      actionableBudgetTokens: fc.integer({ min: 1, max: 10_000_000 }),
      alertInProgressChanged: fc.boolean(),
      gchatPollCommand: fc.array(argvWord, { minLength: 1, maxLength: 4 }),
      pipelineDashboardCommand: fc.array(argvWord, { minLength: 1, maxLength: 4 }),
      breaker: fc.record({ after: fc.integer({ min: 0, max: 100 }), backoffCap: fc.integer({ min: 1, max: 100 }) }),
      envAllow: fc.uniqueArray(fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,8}\*?$/), { maxLength: 4 }),
      repeat: fc.record({ all: repeatArb, immediate: repeatArb, advisory: repeatArb, normal: repeatArb }, { requiredKeys: [] }),
    },
    {
      requiredKeys: [
        'activeHours',
        'intervalMs',
        'expectedOrchestrators',
        'orchestratorPrefix',
        'gitStaleMs',
        'staleTaskMs',
        'orchIdleMs',
        'operatorIdleMs',
        'dedupWindowMs',
        'costAlertTokens',
        'actionableBudgetTokens',
        'alertInProgressChanged',
      ],
    },
  )
  .map((input) => heartbeatConfigSchema.parse(input));

function checkNeverThrows(text: string): void {
  const result = parseHeartbeatConfig(text, { file: 'HB.md' });
  if (result.isOk()) {
    expect(heartbeatConfigSchema.safeParse(result.value.config).success).toBe(true);
  } else {
    const line = formatHeartbeatConfigError(result.error);
    expect(line.startsWith(`HB.md:${result.error.line}: `)).toBe(true);
    expect(line).not.toContain('\n');
    expect(result.error.line).toBeGreaterThanOrEqual(1);
    expect(result.error.line).toBeLessThanOrEqual(text.split(/\r\n|\r|\n/).length);
  }
}

describe('parseHeartbeatConfig properties', () => {
  it('never throws on arbitrary text, and every error is located', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 300 }), checkNeverThrows), { numRuns: 500 });
  });

  it('never throws on structured but random markdown', () => {
    fc.assert(
      fc.property(fc.array(markdownLine, { maxLength: 40 }), fc.constantFrom('\n', '\r\n'), (lines, eol) =>
        checkNeverThrows(lines.join(eol)),
      ),
      { numRuns: 1000 },
    );
  });

  it('round-trips the defaults', () => {
    const parsed = parseHeartbeatConfig(renderHeartbeatMarkdown())._unsafeUnwrap();
    expect(parsed).toEqual({ config: DEFAULT_HEARTBEAT_CONFIG, found: true, warnings: [], presence: 'found', recognised: true });
  });

  it('round-trips any valid configuration through render and parse, without warnings', () => {
    fc.assert(
      fc.property(configArb, (config) => {
        const parsed = parseHeartbeatConfig(renderHeartbeatMarkdown(config))._unsafeUnwrap();
        expect(parsed.warnings).toEqual([]);
        expect(parsed.config).toEqual(config);
      }),
      { numRuns: 300 },
    );
  });

  it('a single wrong value in a rendered file is reported on its own line', () => {
    fc.assert(
      fc.property(
        configArb,
        fc.constantFrom(
          ['- Start:', '- Start: 24'],
          ['- Start:', '- Start: 08:60'],
          ['- End:', '- End: 25'],
          ['- Weekend:', '- Weekend: perhaps'],
          ['- Days:', '- Days: Funday'],
        ),
        (config, [prefix, replacement]) => {
          const lines = renderHeartbeatMarkdown(config).split('\n');
          // Days is a commented example when unset: the wrong value replaces it.
          const index = lines.findIndex((l) => l.startsWith(prefix) || l.startsWith(`<!-- ${prefix}`));
          lines[index] = replacement;
          const error = parseHeartbeatConfig(lines.join('\n'))._unsafeUnwrapErr();
          expect(error.line).toBe(index + 1);
        },
      ),
      { numRuns: 50 },
    );
  });
});

// The upstream keys that hold a duration, with the field and the unit their name gives a bare number.
const LEGACY_DURATION_KEYS = [
  ['heartbeat_interval', 'intervalMs', 's'],
  ['stale_threshold_hours', 'staleTaskMs', 'h'],
  ['idle_threshold_minutes', 'orchIdleMs', 'm'],
] as const satisfies readonly (readonly [string, keyof HeartbeatConfig, DurationUnit])[];

/** Values near a duration: numbers, units, joiners and the prose a condition would hold around them. */
const durationLikeText = fc
  .array(
    fc.constantFrom('2', '30', '1.5', '600', '0', 'h', 'hours', 'm', 'min', 'minutes', 's', 'seconds', 'd', 'and', ',', 'of', 'quiet'),
    { minLength: 1, maxLength: 6 },
  )
  .chain((parts) => fc.constantFrom(parts.join(' '), parts.join('')))
  .filter((text) => text.trim() !== '');

describe('old upstream duration keys (heartbeat_interval, stale_threshold_hours, idle_threshold_minutes)', () => {
  it('read any value exactly as parseDurationStrict does in the unit the key names, or fail naming the key and the fix', () => {
    fc.assert(
      fc.property(fc.constantFrom(...LEGACY_DURATION_KEYS), durationLikeText, ([key, field, unit], value) => {
        const parsed = parseHeartbeatConfig(`- ${key}: ${value}\n`, { file: 'HB.md' });
        const strict = parseDurationStrict(value.trim(), unit);
        if (strict.isOk()) {
          expect(parsed._unsafeUnwrap().config[field]).toBe(strict.value);
          return;
        }
        const error = parsed._unsafeUnwrapErr();
        expect(error).toMatchObject({ file: 'HB.md', line: 1, key, message: strict.error.message });
        expect(formatHeartbeatConfigError(error)).toMatch(new RegExp(`^HB\\.md:1: ${key}: ".*" .* Fix: write only a duration such as `));
      }),
      { numRuns: 1000 },
    );
  });

  it('a bare number is in the unit the key names; prose after a valid duration is an error, never ignored', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...LEGACY_DURATION_KEYS),
        fc.integer({ min: 1, max: 10_000 }),
        fc.constantFrom('with no commits', 'of quiet', 'or so', 'ago', '(default)'),
        ([key, field, unit], n, prose) => {
          const bare = parseHeartbeatConfig(`- ${key}: ${n}`)._unsafeUnwrap().config[field];
          expect(bare).toBe(parseDurationStrict(`${n}${unit}`)._unsafeUnwrap());
          const error = parseHeartbeatConfig(`- ${key}: ${formatDuration(bare)} ${prose}`)._unsafeUnwrapErr();
          expect(error).toMatchObject({ line: 1, key, message: `has "${prose}" after the duration.` });
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('Orchestrators → Expected names (issue 25 item 10c)', () => {
  const nameChar = fc.constantFrom(...'abcXYZ019-_. é`$;|&()<>\'":*/\\!#'.split(''));
  const item = fc.string({ unit: nameChar, minLength: 1, maxLength: 12 });
  it('every name kept is allowed and written in full on the line; every other non-empty item is one warning naming file:line, the key and the fix', () => {
    fc.assert(
      // An unterminated `<!--` hides the rest of the file, as in markdown: not this property's concern.
      fc.property(
        fc.array(item, { minLength: 1, maxLength: 5 }).filter((items) => !items.join(', ').includes('<!--')),
        (items) => {
          const line = `- Expected: ${items.join(', ')}`;
          const { config, warnings } = parseHeartbeatConfig(`## Orchestrators\n${line}\n`, { file: 'HB.md' })._unsafeUnwrap();
          for (const name of config.expectedOrchestrators) {
            expect(name).toMatch(/^[\p{L}\p{N}._-](?:[\p{L}\p{N} ._-]*[\p{L}\p{N}._-])?$/u);
            expect(line).toContain(name);
          }
          const expectedWarnings = warnings.filter((w) => w.includes('is not a tmux session name'));
          for (const warning of expectedWarnings)
            expect(warning).toMatch(
              /^HB\.md:2: Orchestrators → Expected: ".*" is not a tmux session name .* — ignored\. Fix: write the name as `tmux ls` shows it/,
            );
          // Each item is either kept (its markdown marks unwrapped) or named in a warning: nothing is cut or dropped in silence.
          for (const raw of items.join(', ').split(',')) {
            const core = raw.replace(/^[`*\s]+|[`*\s]+$/g, '');
            if (core === '') continue;
            const kept = config.expectedOrchestrators.includes(core);
            // As the warning quotes it: the item, less the marks that wrap the whole value or close a bold key.
            const item = raw.trim();
            // Every reading of the item less markdown marks (`, *, spaces) at its ends: a code span or emphasis
            // around the whole value or part of it is unwrapped before the name is judged (seeds found
            // "`*a`" → "*a" and "*a, 1`*" → "1`").
            const shown: string[] = [];
            const lead = /^[`*\s]*/.exec(item)?.[0].length ?? 0;
            const trail = /[`*\s]*$/.exec(item)?.[0].length ?? 0;
            for (let a = 0; a <= lead; a++) for (let b = 0; b <= trail; b++) shown.push(item.slice(a, item.length - b));
            const warned = expectedWarnings.some((w) => shown.some((x) => w.includes(`"${x}" is not`)));
            expect(kept || warned, raw).toBe(true);
          }
        },
      ),
      { numRuns: 1000, examples: [[['`*a`']], [['*a', '1`*']]] },
    );
  });
});
