import { describe, expect, it } from 'vitest';
import { readChecklistSettings, selectGate } from './checklist-env.js';

describe('selectGate (spec 003 selection table)', () => {
  it.each<[Record<string, string>, unknown]>([
    [{}, { kind: 'none', why: 'no-credentials' }],
    [
      { HEARTBEAT_CHECKLIST_GATE_SCRIPT: 'off', TYPESAFE_API_KEY: 'k' },
      { kind: 'none', why: 'off' },
    ],
    [
      { HEARTBEAT_CHECKLIST_GATE_SCRIPT: '', TYPESAFE_API_KEY: 'k' },
      { kind: 'none', why: 'empty' },
    ],
    [{ HEARTBEAT_CHECKLIST_GATE_SCRIPT: 'my-gate' }, { kind: 'script', script: 'my-gate' }],
    [{ TYPESAFE_API_KEY: 'k' }, { kind: 'default', provider: 'jev', credential: 'TYPESAFE_API_KEY' }],
    [{ OPENROUTER_API_KEY: 'k' }, { kind: 'default', provider: 'jev', credential: 'OPENROUTER_API_KEY' }],
    [
      { OPENROUTER_API_KEY: 'k', OPENROUTER_BASE_URL: 'https://gw.example' },
      { kind: 'none', why: 'no-credentials' },
    ],
    [{ CLOUDFLARE_API_TOKEN: 't' }, { kind: 'none', why: 'no-credentials' }],
    [
      { CLOUDFLARE_API_TOKEN: 't', CLOUDFLARE_ACCOUNT_ID: 'a' },
      { kind: 'default', provider: 'clef' },
    ],
    [
      { CLOUDFLARE_API_KEY: 't', CLOUDFLARE_ACCOUNT_ID: 'a' },
      { kind: 'default', provider: 'clef' },
    ],
    [
      { CLOUDFLARE_API_TOKEN: 't', CLOUDFLARE_ACCOUNT_ID: 'a', TYPESAFE_API_KEY: 'k' },
      { kind: 'default', provider: 'jev' },
    ],
    [
      { CLOUDFLARE_API_TOKEN: 't', CLOUDFLARE_ACCOUNT_ID: 'a', TYPESAFE_API_KEY: 'k', HEARTBEAT_JEV_GATE_PROVIDER: 'cloudflare' },
      { kind: 'default', provider: 'clef' },
    ],
    [{ TYPESAFE_API_KEY: '' }, { kind: 'none', why: 'no-credentials' }],
  ])('%j → %j', (env, expected) => {
    expect(selectGate(env)).toMatchObject(expected as object);
  });
});

describe('readChecklistSettings (server quirks)', () => {
  it.each([
    [undefined, 1_800_000],
    ['', 1_800_000],
    ['0', 1_800_000],
    ['abc', 1_800_000],
    ['-5', 1_800_000],
    ['60000', 60_000],
  ])('interval %j → %i', (v, ms) => {
    expect(readChecklistSettings(v === undefined ? {} : { HEARTBEAT_CHECKLIST_INTERVAL_MS: v }).intervalMs).toBe(ms);
  });
  it.each([
    [undefined, false],
    ['', false],
    ['0', true],
    ['false', true],
    ['1', true],
  ])('disable %j → %s', (v, disabled) => {
    expect(readChecklistSettings(v === undefined ? {} : { HEARTBEAT_CHECKLIST_DISABLE: v }).disabled).toBe(disabled);
  });
  it('mode defaults to shadow; an unknown value is shadow with a warning', () => {
    expect(readChecklistSettings({}).gateMode).toBe('shadow');
    expect(readChecklistSettings({ HEARTBEAT_CHECKLIST_GATE_MODE: 'enforce' }).gateMode).toBe('enforce');
    const s = readChecklistSettings({ HEARTBEAT_CHECKLIST_GATE_MODE: 'strict' });
    expect(s.gateMode).toBe('shadow');
    expect(s.warnings).toHaveLength(1);
  });
});
