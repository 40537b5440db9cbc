import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fixture } from '../../test/support/fixtures.js';
import { interpretListSessions, isNoTmuxServer, parseTmuxSessions, TMUX_SESSION_FIELDS, type TmuxSession } from './parse-list-sessions.js';

const out = (stdout: string, stderr: string, exitCode: number) => ({ stdout, stderr, exitCode, durationMs: 0 });

describe('parseTmuxSessions', () => {
  it('reads the real tab-separated capture (its own column order)', () => {
    const sessions = parseTmuxSessions(fixture('tmux', 'list-sessions-F-tabs.txt'), [
      'name',
      'activity',
      'created',
      'attached',
      'windows',
      'id',
    ])._unsafeUnwrap();
    expect(sessions).toEqual([
      { name: 'alpha', id: '$0', activity: 1795985301, created: 1795985301, attached: 0, windows: 1 },
      { name: 'beta two', id: '$1', activity: 1795985301, created: 1795985301, attached: 0, windows: 1 },
      { name: 'gamma', id: '$2', activity: 1795985301, created: 1795985301, attached: 0, windows: 2 },
    ]);
  });

  it('rejects the padded default form it must never parse', () => {
    expect(parseTmuxSessions(fixture('tmux', 'list-sessions-default.txt'))._unsafeUnwrapErr().kind).toBe('malformed-line');
    expect(parseTmuxSessions(fixture('tmux', 'list-sessions-F.txt'))._unsafeUnwrapErr().kind).toBe('malformed-line');
  });

  it('keeps tabs inside a name', () => {
    expect(parseTmuxSessions('a\tb\t$4\t1\t2\t0\t1\n')._unsafeUnwrap()[0]?.name).toBe('a\tb');
  });

  const sessionArb: fc.Arbitrary<TmuxSession> = fc.record({
    name: fc.string({ unit: fc.constantFrom('a', '-', ' ', '\t', '$', '(', ')', 'o', 'r', 'c', 'h', '\\', 'n', '.') }),
    id: fc.nat(999).map((n) => `$${n}`),
    activity: fc.option(fc.nat(), { nil: undefined }),
    created: fc.option(fc.nat(), { nil: undefined }),
    attached: fc.nat(9),
    windows: fc.nat(99),
  });

  it('round-trips generated sessions in any field order', () => {
    fc.assert(
      fc.property(
        fc.array(sessionArb, { maxLength: 6 }),
        fc.shuffledSubarray([...TMUX_SESSION_FIELDS], { minLength: 6, maxLength: 6 }),
        (sessions, fields) => {
          const text =
            sessions.map((s) => fields.map((f) => (s[f] === undefined ? '' : String(s[f]))).join('\t')).join('\n') +
            (sessions.length > 0 ? '\n' : '');
          expect(parseTmuxSessions(text, fields)._unsafeUnwrap()).toEqual(sessions);
        },
      ),
    );
  });

  it('never throws on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', '\t', '\n', '$', '1', ' ') }), (text) => {
        expect(() => parseTmuxSessions(text)).not.toThrow();
      }),
    );
  });
});

describe('interpretListSessions', () => {
  it.each(['list-sessions-no-server', 'list-sessions-F-no-server', 'list-sessions-stale-socket', 'list-sessions-stale-socket-kill9'])(
    'reads %s as zero sessions',
    (name) => {
      expect(interpretListSessions(out(fixture('tmux', `${name}.txt`), fixture('tmux', `${name}.stderr.txt`), 1))._unsafeUnwrap()).toEqual(
        [],
      );
    },
  );

  it('types other connect errors and unknown failures as errors, not as "empty"', () => {
    expect(isNoTmuxServer('error connecting to /tmp/tmux-0/x (Permission denied)\n')).toBe(false);
    expect(interpretListSessions(out('', 'error connecting to /tmp/tmux-0/x (Permission denied)\n', 1))._unsafeUnwrapErr().kind).toBe(
      'tmux-failed',
    );
    expect(interpretListSessions(out('', fixture('tmux', 'tmux-not-installed.stderr.txt'), 127))._unsafeUnwrapErr()).toMatchObject({
      kind: 'tmux-failed',
      exitCode: 127,
    });
  });
});
