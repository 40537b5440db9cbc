import { describe, expect, it } from 'vitest';
import { dispatchBreakerSettings, parsePersonaConfig, parseWoterclipConfig } from './woterclip-config.js';

const TEMPLATE = `version: 2
github:
  board_user: "octocat"
  repo: "owner/name"
heartbeat:
  max_issues_per_heartbeat: 2
  stale_lock_hours: 4
  quiet_hours:
    enabled: false
    timezone: "America/Los_Angeles"
    start: "22:00"
    end: "07:00"
    behavior: "skip"
  cooldown:
    max_consecutive_failures: 3
    backoff_multiplier: 2
labels:
  working: "agent-working"
  blocked: "agent-blocked"
personas:
  orchestrator: {path: "personas/orchestrator", label: null, is_default: true}
  ceo:          {path: "personas/ceo", label: "ceo"}
  backend:      {path: "personas/backend", label: "backend"}
  frontend:     {path: "personas/frontend", label: "frontend"}
`;

describe('parseWoterclipConfig', () => {
  it('accepts the reference template and fills the defaults (ceiling 1200 s)', () => {
    const config = parseWoterclipConfig(TEMPLATE)._unsafeUnwrap();
    expect(config.heartbeat.time_ceiling_sec).toBe(1200);
    expect(config.personas.orchestrator).toEqual({ path: 'personas/orchestrator', label: null, is_default: true });
    expect(config.dispatch.command[0]).toBe('claude');
  });

  it('quiet hours take H:MM, 24:00 and days (issue 15 item 7)', () => {
    const config = parseWoterclipConfig(
      TEMPLATE.replace('"22:00"', '"0:00"')
        .replace('"07:00"', '"24:00"')
        .replace('behavior: "skip"', 'days: "Sat, Sun"\n    behavior: "skip"'),
    )._unsafeUnwrap();
    expect(config.heartbeat.quiet_hours).toMatchObject({ start: '00:00', end: '24:00', days: ['Sat', 'Sun'] });
    expect(parseWoterclipConfig(TEMPLATE)._unsafeUnwrap().heartbeat.quiet_hours.days).toBeUndefined();
  });

  it('missing file: tells the user to run init', () => {
    const e = parseWoterclipConfig(undefined)._unsafeUnwrapErr();
    expect(e.kind).toBe('config-missing');
    expect(e.message).toContain('heartbeat-kit woterclip init');
  });

  it.each([
    [TEMPLATE.replace('"owner/name"', '"{{REPO}}"'), 'github.repo', 'placeholder'],
    [TEMPLATE.replace('version: 2', 'version: 1'), 'version', 'migrate'],
    [TEMPLATE.replace('"America/Los_Angeles"', '"Mars/Olympus"'), 'heartbeat.quiet_hours.timezone', 'IANA'],
    [TEMPLATE.replace('"22:00"', '"25:00"'), 'heartbeat.quiet_hours.start', 'HH:MM'],
    [TEMPLATE.replace('"07:00"', '"08:60"'), 'heartbeat.quiet_hours.end', 'minutes go 00–59; write a time HH:MM'],
    [
      TEMPLATE.replace('behavior: "skip"', 'days: "Funday"\n    behavior: "skip"'),
      'heartbeat.quiet_hours.days',
      '"Funday" holds "Funday", which is not a day of the week; write days such as Mon-Fri',
    ],
    [TEMPLATE.replace('"skip"', '"nap"'), 'heartbeat.quiet_hours.behavior', 'allowed values'],
    [TEMPLATE.replace('labels:', 'lables: {}\nlabels:'), '(root).lables', 'remove the key'],
    [TEMPLATE.replace('"personas/ceo"', '"../../etc"'), 'personas.ceo.path', 'inside .woterclip'],
  ])('names the file, the key and the fix (%#)', (text, key, hint) => {
    const e = parseWoterclipConfig(text)._unsafeUnwrapErr();
    expect(e.kind).toBe('config-invalid');
    expect(e.message).toContain('.woterclip/config.yaml');
    expect(e.key).toBe(key === '(root).lables' ? 'lables' : key);
    expect(e.message).toContain(hint);
  });

  it('bad YAML is an error, not a crash', () => {
    expect(parseWoterclipConfig('version: [2\n')._unsafeUnwrapErr().message).toMatch(/not valid YAML/);
  });

  it('persona config: defaults and errors naming the persona file', () => {
    expect(parsePersonaConfig('runtime: {model: opus}\n', 'p.yaml')._unsafeUnwrap().required_tools).toEqual(['gh']);
    const e = parsePersonaConfig('runtime: {max_turns: -1}\n', '.woterclip/personas/backend/config.yaml')._unsafeUnwrapErr();
    expect(e.message).toMatch(/^\.woterclip\/personas\/backend\/config\.yaml: key "runtime\.max_turns"/);
  });

  it('a model name that would read as an option in the agent command is refused', () => {
    expect(parsePersonaConfig('runtime: {model: "claude-opus-4.1"}\n', 'p.yaml')._unsafeUnwrap().runtime.model).toBe('claude-opus-4.1');
    expect(parsePersonaConfig('runtime: {model: "--dangerously-skip-permissions"}\n', 'p.yaml')._unsafeUnwrapErr().message).toMatch(
      /key "runtime\.model"/,
    );
    const base = 'version: 2\ngithub: {board_user: octocat, repo: o/r}\npersonas:\n  dev: {path: personas/dev, is_default: true}\n';
    expect(parseWoterclipConfig(`${base}dispatch: {fallback: {model: "-x"}}\n`)._unsafeUnwrapErr().message).toMatch(
      /key "dispatch\.fallback\.model"/,
    );
    expect(parseWoterclipConfig(`${base}dispatch: {fallback: {model: session}}\n`).isOk()).toBe(true);
  });

  it('environment.allow (hardened mode) takes variable names and PREFIX*; anything else names the key', () => {
    const base = 'version: 2\ngithub: {board_user: octocat, repo: o/r}\npersonas:\n  dev: {path: personas/dev, is_default: true}\n';
    expect(parseWoterclipConfig(`${base}environment: {allow: [GH_TOKEN, 'ANTHROPIC_*']}\n`)._unsafeUnwrap().environment?.allow).toEqual([
      'GH_TOKEN',
      'ANTHROPIC_*',
    ]);
    expect(parseWoterclipConfig(base)._unsafeUnwrap().environment).toBeUndefined();
    expect(parseWoterclipConfig(`${base}environment: {allow: ['$(id)']}\n`)._unsafeUnwrapErr().message).toMatch(
      /key "environment\.allow\.0"/,
    );
  });

  it('dispatch.breaker (issue 15 item 5): defaults 3/8, configured values in core form, bad values name the file, key and fix', () => {
    const base = 'version: 2\ngithub: {board_user: octocat, repo: o/r}\npersonas:\n  dev: {path: personas/dev, is_default: true}\n';
    expect(dispatchBreakerSettings(parseWoterclipConfig(base)._unsafeUnwrap())).toEqual({ after: 3, backoffCap: 8 });
    const configured = parseWoterclipConfig(`${base}dispatch: {breaker: {after: 2, backoff_cap: 4}}\n`)._unsafeUnwrap();
    expect(dispatchBreakerSettings(configured)).toEqual({ after: 2, backoffCap: 4 });
    expect(dispatchBreakerSettings(parseWoterclipConfig(`${base}dispatch: {breaker: {after: 0}}\n`)._unsafeUnwrap())).toEqual({
      after: 0,
      backoffCap: 8,
    });
    for (const [yaml, key, fix] of [
      ['{after: -1}', 'dispatch.breaker.after', 'use a larger value'],
      ['{after: 2.5}', 'dispatch.breaker.after', 'set it to the expected type'],
      ['{backoff_cap: 0}', 'dispatch.breaker.backoff_cap', 'use a larger value'],
      ['{after: 101}', 'dispatch.breaker.after', 'use a smaller value'],
      ['{backoffCap: 4}', 'dispatch.breaker.backoffCap', 'remove the key or check its spelling'],
    ] as const) {
      const e = parseWoterclipConfig(`${base}dispatch: {breaker: ${yaml}}\n`)._unsafeUnwrapErr();
      expect(e.kind).toBe('config-invalid');
      expect(e.key).toBe(key);
      expect(e.message).toMatch(new RegExp(`^\\.woterclip/config\\.yaml: key "${key.replace(/\./g, '\\.')}" .*; ${fix}\\.$`));
    }
  });
});
