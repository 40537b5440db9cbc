/**
 * Issue 25: redaction must never change a sentence of our own reports. Every finding template of
 * the scanners (ORCH_FAILURE, ORCH_IDLE, P0/P1/WORK_READY, GIT_STALE, STALE_TASK,
 * GCHAT_REPLY_RECEIVED, PIPELINE_*) is filled with arbitrary session, bead, worktree, pipeline and
 * node names — among them names like `orch-auth`, `api-key-rotation` and `token-service` — and
 * each line must come out of redaction as it went in, and appear as such in the rendered report.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Finding, redactSecrets } from '@heartbeat-kit/core';
import { renderWorkFound } from '@heartbeat-kit/core/host';
import { readyBeadFinding } from './beads/beads-scanner.js';
import { gchatReplyFinding } from './gchat/gchat-scanner.js';
import { gitStaleFinding } from './git/git-scanner.js';
import { staleTaskFinding } from './git/stale-tasks-scanner.js';
import type { PipelineDashboard } from './pipelines/dashboard-schema.js';
import {
  derivePipelineFinalized,
  nodeFailedFinding,
  pipelineStalledFinding,
  validationStalledFinding,
} from './pipelines/pipeline-findings.js';
import { derivePaneIdle } from './tmux/orch-idle.js';
import { deriveInProgressChange, orchestratorFindings } from './tmux/orchestrators-scanner.js';
import { DEFAULT_CATEGORIES } from './categories/cobuilder-categories.js';

const NOW = Date.parse('2026-02-19T14:00:00Z');
const HOUR = 3_600_000;

/** Words people build names of: the secret-sounding ones on purpose. */
const WORDS = [
  'orch',
  'auth',
  'oauth',
  'token',
  'key',
  'api',
  'apikey',
  'secret',
  'password',
  'passwd',
  'pwd',
  'credentials',
  'signature',
  'sig',
  'cookie',
  'bearer',
  'basic',
  'authorization',
  'service',
  'rotation',
  'worker',
  'login',
  'deploy',
  'impl',
  'validate',
  'gate',
  'main',
  'feature',
  'fix',
  'sk',
  'gh',
  'npm',
  'bd',
];
const word = fc.constantFrom(...WORDS).chain((w) => fc.constantFrom(w, w.toUpperCase(), w.charAt(0).toUpperCase() + w.slice(1)));
/** A short id part as bd and tmux make them (`a3f8`, `7`), never 8 random characters. */
const shortId = fc.stringMatching(/^[0-9a-f]{1,6}$/);
/** `orch-auth`, `api-key-rotation`, `token_service.2`, `bd-a3f8`. */
const name = fc
  .tuple(
    fc.array(fc.oneof({ weight: 4, arbitrary: word }, { weight: 1, arbitrary: shortId }), { minLength: 1, maxLength: 4 }),
    fc.constantFrom('-', '_', '.'),
  )
  .map(([parts, join]) => parts.join(join));
const namedAfter = fc.constantFrom('orch-auth', 'api-key-rotation', 'token-service', 'deploy-key', 'x-password', 'client_secret');
const anyName = fc.oneof({ weight: 1, arbitrary: namedAfter }, { weight: 5, arbitrary: name });
/** A title or a reply: ordinary words, secret-sounding ones included (`rotate the api key`). */
const sentence = fc
  .array(
    fc.oneof(
      word,
      fc.constantFrom('the', 'rotate', 'fix', 'it', 'may', 'be', 'waiting', 'for', 'input', 'reset', 'flow', 'expired', 'ship'),
    ),
    {
      minLength: 1,
      maxLength: 8,
    },
  )
  .map((words) => words.join(' '));

function dashboard(stage: PipelineDashboard['pipeline_stage'], nodes: PipelineDashboard['nodes']): PipelineDashboard {
  return {
    graph_name: 'g',
    prd_ref: 'PRD-1',
    pipeline_stage: stage,
    status_distribution: {},
    total_nodes: nodes.length,
    promise_progress: { validated: 1, total: 3, percentage: 33, status_label: '' },
    estimated_completion: '',
    worker_type_distribution: {},
    nodes,
    generated_at: '2026-02-19T14:00:00Z',
  };
}
const node = (node_id: string, handler: string, status: string, bead_id = '') => ({
  node_id,
  handler,
  status,
  worker_type: '',
  bead_id,
  label: '',
});

/** One finding of every template, filled with the given names. */
function everyTemplate(n: {
  readonly session: string;
  readonly bead: string;
  readonly worktree: string;
  readonly pipeline: string;
  readonly nodeId: string;
  readonly title: string;
  readonly reply: string;
  readonly sender: string;
}): Finding[] {
  const findings: Finding[] = [];
  // ORCH_IDLE: the pane has not changed for 45 minutes.
  findings.push(
    ...derivePaneIdle(
      { panes: { [n.session]: { hash: 'h', sinceMs: NOW - 0.75 * HOUR } } },
      [{ session: n.session, hash: 'h' }],
      NOW,
      0.5 * HOUR,
    ).findings,
  );
  // ORCH_FAILURE: crashed (its bead still in progress) and missing (expected in HEARTBEAT.md).
  findings.push(
    ...orchestratorFindings({
      sessionNames: [],
      inProgress: [{ id: n.bead, title: n.title, status: 'in_progress', assignee: `orch-${n.session}` }],
      expected: [n.session],
      prefix: 'orch-',
    }),
  );
  findings.push(...deriveInProgressChange(2, 3, true));
  for (const priority of [0, 1, 2] as const) findings.push(readyBeadFinding({ id: n.bead, title: n.title, priority }));
  findings.push(
    gitStaleFinding(
      { path: `/work/${n.worktree}/${n.session}`, branch: n.worktree, changes: 3, lastCommitEpoch: (NOW - 5 * HOUR) / 1000 },
      NOW,
    ),
  );
  findings.push(staleTaskFinding({ id: n.bead, title: n.title }, 5 * HOUR, 4 * HOUR, `feature/${n.bead}`));
  findings.push(staleTaskFinding({ id: n.bead, title: n.title }, 5 * HOUR, 4 * HOUR, undefined));
  findings.push(gchatReplyFinding({ questionId: n.bead, sessionId: n.session, replyText: n.reply, senderName: n.sender }));
  findings.push(
    ...derivePipelineFinalized({ stages: {} }, [
      { kind: 'pipeline', pipeline: n.pipeline, prdRef: n.worktree, stage: 'Finalized', validated: 3, total: 3 },
    ]).findings,
  );
  const failed = nodeFailedFinding(n.pipeline, dashboard('Implementation', [node(n.nodeId, 'codergen', 'failed', n.bead)]));
  const stalled = validationStalledFinding(
    n.pipeline,
    dashboard('Validation', [
      node('impl', 'codergen', 'impl_complete'),
      node(n.nodeId, 'wait.human', 'pending'),
      node(n.session, 'wait.human', 'pending'),
    ]),
  );
  const notMoving = pipelineStalledFinding(n.pipeline, dashboard('Implementation', [node(n.nodeId, 'codergen', 'pending')]));
  for (const f of [failed, stalled, notMoving]) if (f !== undefined) findings.push(f);
  return findings;
}

const names = fc.record({
  session: anyName,
  bead: fc.oneof(
    anyName,
    shortId.map((id) => `bd-${id}`),
  ),
  worktree: anyName,
  pipeline: anyName,
  nodeId: anyName,
  title: sentence,
  reply: sentence,
  sender: anyName,
});

describe('redaction leaves every sentence of our own reports as it is', () => {
  it('each line, action and short text of every template, with any names', () => {
    let checked = 0;
    fc.assert(
      fc.property(names, (n) => {
        const findings = everyTemplate(n);
        // Every template: a failing builder must not make the property pass vacuously.
        expect(new Set(findings.map((f) => f.category)).size).toBe(13);
        for (const finding of findings) {
          for (const text of [finding.line, finding.action, finding.short]) {
            for (const line of text.split('\n')) {
              expect(redactSecrets(line)).toBe(line);
              checked += 1;
            }
          }
        }
      }),
      { numRuns: 1000 },
    );
    expect(checked).toBeGreaterThan(1000 * 12 * 3);
  });

  it('the rendered report holds every line and action as the template made it', () => {
    fc.assert(
      fc.property(names, (n) => {
        const findings = everyTemplate(n);
        const content = renderWorkFound({
          findings,
          cycle: 7,
          at: new Date(NOW),
          timeZone: 'UTC',
          categories: DEFAULT_CATEGORIES,
          budgetTokens: 1_000_000,
        }).message.content;
        expect(content).not.toContain('[REDACTED]');
        for (const finding of findings) {
          for (const line of `${finding.line}\n${finding.action}`.split('\n')) expect(content).toContain(line.trim());
        }
      }),
      { numRuns: 300 },
    );
  });

  it('the idle orchestrator of issue 25: `Check orch-auth: it may be waiting for input or finished`', () => {
    const [idle] = derivePaneIdle(
      { panes: { 'orch-auth': { hash: 'h', sinceMs: NOW - 0.75 * HOUR } } },
      [{ session: 'orch-auth', hash: 'h' }],
      NOW,
      0.5 * HOUR,
    ).findings;
    const content = renderWorkFound({
      findings: [idle!],
      cycle: 1,
      at: new Date(NOW),
      timeZone: 'UTC',
      categories: DEFAULT_CATEGORIES,
      budgetTokens: 20_000,
    }).message.content;
    expect(content).toContain('IDLE: orch-auth (no pane change for 45 min)');
    expect(content).toContain('1. Check orch-auth: it may be waiting for input or finished');
  });
});
