import { describe, expect, it } from 'vitest';
import { decodeHeartbeatState, evaluateCycle, type Finding, scanOk } from '@heartbeat-kit/core';
import { renderCostAlert, renderOnline, renderShutdown, renderWorkFound } from '@heartbeat-kit/core/host';
import { gchatReplyFinding } from './gchat/gchat-scanner.js';
import type { DashboardNode, PipelineDashboard } from './pipelines/dashboard-schema.js';
import { PIPELINE_SLICE, derivePipelineFinalized, nodeFailedFinding, pipelineStalledFinding } from './pipelines/pipeline-findings.js';
import { orchestratorFindings } from './tmux/orchestrators-scanner.js';
import { cycleContext } from '../../core/test/support/cycle-context.js';
import { dashboardOf, row } from '../test/support/dashboards.js';
import { DEFAULT_CATEGORIES } from './categories/cobuilder-categories.js';

// Every report block of spec 000, rendered from the finding builders the scanners use and compared
// with the spec's text character for character (placeholders filled in).

const AT = new Date('2026-02-19T14:50:00Z');

function findingsSection(findings: readonly Finding[]): string {
  const { message } = renderWorkFound({
    findings,
    cycle: 15,
    at: AT,
    timeZone: 'UTC',
    categories: DEFAULT_CATEGORIES,
    budgetTokens: 20_000,
  });
  const content = message.content;
  return content.slice(content.indexOf('## Findings\n') + '## Findings\n'.length, content.indexOf('\n\n## Recommended Action'));
}

function dashboard(nodes: DashboardNode[]): PipelineDashboard {
  return dashboardOf(nodes, { graph: 'PRD-AUTH-001', prd: 'PRD-AUTH-001' });
}

describe('spec 000 report blocks, verbatim', () => {
  it('GCHAT_REPLY_RECEIVED: one heading, each reply a list item', () => {
    const replies = [
      gchatReplyFinding({ questionId: 'q-1', sessionId: 's-1', replyText: 'yes, ship it', senderName: 'Alice' }),
      gchatReplyFinding({ questionId: 'q-2', sessionId: 's-2', replyText: 'not yet', senderName: 'Bob' }),
    ];
    expect(findingsSection(replies)).toBe(
      [
        'GCHAT_REPLY_RECEIVED:',
        '- Question ID: q-1',
        '  Session: s-1',
        '  Reply: "yes, ship it"',
        '  From: Alice',
        '- Question ID: q-2',
        '  Session: s-2',
        '  Reply: "not yet"',
        '  From: Bob',
      ].join('\n'),
    );
  });

  it('PIPELINE_NODE_FAILED: an indented block', () => {
    const finding = nodeFailedFinding(
      'PRD-AUTH-001',
      dashboard([
        row('impl_a', 'codergen', 'failed', 'beads-a3m9'),
        row('impl_b', 'codergen', 'failed', 'beads-a3m9'),
        row('gate', 'wait.human', 'pending'),
      ]),
    )!;
    expect(findingsSection([finding])).toBe(
      'PIPELINE_NODE_FAILED:\n  Pipeline: PRD-AUTH-001\n  Failed nodes: impl_a, impl_b\n  Recommended: Re-trigger failed nodes or inspect bead beads-a3m9',
    );
  });

  it('PIPELINE_STALLED: an indented block', () => {
    const finding = pipelineStalledFinding(
      'PRD-AUTH-001',
      dashboard([row('impl_a', 'codergen', 'impl_complete'), row('impl_b', 'codergen', 'pending')]),
    )!;
    expect(findingsSection([finding])).toBe(
      'PIPELINE_STALLED:\n  Pipeline: PRD-AUTH-001\n  Stage: Implementation\n  Active nodes: 0 (expected some)\n  Recommended: Check orchestrators and dispatch pending nodes',
    );
  });

  it('PIPELINE_FINALIZED: an indented block (derived by the pipeline scanner from its stage history)', () => {
    const { findings } = derivePipelineFinalized(PIPELINE_SLICE.initial(), [
      { kind: 'pipeline', pipeline: 'PRD-AUTH-001', prdRef: 'PRD-AUTH-001', stage: 'Finalized', validated: 2, total: 2 },
    ]);
    const { decision } = evaluateCycle(decodeHeartbeatState(undefined).state, [scanOk('pipelines', { findings })], cycleContext(AT));
    expect(decision.message!.content).toContain(
      '## Findings\nPIPELINE_FINALIZED:\n  Pipeline: PRD-AUTH-001\n  PRD: PRD-AUTH-001\n  Stage: Finalized\n  Promise: 2/2 gates validated\n\n',
    );
  });

  it('the actionable example: WORK_FOUND header, CRASHED line, Source lines', () => {
    const crash = orchestratorFindings({
      sessionNames: [],
      inProgress: [{ id: 'beads-a3m9', title: 'x', status: 'in_progress', assignee: 'orch-auth' }],
      expected: [],
      prefix: 'orch-',
    });
    const { message } = renderWorkFound({
      findings: crash,
      cycle: 15,
      at: AT,
      timeZone: 'UTC',
      categories: DEFAULT_CATEGORIES,
      budgetTokens: 20_000,
    });
    expect(message.content).toMatch(
      /^WORK_FOUND: ORCH_FAILURE\n\n## Context Brief\nOrchestrator crash detected\.\n\n## Findings\nCRASHED: orch-auth \(bead beads-a3m9 still in_progress\)\n\n## Recommended Action\n1\. Re-launch orch-auth for beads-a3m9\n\n## Source\nHeartbeat cycle #15 at 2026-02-19T14:50:00\nToken cost this cycle: ~\d+ tokens$/,
    );
  });

  it('HEARTBEAT_ONLINE, HEARTBEAT_SHUTDOWN and COST_ALERT', () => {
    expect(renderOnline({ intervalMs: 600_000, activeHours: { start: 8, end: 22 }, configFound: true, at: AT }).content).toBe(
      'HEARTBEAT_ONLINE: Work-finder loop starting. Interval: 600s. Active hours: 8-22. HEARTBEAT.md: found.',
    );
    expect(renderShutdown({ cyclesCompleted: 12, reportsSent: 3, at: AT }).content).toBe(
      'HEARTBEAT_SHUTDOWN: Final status -- 12 cycles completed, 3 reports sent.',
    );
    // A cycle a signal cut short is counted apart, naming what was cut off (issue 10 item 4).
    expect(renderShutdown({ cyclesCompleted: 11, cyclesPartial: 1, cutOff: ['beads', 'gchat'], reportsSent: 3, at: AT }).content).toBe(
      'HEARTBEAT_SHUTDOWN: Final status -- 11 cycles completed, 1 partial (cut off: beads, gchat), 3 reports sent.',
    );
    const alert = renderCostAlert({ cycle: 7, tokens: 21_000, budgetTokens: 20_000, at: AT });
    expect(alert.content).toBe(
      'COST_ALERT: Heartbeat cycle #7 used ~21,000 tokens (budget: 20,000). Consider simplifying HEARTBEAT.md checks.',
    );
    expect(alert.summary).toBe('Heartbeat cost exceeded budget');
  });
});
