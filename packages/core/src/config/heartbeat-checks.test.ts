import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatHeartbeatConfigError, parseHeartbeatConfig } from './heartbeat-markdown-parser.js';
import { parseArgvList } from './heartbeat-check-readers.js';
import { checkCategoryOf, checkDueAtMs, isCheckDue } from './check-schema.js';
import { heartbeatConfigJsonSchema } from './heartbeat-config-json-schema.js';
import { heartbeatConfigSchema } from './heartbeat-config-schema.js';
import { renderHeartbeatMarkdown } from './heartbeat-markdown-renderer.js';
import { BUILTIN_SCANNERS, DEFAULT_CATEGORIES } from '../../test/support/cobuilder-categories.js';

const FOUR = `# Heartbeat
## Checks
- name: disk
  - run: [df, --output=pcent, /]
  - every: 30m
  - timeout: 5s
  - priority: Immediate
  - outside-hours: run
  - confirm: 2
  - repeat: 1h, 4h
- name: ci-main
  - run: ["gh", "run", "list", "--branch", "main", "--json", "conclusion,url"]
  - every: 3 cycles
  - category: CI_FAILED
  - cwd: services/api
  - env allow: GH_TOKEN, GH_HOST
  - env deny: AWS_*
- name: staging
  - run: curl -fsS "http://127.0.0.1:8080/health" | grep -q ok
  - shell: true
`;

function parseError(text: string) {
  const parsed = parseHeartbeatConfig(text, { file: 'HB.md', categories: DEFAULT_CATEGORIES, scanners: BUILTIN_SCANNERS });
  if (parsed.isOk()) throw new Error(`expected an error, got ${JSON.stringify(parsed.value.config.checks)}`);
  return parsed.error;
}

describe('## Checks in HEARTBEAT.md', () => {
  it('reads each check with its keys, defaults filled in', () => {
    const parsed = parseHeartbeatConfig(FOUR)._unsafeUnwrap();
    expect(parsed.warnings).toEqual([]);
    const [disk, ci, staging] = parsed.config.checks;
    expect(disk).toEqual({
      name: 'disk',
      run: ['df', '--output=pcent', '/'],
      shell: false,
      every: { ms: 30 * 60_000 },
      timeoutMs: 5_000,
      priority: 'Immediate',
      outsideHours: 'run',
      confirm: 2,
      repeat: [3_600_000, 4 * 3_600_000],
    });
    expect(ci).toMatchObject({
      run: ['gh', 'run', 'list', '--branch', 'main', '--json', 'conclusion,url'],
      every: { cycles: 3 },
      category: 'CI_FAILED',
      cwd: 'services/api',
      env: { allow: ['GH_TOKEN', 'GH_HOST'], deny: ['AWS_*'] },
      priority: 'Normal',
      timeoutMs: 10_000,
      outsideHours: 'skip',
      confirm: 1,
    });
    expect(staging).toMatchObject({ run: 'curl -fsS "http://127.0.0.1:8080/health" | grep -q ok', shell: true, every: { cycles: 1 } });
    expect(checkCategoryOf(disk!)).toBe('CHECK_DISK');
    expect(checkCategoryOf(ci!)).toBe('CI_FAILED');
  });

  it('refuses a run that is not an argv list without shell: true, naming file, line, key and fix', () => {
    const e = parseError('## Checks\n- name: up\n- run: curl -fsS http://x | grep ok\n');
    expect(e).toMatchObject({ file: 'HB.md', line: 3, key: 'Checks → up → run' });
    expect(formatHeartbeatConfigError(e)).toMatch(
      /HB\.md:3: Checks → up → run: "curl -fsS http:\/\/x \| grep ok" is a shell string.*Fix: write an argv list.*shell: true/,
    );
  });

  it('refuses a check named like a built-in scanner', () => {
    const e = parseError('## Checks\n- name: git\n- run: [true]\n');
    expect(e).toMatchObject({ line: 2, key: 'Checks → git → name' });
    expect(e.message).toMatch(/built-in scanner/);
    expect(e.fix).toMatch(/git-check/);
  });

  it('refuses duplicate names, on the second one’s line', () => {
    const e = parseError('## Checks\n- name: a\n- run: [true]\n- name: a\n- run: [false]\n');
    expect(e).toMatchObject({ line: 4, key: 'Checks → a → name' });
    expect(e.fix).toMatch(/its own name/);
  });

  it('refuses a check without run, a key before any name, and bad values, each with a fix', () => {
    expect(parseError('## Checks\n- name: a\n- every: 2 cycles\n')).toMatchObject({ line: 2, key: 'Checks → a → run' });
    const early = parseError('## Checks\n- run: [true]\n');
    expect(early.line).toBe(2);
    expect(early.fix).toMatch(/- name: NAME/);
    expect(parseError('## Checks\n- name: Disk!\n')).toMatchObject({ line: 2, key: 'Checks → name' });
    const slow = parseError('## Checks\n- name: a\n- run: [x]\n- timeout: 60s\n');
    expect(slow.line).toBe(4);
    expect(slow.fix).toMatch(/25 seconds/);
    expect(parseError('## Checks\n- name: a\n- run: [x]\n- priority: urgent\n').fix).toMatch(/Immediate, Advisory or Normal/);
    expect(parseError('## Checks\n- name: a\n- run: [x]\n- category: GIT_STALE\n').message).toMatch(/built-in category/);
    expect(parseError('## Checks\n- name: a\n- run: [--version]\n').message).toMatch(/an option, not a program/);
    expect(parseError('## Checks\n- name: a\n- run: [x]\n- env allow: 1BAD\n').line).toBe(4);
  });

  it('reads argv lists: unquoted, quoted (commas inside), JSON', () => {
    expect(parseArgvList('[df, --output=pcent, /]')).toEqual(['df', '--output=pcent', '/']);
    expect(parseArgvList(`[gh, pr, list, --json, "number,title", 'a ]b']`)).toEqual(['gh', 'pr', 'list', '--json', 'number,title', 'a ]b']);
    expect(parseArgvList('["a", "b c"]')).toEqual(['a', 'b c']);
    expect(parseArgvList('df -h')).toBe('df -h');
  });

  it('never throws on any text under ## Checks (property)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(fc.constantFrom('name', 'run', 'every', 'timeout', 'shell', 'confirm', 'repeat', 'env allow', 'priority'), fc.string()),
          { maxLength: 8 },
        ),
        (items) => {
          const text = `## Checks\n${items.map(([k, v]) => `- ${k}: ${v.replace(/\n/g, ' ')}`).join('\n')}\n`;
          const parsed = parseHeartbeatConfig(text);
          if (parsed.isErr()) expect(parsed.error.line).toBeGreaterThanOrEqual(1);
        },
      ),
    );
  });

  it('reads back any argv list it is given in JSON form (property)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.string({ minLength: 1 }).filter((w) => !w.startsWith('-')),
          { minLength: 1, maxLength: 6 },
        ),
        (words) => {
          expect(parseArgvList(JSON.stringify(words))).toEqual(words);
        },
      ),
    );
  });

  it('decides cadence from the last run: every N cycles with half an interval of slack, a clock set back runs it', () => {
    const interval = 600_000;
    const every3 = { every: { cycles: 3 } } as const;
    expect(isCheckDue(every3, undefined, 0, interval)).toBe(true);
    expect(isCheckDue(every3, 0, 2 * interval, interval)).toBe(false);
    expect(isCheckDue(every3, 0, 3 * interval - 1_000, interval)).toBe(true);
    expect(isCheckDue(every3, 10_000, 0, interval)).toBe(true);
    expect(checkDueAtMs(every3, 0, interval, interval)).toBe(2.5 * interval);
    // Every cycle is every cycle, however close together cycles are started.
    expect(isCheckDue({ every: { cycles: 1 } }, 0, 1, interval)).toBe(true);
    expect(isCheckDue({ every: { ms: 3_600_000 } }, 0, 3_600_000 - interval, interval)).toBe(false);
    expect(isCheckDue({ every: { ms: 3_600_000 } }, 0, 3_600_000 - interval / 2, interval)).toBe(true);
  });

  it('puts checks in the JSON schema', () => {
    const schema = JSON.stringify(heartbeatConfigJsonSchema());
    expect(schema).toContain('"checks"');
    expect(schema).toContain('outsideHours');
  });

  it('round-trips any valid set of checks through render and parse (property)', () => {
    const word = fc.stringMatching(/^[a-zA-Z0-9_.,/=:"' -]{1,12}$/);
    const check = fc.record(
      {
        name: fc
          .stringMatching(/^[a-z][a-z0-9-]{0,10}$/)
          .filter((n) => !['git', 'beads', 'gchat', 'pipelines', 'orchestrators'].includes(n)),
        run: fc.oneof(
          fc
            .array(word, { minLength: 1, maxLength: 4 })
            .filter((w) => !w[0]!.startsWith('-') && w.every((x) => x.trim() === x && x !== '')),
          fc.constant('df -h | tail -1'),
        ),
        every: fc.oneof(
          fc.record({ cycles: fc.integer({ min: 1, max: 1000 }) }),
          fc.record({ ms: fc.integer({ min: 1, max: 100 }).map((m) => m * 60_000) }),
        ),
        timeoutMs: fc.integer({ min: 1, max: 25 }).map((s) => s * 1000),
        priority: fc.constantFrom('Immediate' as const, 'Advisory' as const, 'Normal' as const),
        outsideHours: fc.constantFrom('run' as const, 'skip' as const),
        cwd: fc.constantFrom('services/api', 'tools'),
        env: fc.constantFrom({ allow: ['GH_TOKEN', 'XDG_*'] }, { deny: ['AWS_*'] }, { allow: ['A'], deny: ['B*'] }),
        confirm: fc.integer({ min: 1, max: 100 }),
        repeat: fc.constant([3_600_000, 4 * 3_600_000]),
      },
      { requiredKeys: ['name', 'run'] },
    );
    fc.assert(
      fc.property(fc.uniqueArray(check, { selector: (c) => c.name, maxLength: 4 }), (checks) => {
        const withShell = checks.map((c) => ({ ...c, shell: typeof c.run === 'string' }));
        const parsedConfig = heartbeatConfigSchema.safeParse({ checks: withShell });
        fc.pre(parsedConfig.success);
        const config = parsedConfig.data;
        const back = parseHeartbeatConfig(renderHeartbeatMarkdown(config))._unsafeUnwrap();
        expect(back.config.checks).toEqual(config.checks);
        expect(back.warnings).toEqual([]);
      }),
    );
  });
});
