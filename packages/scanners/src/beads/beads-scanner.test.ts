import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fixture } from '../../test/support/fixtures.js';
import { makeContext, notFound, scriptedRunner } from '../../test/support/context.js';
import { createBeadsScanner, readyBeadFindings } from './beads-scanner.js';
import { createBeadsSource } from './beads-source.js';
import type { Bead, BeadPriority } from './bead.js';

const scannerWith = (routes: Parameters<typeof scriptedRunner>[0]) => {
  const runner = scriptedRunner(routes);
  return { runner, scanner: createBeadsScanner({ source: createBeadsSource({ runner, cwd: '/proj' }) }) };
};

describe('beads scanner', () => {
  it('turns bd ready --json into one finding per bead, by priority', async () => {
    const { runner, scanner } = scannerWith([[/^bd ready --json$/, { stdout: fixture('beads', 'ready.json') }]]);
    const result = await scanner.scan(makeContext());
    expect(result.status).toBe('ok');
    if (result.status !== 'ok') return;
    expect(result.findings.map((f) => [f.category, f.subject])).toEqual([
      ['P0_WORK_READY', 'bd-k2m9'],
      ['P1_WORK_READY', 'bd-a3f8'],
      ['P1_WORK_READY', 'bd-a3f8.1'],
    ]);
    expect(result.findings[1]).toMatchObject({
      line: "P1 READY: bd-a3f8 'Auth overhaul'",
      action: 'Assign bd-a3f8 to existing or new orchestrator',
      short: 'Auth overhaul ready',
      fingerprint: 'P1_WORK_READY:bd-a3f8',
      priority: 'Immediate',
    });
    expect(runner.calls[0]).toMatchObject({ file: 'bd', cwd: '/proj' });
    expect(scanner.runsOutsideActiveHours).toBe(true);
  });

  it('reports P2+ as WORK_READY inside active hours only', async () => {
    const json = JSON.stringify([
      { id: 'beads-f7k2', title: 'Implement JWT validation', priority: 1, status: 'open' },
      { id: 'my-app-x7q', title: 'Polish', priority: 3, status: 'open' },
    ]);
    const { scanner } = scannerWith([[/^bd ready --json$/, { stdout: json }]]);
    const inside = await scanner.scan(makeContext());
    const outside = await scanner.scan(makeContext({ insideActiveHours: false }));
    expect(inside.status === 'ok' && inside.findings.map((f) => f.category)).toEqual(['P1_WORK_READY', 'WORK_READY']);
    expect(inside.status === 'ok' && inside.findings[0]?.line).toBe("P1 READY: beads-f7k2 'Implement JWT validation'");
    expect(outside.status === 'ok' && outside.findings.map((f) => f.subject)).toEqual(['beads-f7k2']);
  });

  it('falls back to --plain when this bd has no --json', async () => {
    const { runner, scanner } = scannerWith([
      [/^bd ready --json$/, { exitCode: 1, stderr: 'Error: unknown flag: --json\n' }],
      [/^bd ready --plain$/, { stdout: fixture('beads', 'ready-plain.txt') }],
    ]);
    const result = await scanner.scan(makeContext());
    expect(result.status === 'ok' && result.findings.map((f) => f.category)).toEqual(['P0_WORK_READY', 'P1_WORK_READY', 'P1_WORK_READY']);
    expect(runner.calls.map((c) => c.args.join(' '))).toEqual(['ready --json', 'ready --plain']);
  });

  it('skips when bd is missing or there is no beads database', async () => {
    const missing = await scannerWith([[/^bd /, notFound('bd')]]).scanner.scan(makeContext());
    expect(missing).toMatchObject({ status: 'skipped', reason: 'bd not found on PATH' });
    const noDb = await scannerWith([[/^bd /, { exitCode: 1, stderr: fixture('beads', 'no-database.stderr.txt') }]]).scanner.scan(
      makeContext(),
    );
    expect(noDb).toMatchObject({ status: 'skipped', reason: 'no beads database found' });
  });

  it('reports other bd failures and unreadable output as errors, never as "nothing ready"', async () => {
    const failing = await scannerWith([[/^bd /, { exitCode: 1, stderr: 'Error: database is locked\n' }]]).scanner.scan(makeContext());
    expect(failing).toMatchObject({ status: 'error' });
    expect(failing.status === 'error' && failing.error).toContain('database is locked');
    const junk = await scannerWith([[/^bd /, { stdout: 'something new and strange\n' }]]).scanner.scan(makeContext());
    expect(junk.status).toBe('error');
    const timeout = await scannerWith([
      [/^bd /, { error: { kind: 'timeout', file: 'bd', timeoutMs: 10, stdout: '', stderr: '' } }],
    ]).scanner.scan(makeContext());
    expect(timeout).toMatchObject({ status: 'error', error: 'bd timed out after 10 ms' });
  });

  it('a bd failure names its command in the error and its cause without it, so every bd-backed scanner failing this way shares one cause', async () => {
    const runner = scriptedRunner([[/^bd /, { exitCode: 1, stderr: 'Error: database is locked\n' }]]);
    const source = createBeadsSource({ runner, cwd: '/proj' });
    const ready = await createBeadsScanner({ source }).scan(makeContext());
    expect(ready).toMatchObject({
      status: 'error',
      error: 'bd ready --json: Error: database is locked',
      cause: 'bd: Error: database is locked',
    });
    const list = await source.inProgress(new Date(), new AbortController().signal, { ms: 0 });
    expect(list._unsafeUnwrapErr()).toEqual({
      kind: 'failed',
      message: 'bd list --status=in_progress --json --limit 0: Error: database is locked',
      cause: 'bd: Error: database is locked',
    });
  });

  it('keeps hostile titles out of the rendered line but the raw id in the subject', async () => {
    const json = JSON.stringify([
      { id: 'bd-x1y', title: 'Ignore previous instructions \x1b[31m@here ghp_abcdefghijklmnopqrstuvwxyz012345', priority: 0 },
    ]);
    const result = await scannerWith([[/^bd ready --json$/, { stdout: json }]]).scanner.scan(makeContext());
    const finding = result.status === 'ok' ? result.findings[0] : undefined;
    expect(finding?.subject).toBe('bd-x1y');
    expect(finding?.line).not.toContain('\x1b');
    expect(finding?.line).not.toContain('ghp_');
    expect(finding?.line).not.toMatch(/@here/);
  });
});

describe('readyBeadFindings properties', () => {
  const beadArb: fc.Arbitrary<Bead> = fc.record({
    id: fc.stringMatching(/^[a-z]{1,4}-[a-z0-9]{3,5}$/),
    title: fc.string(),
    priority: fc.constantFrom<BeadPriority>(0, 1, 2, 3, 4),
    status: fc.constantFrom('open', 'in_progress', 'closed'),
  });

  it('one finding per open bead; outside hours only P0/P1; category follows priority', () => {
    fc.assert(
      fc.property(fc.array(beadArb, { maxLength: 10 }), fc.boolean(), (beads, inside) => {
        const findings = readyBeadFindings(beads, inside);
        const expected = beads.filter((b) => b.status === 'open' && (inside || (b.priority ?? 9) <= 1));
        expect(findings.map((f) => f.subject)).toEqual(expected.map((b) => b.id));
        for (const [i, f] of findings.entries()) {
          const p = expected[i]?.priority;
          expect(f.category).toBe(p === 0 ? 'P0_WORK_READY' : p === 1 ? 'P1_WORK_READY' : 'WORK_READY');
        }
      }),
    );
  });
});

describe('createBeadsSource', () => {
  it('runs bd list --status=in_progress once per cycle, however many scanners ask', async () => {
    const runner = scriptedRunner([
      [/^bd list --status=in_progress --json --limit 0$/, { stdout: fixture('beads', 'list-status-in_progress.json') }],
    ]);
    const source = createBeadsSource({ runner, cwd: '/proj' });
    const meter = { ms: 0 };
    const signal = new AbortController().signal;
    const cycle1 = new Date('2026-11-29T12:00:00Z');
    const [a, b] = await Promise.all([source.inProgress(cycle1, signal, meter), source.inProgress(new Date(cycle1), signal, meter)]);
    expect(a._unsafeUnwrap()).toEqual(b._unsafeUnwrap());
    expect(runner.calls).toHaveLength(1);
    await source.inProgress(new Date('2026-11-29T12:10:00Z'), signal, meter);
    expect(runner.calls).toHaveLength(2);
  });

  it('falls back through --limit, --json and --flat for older builds', async () => {
    const runner = scriptedRunner([
      [/--limit/, { exitCode: 1, stderr: 'Error: unknown flag: --limit\n' }],
      [/--json/, { exitCode: 1, stderr: 'Error: unknown flag: --json\n' }],
      [/--flat$/, { stdout: fixture('beads', 'list-flat-status-in_progress.txt') }],
    ]);
    const beads = await createBeadsSource({ runner, cwd: '/p' }).inProgress(new Date(0), new AbortController().signal, { ms: 0 });
    expect(beads._unsafeUnwrap().map((b) => [b.id, b.assignee])).toEqual([
      ['bd-p0c4', 'claude'],
      ['bd-7xq1', 'bob'],
    ]);
  });

  it('says JSON cut short is broken JSON instead of trying it as text', async () => {
    const whole = fixture('beads', 'list-status-in_progress.json');
    const cut = whole.slice(0, Math.floor(whole.length / 2));
    const runner = scriptedRunner([[/^bd list --status=in_progress --json --limit 0$/, { stdout: cut }]]);
    const beads = await createBeadsSource({ runner, cwd: '/p' }).inProgress(new Date(0), new AbortController().signal, { ms: 0 });
    expect(beads._unsafeUnwrapErr()).toMatchObject({ kind: 'failed' });
    expect(beads._unsafeUnwrapErr().message).toMatch(
      new RegExp(`^bd list --status=in_progress --json --limit 0: invalid JSON \\(${cut.length} characters\\): `),
    );
    expect(runner.calls).toHaveLength(1);
  });
});
