import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENV_DENY_LIST, inferToolProfile, TOOL_ENV_DEFAULTS, TOOL_PROFILES } from './child-environment.js';

const doc = readFileSync(join(import.meta.dirname, '../../../../docs/environment.md'), 'utf8');

describe('docs/environment.md follows the code', () => {
  it('lists every deny-list entry', () => {
    for (const rule of ENV_DENY_LIST) expect(doc, rule.pattern).toContain(`\`${rule.pattern}\``);
  });

  it('lists every profile’s quiet defaults', () => {
    for (const profile of TOOL_PROFILES) {
      for (const [name, value] of Object.entries(TOOL_ENV_DEFAULTS[profile]))
        expect(doc, `${profile} ${name}`).toContain(`\`${name}=${value}\``);
    }
  });
});

describe('inferToolProfile', () => {
  it('knows bd, git, tmux and gh by name, wherever they live; anything else is a command', () => {
    expect(inferToolProfile('/usr/local/bin/bd')).toBe('bd');
    expect(inferToolProfile('git')).toBe('git');
    expect(inferToolProfile('C:\\tools\\gh.exe')).toBe('gh');
    expect(inferToolProfile('python3')).toBe('command');
    expect(inferToolProfile('bd-wrapper')).toBe('command');
  });
});
