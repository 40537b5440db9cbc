/**
 * Issue 27 items 4, 5 and 6 end to end, with the built bin run as a process, a real tmux server on
 * a private socket, a real git repository and real HTTP receivers on 127.0.0.1.
 *
 * 4: an orchestrator crash delivered to the Immediate route clears → exactly one RESOLVED line.
 * 5: the tmux server killed (kill-server) → one TMUX_DOWN finding, not one ORCH_FAILURE per session.
 * 6: Immediate → webhook:, Advisory → file:; one route's webhook refusing never holds the other back.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileSinkMessages } from './support/file-sink.js';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBuiltCli, useCliWorlds, type CliWorld } from './support/cli-world.js';
import { useWebhookReceivers } from './support/webhook-receiver.js';
import { WORLD_HEARTBEAT_MD } from './support/world.js';

const createCliWorld = useCliWorlds();
const built = useBuiltCli();
const startReceiver = useWebhookReceivers();

const HEARTBEAT_MD = `${WORLD_HEARTBEAT_MD}\n## Heartbeat\n- Breaker after: off\n`;
const T0 = Date.parse('2026-02-19T14:00:00Z');
const at = (minutes: number): string => new Date(T0 + minutes * 60_000).toISOString();

interface CycleJson {
  status: string;
  findings: { category: string; subject: string }[];
  inhibited: { category: string; subject: string; by: string }[];
  resolved: { fingerprint: string; line: string }[];
  delivery: string;
  routes?: { route: string; sink: string; delivery: string; id: string; findings: number; resolved: number }[];
  message?: { content: string };
}

function cycleIn(w: CliWorld, minutes: number, ...extra: string[]) {
  return built.runAt(
    at(minutes),
    ['cycle', '--cwd', w.project, '--tmux-socket', w.tmuxSocket, '--state', join(w.root, 'hb', 'state.json'), ...extra],
    w.env,
  );
}

describe('inhibition: the tmux server killed (issue 27 item 5)', () => {
  it('says one TMUX_DOWN, not one ORCH_FAILURE per session, and says it once', async () => {
    const sessions = ['orch-a', 'orch-b', 'orch-c'];
    const w = createCliWorld({ heartbeatMd: `${HEARTBEAT_MD}\n## Orchestrators\n- Expected: ${sessions.join(', ')}\n`, sessions });
    const quiet = await cycleIn(w, 0);
    expect(quiet.stdout).toBe('HEARTBEAT_OK\n');

    w.tmux('kill-server');
    const down = await cycleIn(w, 10, '--json');
    expect(down.code).toBe(0);
    const out = JSON.parse(down.stdout) as CycleJson;
    expect(out.findings.map((f) => f.category)).toEqual(['TMUX_DOWN']);
    expect(out.inhibited.map((i) => [i.category, i.subject, i.by])).toEqual(sessions.map((s) => ['ORCH_FAILURE', s, 'TMUX_DOWN']));
    expect(out.message?.content.split('\n')[0]).toBe('WORK_FOUND: TMUX_DOWN');
    expect(out.message?.content).not.toContain('MISSING:');

    // Text mode, the next cycle: still one cause, reported once (the dedup window holds it back).
    const text = await cycleIn(w, 20);
    expect(text.stdout).toBe('HEARTBEAT_OK\n');
  });
});

describe('routing by priority and recovery notices (issue 27 items 4 and 6)', () => {
  const stale = { dir: 'wt-stale', branch: 'feature-stale', commitAt: new Date(T0 - 3 * 3_600_000), dirty: true };
  const crashWorld = () =>
    createCliWorld({
      heartbeatMd: HEARTBEAT_MD,
      // `keeper` keeps the server up: this is one orchestrator crashing, not tmux going away.
      sessions: ['keeper', 'orch-auth'],
      inProgress: [{ id: 'beads-a3m9', title: 'JWT middleware', priority: 1, assignee: 'orch-auth', started_at: '2026-02-19T13:00:00Z' }],
      worktrees: [stale],
    });

  it('a crash goes to the webhook route, the stale worktree to the file route; the crash clears → exactly one RESOLVED line', async () => {
    const w = crashWorld();
    const phone = await startReceiver(() => 200);
    const inbox = join(w.root, 'agent-inbox.jsonl');
    const routes = ['--route', `Immediate=webhook:${phone.url}`, '--route', `Advisory=file:${inbox}`];
    // The orchestrator's pane dies: its session is gone while its bead is still in progress.
    w.tmux('kill-session', '-t', '=orch-auth');

    const first = await cycleIn(w, 0, ...routes, '--json');
    expect(first.code).toBe(0);
    const out = JSON.parse(first.stdout) as CycleJson;
    expect(out.routes?.map((r) => [r.route, r.sink, r.delivery, r.findings])).toEqual([
      ['Immediate', 'webhook', 'delivered', 1],
      ['Advisory', 'file', 'delivered', 1],
    ]);
    expect(new Set(out.routes?.map((r) => r.id)).size).toBe(2);
    expect(phone.reports).toHaveLength(1);
    expect(phone.reports[0]?.content.split('\n')[0]).toBe('WORK_FOUND: ORCH_FAILURE');
    expect(phone.reports[0]?.content).toContain('CRASHED: orch-auth (bead beads-a3m9 still in_progress)');
    expect(phone.reports[0]?.content).not.toContain('GIT_STALE');
    const filed = fileSinkMessages(inbox);
    expect(filed.map((m) => m.content.split('\n')[0])).toEqual(['WORK_FOUND: GIT_STALE']);

    // The orchestrator is re-launched: the crash clears.
    w.tmux('new-session', '-d', '-s', 'orch-auth', '-x', '80', '-y', '20');
    const cleared = await cycleIn(w, 10, ...routes);
    expect(cleared.code).toBe(0);
    expect(cleared.stderr).toContain('heartbeat-kit cycle: route Immediate: delivered to webhook (0 findings, 1 resolved;');
    expect(phone.reports).toHaveLength(2);
    const resolvedLines = phone.reports[1]!.content.split('\n').filter((l) => l.startsWith('RESOLVED: '));
    expect(resolvedLines).toEqual(['RESOLVED: CRASHED: orch-auth (bead beads-a3m9 still in_progress)']);
    // The advisory route had nothing new to say; the stale worktree is still there, within its dedup window.
    expect(fileSinkMessages(inbox)).toHaveLength(1);

    // Later cycles: no second RESOLVED for the same clear.
    const later = await cycleIn(w, 20, ...routes);
    expect(later.stdout).toBe('HEARTBEAT_OK\n');
    expect(phone.reports).toHaveLength(2);
    // Each route has its own entry in the slot's receipt: its message id and outcome.
    const history = await built.run(['history', '--state', join(w.root, 'hb', 'state.json'), '--now', at(30), '--json'], w.env);
    const receipts = (JSON.parse(history.stdout) as { receipts: { routes?: { route: string; delivery: string; id: string }[] }[] })
      .receipts;
    const withRoutes = receipts.filter((r) => r.routes !== undefined);
    expect(withRoutes.map((r) => r.routes?.map((x) => `${x.route}:${x.delivery}`))).toEqual([
      ['Immediate:delivered', 'Advisory:delivered'],
      ['Immediate:delivered'],
    ]);
  });

  it("one route's webhook refusing never holds the other back: the file route is delivered, the refused one retried next cycle", async () => {
    const w = crashWorld();
    w.tmux('kill-session', '-t', '=orch-auth');
    const phone = await startReceiver((r) => r.status);
    phone.status = 503;
    const inbox = join(w.root, 'agent-inbox.jsonl');
    const routes = ['--route', `Immediate=webhook:${phone.url}`, '--route', `Advisory=file:${inbox}`];

    const refused = await cycleIn(w, 0, ...routes, '--json');
    expect(refused.code).toBe(3);
    const out = JSON.parse(refused.stdout) as CycleJson;
    expect(out.delivery).toBe('failed');
    expect(out.routes?.map((r) => [r.route, r.delivery])).toEqual([
      ['Immediate', 'failed'],
      ['Advisory', 'delivered'],
    ]);
    // The route's own retries: three attempts, all refused.
    expect(phone.reports.map((r) => r.status)).toEqual([503, 503, 503]);
    expect(fileSinkMessages(inbox).map((m) => m.content.split('\n')[0])).toEqual(['WORK_FOUND: GIT_STALE']);
    const history = await built.run(['history', '--state', join(w.root, 'hb', 'state.json'), '--now', at(5)], w.env);
    // Each route's outcome, and why the failed one failed.
    expect(history.stdout).toMatch(
      /delivery failed \(Immediate → webhook failed: webhook \S+ failed after 3 attempt\(s\): HTTP 503, Advisory → file delivered\)/,
    );

    // The phone answers again: only the undelivered crash goes out; the advisory is not sent twice.
    phone.status = 200;
    const retried = await cycleIn(w, 10, ...routes, '--json');
    expect(retried.code).toBe(0);
    const again = JSON.parse(retried.stdout) as CycleJson;
    expect(again.routes?.map((r) => [r.route, r.delivery])).toEqual([['Immediate', 'delivered']]);
    expect(phone.reports.at(-1)?.content).toContain('CRASHED: orch-auth');
    expect(fileSinkMessages(inbox)).toHaveLength(1);
  });

  it("--sink-auth-env's header goes to the --sink webhook only, never to a route's host", async () => {
    const w = crashWorld();
    w.tmux('kill-session', '-t', '=orch-auth');
    const main = await startReceiver(() => 200);
    const phone = await startReceiver(() => 200);
    const run = await built.runAt(
      at(0),
      [
        'cycle',
        '--cwd',
        w.project,
        '--tmux-socket',
        w.tmuxSocket,
        '--state',
        join(w.root, 'hb', 'state.json'),
        '--sink',
        `webhook:${main.url}`,
        '--sink-auth-env',
        'HOOK_AUTH',
        '--route',
        `Immediate=webhook:${phone.url}`,
      ],
      { ...w.env, HOOK_AUTH: 'Bearer s3cret' },
    );
    expect(run.code).toBe(0);
    expect(main.reports.map((r) => [r.content.split('\n')[0], r.headers.authorization])).toEqual([
      ['WORK_FOUND: GIT_STALE', 'Bearer s3cret'],
    ]);
    expect(phone.reports.map((r) => [r.content.split('\n')[0], r.headers.authorization])).toEqual([
      ['WORK_FOUND: ORCH_FAILURE', undefined],
    ]);
  });

  it('bad --route values exit 2 naming the flag and the fix, and write nothing', async () => {
    const w = crashWorld();
    for (const bad of ['Urgent=stdout', 'Immediate', 'Immediate=smoke-signal']) {
      const run = await cycleIn(w, 0, '--route', bad);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/--route .*Fix: /);
      expect(run.stdout).toBe('');
    }
    const twice = await cycleIn(w, 0, '--route', 'Immediate=stdout', '--route', 'immediate=stdout');
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('--route Immediate is given twice. Fix: one --route per priority class.');
    expect(() => readFileSync(join(w.root, 'hb', 'state.json'))).toThrow();
  });

  it('HEARTBEAT.md ## Delivery routes the same way; a bad line names the file, line, key and the fix', async () => {
    const w = crashWorld();
    const inbox = join(w.root, 'delivery-inbox.jsonl');
    w.tmux('kill-session', '-t', '=orch-auth');
    const md = join(w.root, 'routes.md');
    writeFileSync(md, `${HEARTBEAT_MD}\n## Delivery\n- Advisory: file:${inbox}\n`);
    const run = await cycleIn(w, 0, '--config', md, '--json');
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout) as CycleJson;
    // The crash has no route of its own: it goes to the default (stdout, here the JSON object itself).
    expect(out.routes?.map((r) => [r.route, r.sink, r.delivery])).toEqual([
      ['Advisory', 'file', 'delivered'],
      ['default', 'stdout', 'delivered'],
    ]);
    expect(fileSinkMessages(inbox).map((m) => m.content.split('\n')[0])).toEqual(['WORK_FOUND: GIT_STALE']);

    writeFileSync(md, `${HEARTBEAT_MD}\n## Delivery\n- Immediate: pager\n`);
    const bad = await cycleIn(w, 10, '--config', md);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/routes\.md:\d+: .*Immediate.*is not a sink.*write stdout, file:PATH, webhook:/);
  });
});
