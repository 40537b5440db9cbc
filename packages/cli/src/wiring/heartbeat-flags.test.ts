import { describe, expect, it } from 'vitest';
import { checkHeartbeatFlags } from './heartbeat-flags.js';

const hook = 'webhook:https://example.test/hook';

describe('checkHeartbeatFlags', () => {
  it('takes no flags as stdout with nothing else set', () => {
    expect(checkHeartbeatFlags({}, {})._unsafeUnwrap()).toEqual({
      sinkFlag: undefined,
      authorization: undefined,
      sameOriginRedirects: false,
      socket: undefined,
      envAllow: undefined,
    });
  });

  it('reads the webhook header from the variable --sink-auth-env names', () => {
    const flags = checkHeartbeatFlags(
      { sink: hook, 'sink-auth-env': 'HOOK_AUTH', 'sink-same-origin-redirects': true, 'tmux-socket': 'work', 'env-allow': 'A,B' },
      { HOOK_AUTH: 'Bearer x' },
    )._unsafeUnwrap();
    expect(flags).toEqual({
      sinkFlag: { kind: 'webhook', url: 'https://example.test/hook' },
      authorization: 'Bearer x',
      sameOriginRedirects: true,
      socket: 'work',
      envAllow: ['A', 'B'],
    });
  });

  it('refuses webhook-only flags without a webhook sink, and a bad or unset variable', () => {
    expect(checkHeartbeatFlags({ 'sink-auth-env': 'HOOK_AUTH' }, { HOOK_AUTH: 'x' })._unsafeUnwrapErr()).toMatch(
      /^--sink-auth-env only applies to --sink webhook:URL/,
    );
    expect(checkHeartbeatFlags({ 'sink-same-origin-redirects': true }, {})._unsafeUnwrapErr()).toMatch(
      /^--sink-same-origin-redirects only applies to --sink webhook:URL/,
    );
    expect(checkHeartbeatFlags({ sink: hook, 'sink-auth-env': '1BAD' }, {})._unsafeUnwrapErr()).toMatch(
      /is not an environment variable name/,
    );
    expect(checkHeartbeatFlags({ sink: hook, 'sink-auth-env': 'HOOK_AUTH' }, { HOOK_AUTH: '' })._unsafeUnwrapErr()).toMatch(
      /the variable is not set/,
    );
  });

  it('reports the first mistake in the order the flags are read: sink, route, auth, redirects, socket, env-allow', () => {
    const all = {
      sink: 'nope:x',
      route: ['bad'],
      'sink-auth-env': 'X',
      'sink-same-origin-redirects': true,
      'tmux-socket': '../s',
      'env-allow': '1BAD',
    };
    expect(checkHeartbeatFlags(all, {})._unsafeUnwrapErr()).toMatch(/^unknown --sink "nope:x"/);
    expect(checkHeartbeatFlags({ ...all, sink: undefined }, {})._unsafeUnwrapErr()).toMatch(/^--route "bad"/);
    expect(checkHeartbeatFlags({ ...all, sink: undefined, route: [] }, {})._unsafeUnwrapErr()).toMatch(/^--sink-auth-env/);
    const noAuth = { ...all, sink: undefined, route: [], 'sink-auth-env': undefined };
    expect(checkHeartbeatFlags(noAuth, {})._unsafeUnwrapErr()).toMatch(/^--sink-same-origin-redirects/);
    const noRedirects = { ...noAuth, 'sink-same-origin-redirects': false };
    expect(checkHeartbeatFlags(noRedirects, {})._unsafeUnwrapErr()).toMatch(/^--tmux-socket "\.\.\/s" is not a socket name/);
    expect(checkHeartbeatFlags({ ...noRedirects, 'tmux-socket': 'ok' }, {})._unsafeUnwrapErr()).toMatch(/^--env-allow/);
  });
});
