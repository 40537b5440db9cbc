import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_TMUX_SINK_SETTINGS, tmuxSinkSettings } from './tmux-sink-settings.js';

describe('tmuxSinkSettings', () => {
  it('defaults to 2 s and the Claude Code / Codex prompt; reads both variables', () => {
    expect(tmuxSinkSettings({})._unsafeUnwrap().idleMs).toBe(DEFAULT_TMUX_SINK_SETTINGS.idleMs);
    const set = tmuxSinkSettings({ HEARTBEAT_TMUX_IDLE_SECONDS: '0.5', HEARTBEAT_TMUX_PROMPT: 'agent\\$ ' })._unsafeUnwrap();
    expect(set.idleMs).toBe(500);
    expect(set.prompt.test('agent$ ')).toBe(true);
    expect(set.prompt.test('xagent$ ')).toBe(false);
  });

  it('refuses a bad number or a pattern that is invalid, too long or matches an empty line, naming the variable and the fix', () => {
    for (const env of [
      { HEARTBEAT_TMUX_IDLE_SECONDS: '-1' },
      { HEARTBEAT_TMUX_IDLE_SECONDS: '601' },
      { HEARTBEAT_TMUX_IDLE_SECONDS: 'soon' },
      { HEARTBEAT_TMUX_IDLE_SECONDS: '1e3' },
      { HEARTBEAT_TMUX_PROMPT: '(' },
      { HEARTBEAT_TMUX_PROMPT: '\\s*' },
      { HEARTBEAT_TMUX_PROMPT: 'x'.repeat(301) },
    ]) {
      const e = tmuxSinkSettings(env)._unsafeUnwrapErr();
      expect(e).toMatch(new RegExp(`^${Object.keys(env)[0]}=.*Fix:`));
    }
  });

  it('property: never throws on any value', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (idle, prompt) => {
        const r = tmuxSinkSettings({ HEARTBEAT_TMUX_IDLE_SECONDS: idle, HEARTBEAT_TMUX_PROMPT: prompt });
        return r.isOk() ? r.value.idleMs >= 0 && r.value.idleMs <= 600_000 && !r.value.prompt.test('') : r.error.includes('Fix:');
      }),
    );
  });
});
