import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeCommandError } from '../command/describe-command-error.js';
import { OUTSIDE_ACTIVE_HOURS_REASON, scanOk, type ScanResult } from '../domain/scan-result.js';
import { cutOffScanners, formatScanProblems, scanProblems } from './scan-problems.js';

describe('scanProblems', () => {
  it('lists every scanner that could not look, with a fix; skips outside active hours are by design', () => {
    const results: ScanResult[] = [
      scanOk('beads', {}),
      { scanner: 'pipelines', status: 'skipped', reason: OUTSIDE_ACTIVE_HOURS_REASON, durationMs: 0 },
      { scanner: 'gchat', status: 'skipped', reason: 'no poll command configured', fix: 'add the script', durationMs: 0 },
      { scanner: 'mail', status: 'skipped', reason: 'not set up', configured: false, durationMs: 0 },
      { scanner: 'orchestrators', status: 'skipped', reason: 'tmux not found on PATH', configured: true, durationMs: 0 },
      { scanner: 'git', status: 'error', error: 'git status exited 128', durationMs: 0 },
      { scanner: 'stale-tasks', status: 'timeout', timeoutMs: 30_000, durationMs: 30_000 },
      scanOk('idle-orchestrators', { warnings: [{ code: 'PANE_CAPTURE_FAILED', message: 'orch-a: no pane' }] }),
    ];
    const problems = scanProblems(results);
    expect(problems.map((p) => [p.scanner, p.kind, p.severity])).toEqual([
      ['gchat', 'skipped', 'notice'],
      ['mail', 'skipped', 'unused'],
      ['orchestrators', 'skipped', 'warning'],
      ['git', 'failed', 'warning'],
      ['stale-tasks', 'timed-out', 'warning'],
      ['idle-orchestrators', 'degraded', 'warning'],
    ]);
    expect(problems[2]?.fix).toBe('install tmux or put it on the PATH heartbeat-kit runs with');
    expect(formatScanProblems(problems)[0]).toBe('gchat skipped: no poll command configured; fix: add the script');
    expect(formatScanProblems(problems)).toHaveLength(5); // the unused one is JSON-only
    expect(formatScanProblems(problems)[4]).toBe(
      'warning: idle-orchestrators: orch-a: no pane; fix: see the message; the rest of the scanner ran',
    );
  });

  it('one cause that stops several scanners is one line', () => {
    const skip = (scanner: string): ScanResult => ({
      scanner,
      status: 'skipped',
      reason: 'no beads database found',
      fix: "run 'bd init'",
      durationMs: 0,
    });
    expect(formatScanProblems(scanProblems([skip('beads'), skip('orchestrators'), skip('stale-tasks')]))).toEqual([
      "beads, orchestrators, stale-tasks skipped: no beads database found; fix: run 'bd init'",
    ]);
  });

  it('a tool call a signal cut off (aborted or killed) is cut-off, any other runner failure is not (property)', () => {
    const kinds = fc.oneof(
      fc.record({ kind: fc.constant('aborted' as const), file: fc.constantFrom('bd', 'git', 'tmux') }),
      fc.record({
        kind: fc.constant('killed' as const),
        file: fc.constantFrom('bd', 'python3'),
        signal: fc.constantFrom('SIGTERM', 'SIGINT', 'SIGKILL', 'SIGHUP'),
      }),
      fc.record({
        kind: fc.constant('timeout' as const),
        file: fc.constant('bd'),
        timeoutMs: fc.nat(),
        stdout: fc.constant(''),
        stderr: fc.constant(''),
      }),
      fc.record({ kind: fc.constant('not-found' as const), file: fc.constant('bd'), message: fc.string() }),
      fc.record({ kind: fc.constant('spawn-failed' as const), file: fc.constant('bd'), message: fc.string() }),
    );
    fc.assert(
      fc.property(kinds, fc.boolean(), (error, asWarning) => {
        const text = describeCommandError(error);
        const result: ScanResult = asWarning
          ? scanOk('gchat', { warnings: [{ code: 'X', message: text }] })
          : { scanner: 'beads', status: 'error', error: text, durationMs: 0 };
        const interrupted = error.kind === 'aborted' || error.kind === 'killed';
        expect(cutOffScanners(scanProblems([result]))).toEqual(interrupted ? [result.scanner] : []);
      }),
    );
  });
});
