import { describe, expect, it } from 'vitest';
import { DEFAULT_HEARTBEAT_CONFIG } from '../config/heartbeat-config-schema.js';
import { createFinding } from '../domain/finding.js';
import { scanOk } from '../domain/scan-result.js';
import { evaluateCycle, markDelivered, type CycleContext } from '../cycle/evaluate-cycle.js';
import { initialHeartbeatState } from '../cycle/heartbeat-state.js';
import { createCycleRecord, replayCycleRecords } from './cycle-record.js';

function recordDay(): string[] {
  const lines: string[] = [];
  let state = initialHeartbeatState();
  const crash = createFinding({
    category: 'ORCH_FAILURE',
    subject: 'orch-a',
    line: 'CRASHED: orch-a',
    action: 'Re-launch orch-a',
    short: 'orch-a crashed',
  });
  for (let i = 0; i < 12; i++) {
    const context: CycleContext = {
      now: new Date(Date.parse('2026-02-19T08:00:00Z') + i * 600_000),
      config: DEFAULT_HEARTBEAT_CONFIG,
      timeZone: 'UTC',
      insideActiveHours: true,
      operatorLastActiveAt: undefined,
    };
    const results = [
      scanOk('orchestrators', { findings: i % 4 === 0 ? [] : [crash] }),
      scanOk('idle-orchestrators', { slice: { version: 1, data: { panes: { 'orch-b': { hash: 'same', sinceMs: 0 } } } } }),
    ];
    const { decision, nextState } = evaluateCycle(state, results, context);
    lines.push(JSON.stringify(createCycleRecord(state, results, context, decision)));
    state = markDelivered(nextState, decision, context.now);
  }
  return lines;
}

describe('replay', () => {
  it('reproduces every recorded decision', () => {
    const report = replayCycleRecords(recordDay().join('\n') + '\n');
    expect(report).toEqual({ total: 12, matched: 12, mismatches: [], errors: [] });
  });

  it('reports where a tampered recording differs', () => {
    const lines = recordDay();
    const tampered = JSON.parse(lines[1]!) as { decision: { status: string } };
    tampered.decision.status = tampered.decision.status === 'ok' ? 'report' : 'ok';
    lines[1] = JSON.stringify(tampered);
    const report = replayCycleRecords(lines.join('\n'));
    expect(report.matched).toBe(11);
    expect(report.mismatches).toEqual([{ line: 2, cycle: 2, paths: ['status'] }]);
  });

  it('tolerates a torn last line', () => {
    const lines = recordDay();
    const report = replayCycleRecords(lines.join('\n') + '\n' + lines[0]!.slice(0, 40));
    expect(report.total).toBe(12);
    expect(report.errors).toHaveLength(1);
    expect(report.errors[0]!.line).toBe(13);
  });
});
