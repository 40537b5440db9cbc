import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fixture } from '../../test/support/fixtures.js';
import { makeContext, notFound, scriptedRunner, type Route } from '../../test/support/context.js';
import { createBeadsSource } from '../beads/beads-source.js';
import type { Bead } from '../beads/bead.js';
import { createFinding } from '@heartbeat-kit/core';
import {
  createOrchestratorsScanner,
  hasOrchestratorSession,
  orchestratorFindings,
  ownerSessionsOf,
  tmuxDownFinding,
} from './orchestrators-scanner.js';

const sessionsLine = (names: readonly string[]) => names.map((n, i) => `${n}\t$${i}\t1795985301\t1795985301\t0\t1\n`).join('');
const inProgressJson = (beads: readonly Partial<Bead>[]) =>
  JSON.stringify(beads.map((b) => ({ title: 't', priority: 2, status: 'in_progress', ...b })));

function scanner(routes: readonly Route[]) {
  const runner = scriptedRunner(routes);
  return {
    runner,
    scanner: createOrchestratorsScanner({ runner, tmuxArgs: ['-L', 'hk-fake'], beads: createBeadsSource({ runner, cwd: '/p' }) }),
  };
}

describe('orchestrators scanner', () => {
  it('reports CRASHED for an in-progress bead whose session is gone', async () => {
    const { runner, scanner: s } = scanner([
      [/^tmux -u -L hk-fake list-sessions -F /, { stdout: sessionsLine(['orch-auth', 'main']) }],
      [
        /^bd list/,
        {
          stdout: inProgressJson([
            { id: 'beads-k1x', assignee: 'orch-auth' },
            { id: 'beads-a3m9', assignee: 'orch-billing' },
          ]),
        },
      ],
    ]);
    const result = await s.scan(makeContext());
    expect(result.status === 'ok' && result.findings).toEqual([
      expect.objectContaining({
        category: 'ORCH_FAILURE',
        subject: 'orch-billing',
        line: 'CRASHED: orch-billing (bead beads-a3m9 still in_progress)',
        action: 'Re-launch orch-billing for beads-a3m9',
        short: 'orch-billing crashed',
      }),
    ]);
    expect(runner.calls[0]?.args.slice(0, 5)).toEqual(['-u', '-L', 'hk-fake', 'list-sessions', '-F']);
  });

  it('never lets a prefix match make a missing session look present', async () => {
    const runner = scriptedRunner([
      [/^tmux /, { stdout: sessionsLine(['orch-auth-2', 'orch-bd-7xq12', 'orch-bd-p0c4-4242']) }],
      [/^bd list/, { stdout: inProgressJson([{ id: 'bd-auth', assignee: 'orch-auth' }, { id: 'bd-7xq1' }, { id: 'bd-p0c4' }]) }],
    ]);
    const pipelineOwners = () => Promise.resolve({ nodes: [{ nodeId: 'bd-p0c4', beadId: 'bd-p0c4' }], problems: [] });
    const s = createOrchestratorsScanner({
      runner,
      tmuxArgs: ['-L', 'hk-fake'],
      beads: createBeadsSource({ runner, cwd: '/p' }),
      pipelineOwners,
    });
    const result = await s.scan(makeContext({ config: { expectedOrchestrators: ['orch-bd-7xq1'] } }));
    // orch-bd-p0c4-4242 is the engine's <prefix><node id>-<pid> form: present.
    expect(result.status === 'ok' && result.findings.map((f) => f.subject)).toEqual(['orch-auth', 'orch-bd-7xq1']);
  });

  it('reports expected sessions that are missing (HEARTBEAT.md Expected:)', async () => {
    const { scanner: s } = scanner([
      [/^tmux /, { stdout: sessionsLine(['orch-auth']) }],
      [/^bd list/, { stdout: '[]\n' }],
    ]);
    const result = await s.scan(makeContext({ config: { expectedOrchestrators: ['orch-auth', 'orch-dashboard'] } }));
    expect(result.status === 'ok' && result.findings.map((f) => [f.subject, f.line])).toEqual([
      ['orch-dashboard', 'MISSING: orch-dashboard (expected in HEARTBEAT.md)'],
    ]);
  });

  it('reads "no server running" as zero sessions', async () => {
    const { scanner: s } = scanner([
      [/^tmux /, { exitCode: 1, stderr: fixture('tmux', 'list-sessions-stale-socket.stderr.txt') }],
      [/^bd list/, { stdout: fixture('beads', 'list-status-in_progress.json') }],
    ]);
    const result = await s.scan(makeContext({ config: { expectedOrchestrators: ['orch-bd-p0c4', 'orch-bd-7xq1'] } }));
    // The one cause comes first; the table's inhibitedBy hides the per-session ORCH_FAILUREs in the cycle.
    expect(result.status === 'ok' && result.findings.map((f) => `${f.category}:${f.subject}`)).toEqual([
      'TMUX_DOWN:tmux',
      'ORCH_FAILURE:orch-bd-p0c4',
      'ORCH_FAILURE:orch-bd-7xq1',
    ]);
    expect(result.status === 'ok' && result.findings[0]?.line).toBe(
      'TMUX DOWN: no tmux server (or session) is running; 2 orchestrator sessions should be: orch-bd-p0c4, orch-bd-7xq1',
    );
  });

  it('says TMUX_DOWN only when no session runs and two or more should (one failure names its bead itself)', () => {
    const failure = (s: string) => createFinding({ category: 'ORCH_FAILURE', subject: s, line: `MISSING: ${s}`, action: 'a', short: 's' });
    expect(tmuxDownFinding(0, [])).toEqual([]);
    expect(tmuxDownFinding(0, [failure('orch-a')])).toEqual([]);
    expect(tmuxDownFinding(1, [failure('orch-a'), failure('orch-b')])).toEqual([]);
    expect(tmuxDownFinding(0, [failure('orch-a'), failure('orch-b')]).map((f) => f.fingerprint)).toEqual(['TMUX_DOWN:tmux']);
  });

  it('never reports a bead no orchestrator owns (assigned to a person or to nobody)', async () => {
    // The fixture's beads are assigned to "claude" and "bob": people, not orchestrator sessions.
    const { scanner: s } = scanner([
      [/^tmux /, { stdout: sessionsLine([]) }],
      [/^bd list/, { stdout: fixture('beads', 'list-status-in_progress.json') }],
    ]);
    const result = await s.scan(makeContext());
    expect(result).toMatchObject({ status: 'ok', findings: [] });
    const unassigned = await scanner([
      [/^tmux /, { stdout: sessionsLine([]) }],
      [/^bd list/, { stdout: inProgressJson([{ id: 'bd-nobody' }]) }],
    ]).scanner.scan(makeContext());
    expect(unassigned).toMatchObject({ status: 'ok', findings: [] });
  });

  it('owns a bead through an active pipeline node carrying its bead_id (orch-<node_id>, orch-<node_id>-<pid>)', async () => {
    const owners = () =>
      Promise.resolve({
        nodes: [
          { nodeId: 'impl_auth', beadId: 'bd-a' },
          { nodeId: 'impl_ui', beadId: 'bd-b' },
        ],
        problems: ['broken.dot: cannot parse: x'],
      });
    const runner = scriptedRunner([
      [/^tmux /, { stdout: sessionsLine(['orch-impl_ui-4242']) }],
      [/^bd list/, { stdout: inProgressJson([{ id: 'bd-a', assignee: 'alice' }, { id: 'bd-b' }, { id: 'bd-c' }]) }],
    ]);
    const s = createOrchestratorsScanner({
      runner,
      tmuxArgs: ['-L', 'hk-fake'],
      beads: createBeadsSource({ runner, cwd: '/p' }),
      pipelineOwners: owners,
    });
    const result = await s.scan(makeContext());
    expect(result.status === 'ok' && result.findings.map((f) => f.line)).toEqual(['CRASHED: orch-impl_auth (bead bd-a still in_progress)']);
    expect(result.status === 'ok' && result.warnings).toEqual([
      { code: 'PIPELINE_OWNERS_UNREADABLE', message: 'broken.dot: cannot parse: x' },
    ]);
  });

  it('skips without tmux; errors on other tmux failures', async () => {
    expect(await scanner([[/^tmux /, notFound('tmux')]]).scanner.scan(makeContext())).toMatchObject({
      status: 'skipped',
      reason: 'tmux not found on PATH',
    });
    const denied = await scanner([
      [/^tmux /, { exitCode: 1, stderr: 'error connecting to /tmp/tmux-0/x (Permission denied)\n' }],
    ]).scanner.scan(makeContext());
    expect(denied.status).toBe('error');
  });

  it('without bd: skips, unless expected sessions can still be checked', async () => {
    const routes: Route[] = [
      [/^tmux /, { stdout: sessionsLine([]) }],
      [/^bd /, notFound('bd')],
    ];
    expect(await scanner(routes).scanner.scan(makeContext())).toMatchObject({ status: 'skipped', reason: 'bd not found on PATH' });
    const withExpected = await scanner(routes).scanner.scan(makeContext({ config: { expectedOrchestrators: ['orch-x'] } }));
    expect(withExpected).toMatchObject({ status: 'ok', warnings: [{ code: 'BEADS_UNAVAILABLE' }] });
    expect(withExpected.status === 'ok' && withExpected.findings.map((f) => f.subject)).toEqual(['orch-x']);
  });
});

describe('orchestrator decisions (properties)', () => {
  const nameArb: fc.Arbitrary<string> = fc.constantFrom(
    'orch-a',
    'orch-a-1',
    'orch-b',
    'orch-bd-x1',
    'orch-bd-x1-77',
    'orch-bd-x12',
    'main',
    '-x',
  );
  const beadArb: fc.Arbitrary<Bead> = fc.record(
    { id: fc.constantFrom('bd-x1', 'bd-y2', 'a'), title: fc.constant('t'), assignee: fc.constantFrom('orch-a', 'orch-b', 'bob') },
    { requiredKeys: ['id', 'title'] },
  );

  const nodeArb = fc.record({ nodeId: fc.constantFrom('x1', 'n2', 'a'), beadId: fc.constantFrom('bd-x1', 'bd-y2', 'a', 'bd-z') });
  const expectedArb: fc.Arbitrary<string[]> = fc.uniqueArray(fc.constantFrom('orch-a', 'orch-bd-x1', 'orch-bd-y2', 'bob', 'orch-x1'));

  it('a bead is owned exactly when an orch-* or Expected: assignee, an Expected: orch-<id> or a pipeline node names it', () => {
    fc.assert(
      fc.property(beadArb, expectedArb, fc.array(nodeArb, { maxLength: 4 }), (bead, expected, pipelineNodes) => {
        const owners = ownerSessionsOf(bead, { prefix: 'orch-', expected, pipelineNodes });
        const owned =
          bead.assignee?.startsWith('orch-') === true ||
          (bead.assignee !== undefined && expected.includes(bead.assignee)) ||
          expected.includes(`orch-${bead.id}`) ||
          pipelineNodes.some((n) => n.beadId === bead.id);
        expect(owners.length > 0).toBe(owned);
        // Every owner session is one of the three sources, never an invented orch-<bead id>.
        for (const o of owners) {
          const fromNode = pipelineNodes.some((n) => n.beadId === bead.id && o.name === `orch-${n.nodeId}`);
          expect(o.name === bead.assignee || expected.includes(o.name) || fromNode).toBe(true);
        }
        // An unowned bead is never reported, whatever sessions exist.
        const findings = orchestratorFindings({ sessionNames: [], inProgress: [bead], expected: [], prefix: 'orch-', pipelineNodes });
        const ownedWithoutExpected = bead.assignee?.startsWith('orch-') === true || pipelineNodes.some((n) => n.beadId === bead.id);
        expect(findings.length).toBe(ownedWithoutExpected ? 1 : 0);
      }),
    );
  });

  it('a bead is reported exactly when no session carries its exact name (or its <id>-<pid> form)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(nameArb), fc.uniqueArray(beadArb, { selector: (b) => b.id }), (names, beads) => {
        // Every orch-<id> is expected, so unassigned beads are owned by id and the -<pid> form counts.
        const expected = beads.map((b) => `orch-${b.id}`);
        const findings = orchestratorFindings({ sessionNames: names, inProgress: beads, expected, prefix: 'orch-' });
        const present = new Set(names);
        const missing = new Set<string>();
        for (const bead of beads) {
          const byAssignee = bead.assignee?.startsWith('orch-') === true ? bead.assignee : undefined;
          const ok =
            (byAssignee !== undefined && present.has(byAssignee)) ||
            present.has(`orch-${bead.id}`) ||
            names.some((n) => new RegExp(`^orch-${bead.id}-\\d+$`).test(n));
          expect(hasOrchestratorSession(ownerSessionsOf(bead, { prefix: 'orch-', expected, pipelineNodes: [] }), present)).toBe(ok);
          if (!ok) missing.add(byAssignee ?? `orch-${bead.id}`);
        }
        for (const session of expected) if (!present.has(session) && ![...missing].some((m) => m === session)) missing.add(session);
        expect(new Set(findings.map((f) => f.subject))).toEqual(missing);
        expect(findings).toHaveLength(missing.size);
      }),
    );
  });
});
