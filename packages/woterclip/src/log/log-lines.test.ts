import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decomposedParents, groupBeats, parseLogText, serializeLogLine, type LogLine } from './log-lines.js';

const beat =
  '{"type": "beat", "started_at": "2026-07-22T10:03:00Z", "ended_at": "2026-07-22T10:17:05Z", "beat_elapsed_sec": 845, "issues_worked": 2, "stop_reason": "time_ceiling"}';
const issue = (n: number, extra = ', "duration_sec": 720') =>
  `{"heartbeat": 7, "timestamp": "2026-07-22T10:15:00Z", "issue": "#${n}", "persona": "backend"${extra}, "status": "in_progress", "actions": ["committed a1b2c3d"]}`;

describe('parseLogText', () => {
  it('tolerates a torn last line after a crash', () => {
    const parsed = parseLogText(`${issue(1)}\n${beat}\n{"heartbeat": 8, "timest`);
    expect(parsed.lines).toHaveLength(2);
    expect(parsed.tornTail).toBe(true);
    expect(parsed.warnings[0]).toContain('torn last line');
  });

  it('a bad line in the middle is skipped with a warning naming it', () => {
    const parsed = parseLogText(`${issue(1)}\nnot json\n${beat}\n`);
    expect(parsed.lines).toHaveLength(2);
    expect(parsed.tornTail).toBe(false);
    expect(parsed.warnings).toEqual(['heartbeat-log.jsonl: line 2 skipped (not JSON).']);
  });

  it('property: never throws, and serialised lines read back unchanged', () => {
    fc.assert(fc.property(fc.string(), (text) => void parseLogText(text)));
    const line = fc.oneof(
      fc.record({
        heartbeat: fc.nat(),
        timestamp: fc.string(),
        issue: fc.nat().map((n) => `#${n}`),
        persona: fc.string(),
        duration_sec: fc.nat(),
        status: fc.constantFrom('in_progress', 'completed', 'blocked', 'triaged', 'decomposed'),
        actions: fc.array(fc.string()),
      }),
      fc.record({
        type: fc.constant('beat'),
        started_at: fc.string(),
        ended_at: fc.string(),
        beat_elapsed_sec: fc.nat(),
        issues_worked: fc.nat(),
        stop_reason: fc.constantFrom('complete', 'queue_empty', 'issue_budget', 'time_ceiling', 'blocked_exit', 'quiet_hours'),
      }),
    ) as fc.Arbitrary<LogLine>;
    fc.assert(
      fc.property(fc.array(line), (lines) => {
        expect(parseLogText(lines.map(serializeLogLine).join('')).lines).toEqual(lines);
      }),
    );
  });
});

describe('groupBeats', () => {
  it('a beat line closes the issue lines above it; excess lines belong to a beat that died', () => {
    const lines = parseLogText([issue(1), issue(2), issue(3), beat, issue(4)].join('\n') + '\n').lines;
    const groups = groupBeats(lines);
    expect(groups.map((g) => [g.kind, g.issues.map((i) => i.issue)])).toEqual([
      ['died', ['#1']],
      ['recorded', ['#2', '#3']],
      ['died', ['#4']],
    ]);
  });

  it('issue lines without duration_sec and no beat line are pre-contract history, not an incident', () => {
    const groups = groupBeats(parseLogText(`${issue(1, '')}\n`).lines);
    expect(groups.map((g) => g.kind)).toEqual(['pre-contract']);
  });

  it('decomposedParents follows the latest status of each issue', () => {
    const text = [issue(5).replace('in_progress', 'decomposed'), issue(6).replace('in_progress', 'decomposed'), issue(6)].join('\n');
    expect([...decomposedParents(parseLogText(text).lines)]).toEqual([5]);
  });
});
