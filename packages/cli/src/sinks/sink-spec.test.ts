import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSinkSpec } from './sink-spec.js';
import { splitCommand } from './split-command.js';

describe('splitCommand', () => {
  it('groups quotes and escapes but expands nothing', () => {
    expect(splitCommand(`notify "a b" 'c $HOME' d\\ e $(touch x)`)._unsafeUnwrap()).toEqual([
      'notify',
      'a b',
      'c $HOME',
      'd e',
      '$(touch',
      'x)',
    ]);
    expect(splitCommand('x "open').isErr()).toBe(true);
    expect(splitCommand('   ').isErr()).toBe(true);
  });

  it('never throws, and single-quoting any words round-trips them', () => {
    fc.assert(fc.property(fc.string(), (text) => typeof splitCommand(text).isOk() === 'boolean'));
    fc.assert(
      fc.property(
        fc.array(
          fc.string().filter((w) => !w.includes("'")),
          { minLength: 1, maxLength: 6 },
        ),
        (words) => {
          const split = splitCommand(words.map((w) => `'${w}'`).join(' '));
          return split.isOk() && JSON.stringify(split.value) === JSON.stringify(words);
        },
      ),
    );
  });
});

describe('parseSinkSpec', () => {
  it('accepts the four kinds and names the fix otherwise', () => {
    expect(parseSinkSpec('stdout')._unsafeUnwrap()).toEqual({ kind: 'stdout' });
    expect(parseSinkSpec('file:/tmp/x.jsonl')._unsafeUnwrap()).toEqual({ kind: 'file', path: '/tmp/x.jsonl' });
    expect(parseSinkSpec('webhook:https://example.invalid/h')._unsafeUnwrap()).toEqual({
      kind: 'webhook',
      url: 'https://example.invalid/h',
    });
    expect(parseSinkSpec('command:notify-send "Heart beat"')._unsafeUnwrap()).toEqual({
      kind: 'command',
      argv: ['notify-send', 'Heart beat'],
    });
    for (const bad of ['file:', 'webhook:nope', 'webhook:ftp://x/y', 'command:', 'pigeon']) {
      const e = parseSinkSpec(bad)._unsafeUnwrapErr();
      expect(e.kind).toBe('invalid-sink');
      expect(e.message).toMatch(/Fix:/);
    }
  });

  it('refuses a webhook URL that carries credentials, naming the Authorization-header fix, and never echoes them', () => {
    for (const url of ['https://user:pa55@hooks.example/x', 'https://hooks.example/x?token=t0k3n', 'https://hooks.example/x?api_key=k3y']) {
      const e = parseSinkSpec(`webhook:${url}`)._unsafeUnwrapErr();
      expect(e.message).toContain('--sink-auth-env');
      expect(e.message).not.toMatch(/pa55|t0k3n|k3y/);
    }
    expect(parseSinkSpec('webhook:https://hooks.example/x?channel=ops').isOk()).toBe(true);
  });

  it('tmux:SESSION[:WINDOW.PANE]: a checked session name and two numbers, else a fix', () => {
    expect(parseSinkSpec('tmux:agent')._unsafeUnwrap()).toEqual({ kind: 'tmux', session: 'agent' });
    expect(parseSinkSpec('tmux:orch-auth_2:1.3')._unsafeUnwrap()).toEqual({ kind: 'tmux', session: 'orch-auth_2', window: 1, pane: 3 });
    for (const bad of [
      'tmux:',
      'tmux:-t',
      'tmux:$(touch x)',
      'tmux:a b',
      'tmux:agent:1',
      'tmux:agent:x.y',
      'tmux:agent:1.2.3',
      'tmux:agent:',
    ]) {
      const e = parseSinkSpec(bad)._unsafeUnwrapErr();
      expect(e.message).toMatch(/^--sink tmux: .*Fix: --sink tmux:SESSION/);
    }
  });

  it('property: any tmux:… value is a checked target or a refusal, never a throw, never a name tmux would take as an option or pattern', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 120 }), (value) => {
        const parsed = parseSinkSpec(`tmux:${value}`);
        if (parsed.isErr()) return parsed.error.message.includes('Fix:');
        const spec = parsed.value;
        return spec.kind === 'tmux' && /^[A-Za-z0-9_][A-Za-z0-9_-]*$/.test(spec.session) && !/[*?[\]:.=]/.test(spec.session);
      }),
    );
  });
});
