import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { printInfo, withJsonStderr } from './errors.js';
import type { CliIo } from './io.js';

/** An io whose stderr is collected, wrapped as `main` wraps it for `--json`. */
function jsonIo(): { io: CliIo; lines: () => Record<string, unknown>[] } {
  let err = '';
  const base: CliIo = {
    stdout: () => undefined,
    stderr: (t) => void (err += t),
    cwd: '/',
    env: {},
    shutdownSignal: new AbortController().signal,
  };
  return {
    io: withJsonStderr(base, 'cycle'),
    lines: () =>
      err
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

const lineArb = fc.string({ maxLength: 80 }).filter((s) => !s.includes('\n') && s.trim() !== '' && !s.startsWith('{'));

describe('--json stderr kinds (issue 25 item 10a)', () => {
  it('an informational line is {"info": …}, never {"error": …}; a "warning:" line is a warning; any other line stays an error (property)', () => {
    fc.assert(
      fc.property(lineArb, fc.constantFrom('info', 'warning', 'error'), (text, kind) => {
        const { io, lines } = jsonIo();
        const line = `heartbeat-kit cycle: ${kind === 'warning' ? 'warning: ' : ''}${text}\n`;
        if (kind === 'info') printInfo(io, line);
        else io.stderr(line);
        const [object] = lines();
        expect(Object.keys(object!).filter((k) => k === 'info' || k === 'warning' || k === 'error')).toEqual([kind]);
        expect(object!.command).toBe('cycle');
      }),
      { numRuns: 500 },
    );
  });

  it('labels the lines the CLI prints as they are meant', () => {
    const { io, lines } = jsonIo();
    printInfo(io, 'heartbeat-kit cycle: took over /r/.git/heartbeat-kit/cycle.lock from pid 7 on h, holding it for 3 s (stale).\n');
    io.stderr('heartbeat-kit fleet worker: warning: cannot reach Redis at redis://127.0.0.1:1 (attempt 1): refused; retrying in 1s\n');
    io.stderr(
      'runbook.md:9: warning: line 9 (Watch Items): "delete 10-20" is read as a bare check date\nrunbook.md:3: error: line 3 (Watch Items): no lift trigger\n',
    );
    io.stderr('heartbeat-kit cycle: cannot take the cycle lock: EACCES. Fix: check that /r is writable.\n');
    expect(lines()).toEqual([
      { info: 'took over /r/.git/heartbeat-kit/cycle.lock from pid 7 on h, holding it for 3 s (stale).', command: 'cycle' },
      { warning: 'cannot reach Redis at redis://127.0.0.1:1 (attempt 1): refused; retrying in 1s', command: 'fleet worker' },
      { warning: 'runbook.md:9: line 9 (Watch Items): "delete 10-20" is read as a bare check date', command: 'cycle' },
      { error: 'runbook.md:3: line 3 (Watch Items): no lift trigger', command: 'cycle' },
      { error: 'cannot take the cycle lock: EACCES.', command: 'cycle', fix: 'check that /r is writable.' },
    ]);
  });

  it('without --json an informational line is written to stderr as it is', () => {
    let err = '';
    printInfo(
      { stdout: () => undefined, stderr: (t) => void (err += t), cwd: '/', env: {}, shutdownSignal: new AbortController().signal },
      'heartbeat-kit loop: x\n',
    );
    expect(err).toBe('heartbeat-kit loop: x\n');
  });
});
