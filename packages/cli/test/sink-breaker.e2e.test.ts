/**
 * Issue 15 item 5 for the sink: a webhook failing the same way N cycles in a row becomes one
 * SINK_FAILING advisory on the operator's own channel (stdout), its deliveries back off (every
 * held-back cycle says so, the report stays undelivered), and the report is delivered once the
 * receiver works again, with one recovery line. A real HTTP receiver on 127.0.0.1 that answers
 * 503 and then 200, a real git repository, `--now` for each `cycle`, scripted time for `loop`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCliWorlds } from './support/cli-world.js';
import { scriptedTime, STEADY } from './support/run-cli.js';
import { useWebhookReceivers } from './support/webhook-receiver.js';
import { WORLD_HEARTBEAT_MD } from './support/world.js';

const createCliWorld = useCliWorlds();
const startReceiver = useWebhookReceivers();

const BREAKER_MD = `${WORLD_HEARTBEAT_MD}\n## Heartbeat\n- Breaker after: 2 cycles\n- Breaker back-off cap: 4 cycles\n`;

// A pipeline first seen Finalized is a one-shot finding: its source never reports it again, so
// only the state keeps it until a delivery works. It proves a held-back report is never dropped.
const FINALIZED_DOT = `digraph "PRD-X-001" {
  graph [label="X" prd_ref="PRD-X-001"]
  start [shape=Mdiamond handler=start status=validated label="start"]
  gate [shape=hexagon handler="wait.human" status=validated label="Review"]
  start -> gate
}
`;

const at = (cycle: number): string => new Date(Date.parse('2026-02-19T14:00:00Z') + (cycle - 1) * 600_000).toISOString();

describe('sink circuit breaker (issue 15 item 5)', () => {
  it('cycle --now: a webhook answering 503 trips after 2 cycles (one SINK_FAILING on stdout), deliveries back off to every 2nd then 4th cycle (each held-back cycle says so, exit 3), and the held report is delivered once it answers 200', async () => {
    const w = createCliWorld({ heartbeatMd: BREAKER_MD, pipelines: { 'x.dot': FINALIZED_DOT } });
    const receiver = await startReceiver((r) => r.status);
    const statePath = join(w.root, 'hb', 'state.json');
    const cycle = async (n: number, ...extra: string[]) => {
      const before = receiver.reports.length;
      const run = await w.cycleAt(at(n), '--state', statePath, '--sink', `webhook:${receiver.url}`, ...extra);
      return { ...run, tried: receiver.reports.length - before };
    };
    const origin = new URL(receiver.url).origin;

    // Cycle 1: the receiver answers 503 (three attempts); the report is printed on stdout and stays undelivered.
    const c1 = await cycle(1);
    expect(c1.code).toBe(3);
    expect(c1.tried).toBe(3);
    expect(c1.stdout).toMatch(/^WORK_FOUND: PIPELINE_FINALIZED\n/);
    expect(c1.stdout).not.toContain('SINK_FAILING');
    expect(c1.stderr).toContain(`delivery failed: webhook ${origin} failed after 3 attempt(s): HTTP 503;`);

    // Cycle 2: the second 503 in a row trips the breaker: one advisory on stdout, one line on stderr.
    const c2 = await cycle(2);
    expect(c2.code).toBe(3);
    expect(c2.tried).toBe(3);
    expect(c2.stdout).toContain(
      'SINK_FAILING: webhook — HTTP 503 since 14:00, 2 cycles; reports stay undelivered and are tried again every 2nd cycle, backing off to every 4th cycle\n  Action: Fix the webhook sink',
    );
    expect(c2.stderr).toContain(
      'heartbeat-kit: webhook sink: circuit breaker open after 2 failed deliveries in a row (HTTP 503 since 14:00); raised SINK_FAILING once; reports stay undelivered and are tried every 2nd cycle now, backing off to every 4th cycle\n',
    );

    // Cycle 3 (--json): held back, the receiver is not called; the report is still decided and offered.
    const c3 = await cycle(3, '--json');
    expect(c3.code).toBe(3);
    expect(c3.tried).toBe(0);
    const j3 = JSON.parse(c3.stdout) as {
      delivery: string;
      categories: string[];
      sinkBreaker: { held: boolean; nextTryCycle: number; line: string; sink: string; code: string; failures: number; events: unknown[] };
    };
    expect(j3).toMatchObject({
      delivery: 'held',
      categories: ['PIPELINE_FINALIZED'],
      sinkBreaker: { held: true, nextTryCycle: 4, sink: 'webhook', code: 'HTTP 503', failures: 2, events: [] },
    });
    expect(j3.sinkBreaker.line).toMatch(
      /^SINK_BREAKER_OPEN: webhook not tried this cycle: .*; the report stays undelivered and is tried again at cycle 4$/,
    );
    expect(c3.stdout).not.toContain('"advisory"');

    // Cycle 4: tried (503 again, no second advisory); cycles 5-7 are held back, each says so.
    const c4 = await cycle(4);
    expect([c4.code, c4.tried, c4.stdout.includes('SINK_FAILING')]).toEqual([3, 3, false]);
    const c5 = await cycle(5);
    expect([c5.code, c5.tried]).toEqual([3, 0]);
    expect(c5.stderr).toContain(
      'heartbeat-kit cycle: warning: SINK_BREAKER_OPEN: webhook not tried this cycle: its circuit breaker is open after 3 failed deliveries in a row (HTTP 503: ',
    );
    expect(c5.stderr).toContain('the report stays undelivered and is tried again at cycle 8\n');
    expect(c5.stdout).toMatch(/^WORK_FOUND: PIPELINE_FINALIZED\n/);
    receiver.status = 200;
    for (const n of [6, 7]) expect((await cycle(n)).tried).toBe(0);

    // Cycle 8: due again, the receiver answers 200: the one-shot report held since cycle 1 arrives, one recovery line.
    const c8 = await cycle(8);
    expect(c8.code).toBe(0);
    expect(c8.tried).toBe(1);
    expect(receiver.reports.at(-1)?.status).toBe(200);
    expect(receiver.reports.at(-1)?.content).toMatch(/^WORK_FOUND: PIPELINE_FINALIZED\n/);
    expect(c8.stderr).toContain(
      'heartbeat-kit: webhook sink recovered: a delivery worked after 3 failed deliveries in a row (HTTP 503 since 14:00); circuit breaker closed, reports are delivered every cycle again\n',
    );
    expect(c8.stderr).not.toContain('SINK_BREAKER_OPEN');
    expect((JSON.parse(readFileSync(statePath, 'utf8')) as { sinkBreaker?: unknown }).sinkBreaker).toBeUndefined();

    // Delivered once: the next cycle is quiet and sends nothing.
    const c9 = await cycle(9);
    expect([c9.code, c9.stdout, c9.tried]).toEqual([0, 'HEARTBEAT_OK\n', 0]);

    // The receipts keep each slot's delivery result: held is neither delivered nor failed.
    const history = await w.cli('history', '--cwd', w.project, '--state', statePath, '--now', at(10), '--json');
    const receipts = (JSON.parse(history.stdout) as { receipts: { kind: string; delivery?: string }[] }).receipts;
    expect(receipts.map((r) => r.delivery)).toEqual(['failed', 'failed', 'held', 'failed', 'held', 'held', 'held', 'delivered', 'none']);
  });

  it('loop: the same webhook failing trips once, later cycles hold their reports back (said on stderr), and the first due try after the receiver recovers delivers', async () => {
    const w = createCliWorld({ heartbeatMd: BREAKER_MD, pipelines: { 'x.dot': FINALIZED_DOT } });
    // 503 for the first 9 report requests (three tried cycles × three attempts), 200 after.
    const receiver = await startReceiver((r) => (r.reports.length < 9 ? 503 : 200));
    const statePath = join(w.root, 'hb', 'state.json');
    // Scripted time: every sleep moves the wall and monotonic clocks by what was asked (no gap); 7 sleeps, 8 cycles.
    const { code, stdout, stderr } = await w.scriptedLoop(
      scriptedTime(Array.from({ length: 7 }, () => STEADY)).from(at(1)),
      '--state',
      statePath,

      '--sink',
      `webhook:${receiver.url}`,
    );
    expect(code).toBe(0);
    // Tried at cycles 1, 2 (trips), 4 and 8 (recovers); held back at 3, 5, 6, 7.
    expect(receiver.reports.map((r) => r.status)).toEqual([503, 503, 503, 503, 503, 503, 503, 503, 503, 200]);
    expect(stdout.match(/SINK_FAILING: webhook — HTTP 503 since 14:00, 2 cycles/g)).toHaveLength(1);
    expect(stderr.match(/heartbeat-kit loop: warning: SINK_BREAKER_OPEN: webhook not tried this cycle/g)).toHaveLength(4);
    expect(stderr.match(/circuit breaker open after 2 failed deliveries/g)).toHaveLength(1);
    expect(stderr.match(/webhook sink recovered: a delivery worked after 3 failed deliveries in a row/g)).toHaveLength(1);
    expect(receiver.reports.at(-1)?.content).toMatch(/^WORK_FOUND: PIPELINE_FINALIZED\n/);
  });
});
