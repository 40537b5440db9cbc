/**
 * Issue 27 "Must show", as one operator's session with the built bin run as a process over a real
 * git repository and a real tmux server on a private socket; every write happens at its instant
 * through libfaketime (`built.runAt`), never `--now` (a rehearsal). Read-only commands
 * (history, plan, check-liveness) judge "as at" an instant with `--now`.
 *
 * 1. A GIT_STALE finding is reported (to the Advisory route, file:B), acked for 4 h with a note:
 *    not reported at the next cycles, held in `--json` and `history`, counted by `check-liveness`,
 *    listed by `plan` with the slot the ack ends in. The worktree gets a new change: reported at once.
 * 2. A pause for 1 h: paused receipts, `check-liveness` exit 0 naming the pause, `plan` showing it; resume.
 * 3. An orchestrator crash (its tmux session dies while its bead is in progress) goes to the Immediate
 *    route (file:A), an advisory in the same cycle to file:B; the crash clears: exactly one RESOLVED line.
 * 4. The tmux server killed (`tmux -L sock kill-server`): one finding, not one per session.
 *
 * With HK_SESSION_TRANSCRIPT=1 the session's outputs are printed (for the docs and notes).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBuiltCli, useCliWorlds, type BinRun, type CliWorld } from './support/cli-world.js';
import { fileSinkMessages } from './support/file-sink.js';
import { commitInWorktree, WORLD_HEARTBEAT_MD } from './support/world.js';

const createCliWorld = useCliWorlds();
const built = useBuiltCli();

const T0 = Date.parse('2026-02-19T14:00:00Z');
const at = (minutes: number): string => new Date(T0 + minutes * 60_000).toISOString();
const NOTE = 'rebasing feature-x tonight';
const PAUSE_NOTE = 'deploying the new runner';

/** Routes by priority in HEARTBEAT.md: Immediate → file:A (a phone's inbox), Advisory → file:B (an agent's). */
function heartbeatMd(routeA: string, routeB: string, expected?: readonly string[]): string {
  return [
    WORLD_HEARTBEAT_MD,
    '## Heartbeat',
    '- Breaker after: off',
    '',
    '## Scan Parameters',
    ...(expected === undefined ? [] : ['', '### Orchestrators', `- Expected: ${expected.join(', ')}`]),
    // A pane's last change is real time while the cycles run at their fake instants: no ORCH_IDLE noise.
    '',
    '### Idle Orchestrators',
    '- Threshold: 1440 minutes with no tool calls',
    '',
    '## Delivery',
    `- Immediate: file:${routeA}`,
    `- Advisory: file:${routeB}`,
    '',
  ].join('\n');
}

interface CycleJson {
  status: string;
  findings: { category: string; subject: string; fingerprint: string }[];
  suppressed: { fingerprint: string; held?: string; ack?: { by: string; note: string; until?: string } }[];
  inhibited: { category: string; subject: string; by: string }[];
  routes?: { route: string; sink: string; delivery: string; findings: number; resolved: number }[];
  message: { findings?: { id: string; fingerprint: string }[] } | null;
}

function transcript(label: string, run: BinRun): BinRun {
  if (process.env.HK_SESSION_TRANSCRIPT === '1')
    process.stdout.write(`\n$ ${label}  (exit ${run.code})\n${run.stdout}${run.stderr === '' ? '' : `[stderr]\n${run.stderr}`}`);
  return run;
}

function session(w: CliWorld) {
  const env = { ...w.env, USER: 'alice' };
  const statePath = join(w.root, 'hb', 'state.json');
  const scope = ['--cwd', w.project, '--state', statePath];
  /** A real command at minute `m` (the OS clock stopped there). */
  const runAt = async (m: number, ...argv: string[]) =>
    transcript(`[${at(m)}] heartbeat-kit ${argv.join(' ')}`, await built.runAt(at(m), argv, env));
  /** A read-only command judging as at minute `m`. */
  const asAt = async (m: number, ...argv: string[]) =>
    transcript(`heartbeat-kit ${argv.join(' ')}`, await built.run([...argv, ...scope, '--now', at(m)], env));
  const cycle = (m: number, ...extra: string[]) => runAt(m, 'cycle', ...scope, '--tmux-socket', w.tmuxSocket, ...extra);
  return { env, statePath, scope, runAt, asAt, cycle };
}

/** A world with routes by priority written into its HEARTBEAT.md: Immediate → file:A, Advisory → file:B. */
function routedWorld(spec: Parameters<typeof createCliWorld>[0], expected?: readonly string[]) {
  const w = createCliWorld(spec);
  const inboxA = join(w.root, 'phone-inbox.jsonl');
  const inboxB = join(w.root, 'agent-inbox.jsonl');
  writeFileSync(join(w.project, '.claude', 'HEARTBEAT.md'), heartbeatMd(inboxA, inboxB, expected));
  return { w, inboxA, inboxB };
}

const firstLines = (path: string): string[] => fileSinkMessages(path).map((m) => m.content.split('\n')[0]!);

describe('an operator session (issue 27 "Must show")', () => {
  it('ack, change, pause, resume, a routed crash and exactly one RESOLVED line', async () => {
    const { w, inboxA, inboxB } = routedWorld({
      // `keeper` keeps the tmux server up: the crash is one orchestrator's, not tmux going away.
      sessions: ['keeper', 'orch-auth'],
      inProgress: [{ id: 'beads-a3m9', title: 'JWT middleware', priority: 1, assignee: 'orch-auth', started_at: '2026-02-19T13:00:00Z' }],
      worktrees: [{ dir: 'wt-feature', branch: 'feature-x', commitAt: new Date('2026-02-19T10:00:00Z'), dirty: true }],
    });
    const { scope, runAt, asAt, cycle } = session(w);
    const worktree = join(w.root, 'wt-feature');

    // 1. The stale worktree is reported, to the Advisory route (file:B).
    const first = await cycle(0, '--json');
    expect(first.code).toBe(0);
    const reported = JSON.parse(first.stdout) as CycleJson;
    expect(reported.findings.map((f) => f.category)).toEqual(['GIT_STALE']);
    const fingerprint = reported.findings[0]!.fingerprint;
    expect(reported.routes?.map((r) => [r.route, r.sink, r.delivery, r.findings])).toEqual([['Advisory', 'file', 'delivered', 1]]);
    expect(firstLines(inboxB)).toEqual(['WORK_FOUND: GIT_STALE']);
    const id = reported.message?.findings?.find((f) => f.fingerprint === fingerprint)?.id ?? fingerprint;

    // Acked for 4 h with a note, by the id the report printed.
    const acked = await runAt(2, 'ack', id, '--for', '4h', '--note', NOTE, ...scope, '--json');
    expect(acked.code).toBe(0);
    const ack = (JSON.parse(acked.stdout) as { ack: { id: string; until: string } }).ack;
    expect(ack.until).toBe(at(242));

    // Not reported at the next cycles, past the 30-minute dedup window: held, and said so.
    const held = await cycle(40);
    expect(held.code).toBe(0);
    expect(held.stdout).toBe('HEARTBEAT_OK\n');
    expect(held.stderr).toContain(`held by ack ${ack.id}: ${fingerprint} (alice, until ${at(242)}: ${NOTE})`);
    const heldJson = JSON.parse((await cycle(50, '--json')).stdout) as CycleJson;
    expect(heldJson.status).toBe('ok');
    expect(heldJson.suppressed.find((s) => s.fingerprint === fingerprint)).toMatchObject({
      held: 'ack',
      ack: { by: 'alice', note: NOTE, until: at(242) },
    });
    expect(firstLines(inboxB)).toHaveLength(1);
    const history = await asAt(55, 'history');
    expect(history.stdout).toContain(`held by ack: ${fingerprint} (alice, until ${at(242)}: ${NOTE})`);

    // check-liveness counts what the acks hold; plan lists the ack and the slot it ends in.
    const live = await asAt(55, 'check-liveness');
    expect(live.code).toBe(0);
    expect(live.stdout).toMatch(/^alive: cycle #3 ran at /);
    expect(live.stdout).toContain("\nheld by acks: 1 finding (1 ack in force; see 'heartbeat-kit ack --list')\n");
    const liveJson = JSON.parse((await asAt(55, 'check-liveness', '--json')).stdout) as { acks: unknown };
    expect(liveJson.acks).toEqual({ inForce: 1, held: [fingerprint] });
    const plan = await asAt(55, 'plan', '--hours', '5');
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain(`  ${ack.id}  ${id}  by alice, until ${at(242)}, ends in the slot at ${at(250)}: ${NOTE}\n`);
    const planJson = JSON.parse((await asAt(55, 'plan', '--hours', '5', '--json')).stdout) as { acks: unknown[] };
    expect(planJson.acks).toEqual([expect.objectContaining({ id: ack.id, by: 'alice', note: NOTE, until: at(242), endsInSlot: at(250) })]);

    // The worktree gets a new change (still old enough to be stale): reported at once, to file:B.
    commitInWorktree(worktree, 'more.txt', '2026-02-19T11:00:00Z');
    const changed = await cycle(60);
    expect(changed.code).toBe(0);
    expect(changed.stderr).not.toContain('held by ack');
    expect(firstLines(inboxB)).toEqual(['WORK_FOUND: GIT_STALE', 'WORK_FOUND: GIT_STALE']);
    const afterChange = JSON.parse((await asAt(61, 'check-liveness', '--json')).stdout) as { acks: unknown };
    expect(afterChange.acks).toEqual({ inForce: 1, held: [] });

    // 2. A pause for 1 h: paused receipts, check-liveness exit 0 naming it, plan showing it.
    const paused = await runAt(62, 'pause', ...scope, '--for', '1h', '--note', PAUSE_NOTE);
    expect(paused).toMatchObject({ code: 0, stdout: `paused until ${at(122)}: ${PAUSE_NOTE}\n` });
    for (const m of [70, 80]) {
      const slot = await cycle(m);
      expect(slot.code).toBe(0);
      expect(slot.stdout).toBe('');
      expect(slot.stderr).toContain(`paused until ${at(122)}: ${PAUSE_NOTE}; this slot did not run`);
    }
    const pausedLive = await asAt(85, 'check-liveness', '--max-age', '10m');
    expect(pausedLive.code).toBe(0);
    expect(pausedLive.stdout.split('\n')[0]).toBe(`paused until ${at(122)}: ${PAUSE_NOTE}`);
    const pausedPlan = await asAt(85, 'plan', '--hours', '1');
    expect(pausedPlan.stdout).toContain(`Operator pause: paused until ${at(122)}: ${PAUSE_NOTE}`);
    expect(pausedPlan.stdout).toContain(`\n${at(90)} … ${at(120)} (4 slots)  paused: paused until ${at(122)}: ${PAUSE_NOTE}`);
    expect(pausedPlan.stdout).toContain(`\n${at(130)} … ${at(140)} (2 slots)  runs: inside active hours`);
    const receipts = (JSON.parse((await asAt(86, 'history', '--json')).stdout) as { receipts: { kind: string; note?: string }[] }).receipts;
    expect(receipts.map((r) => r.kind)).toEqual(['ran', 'ran', 'ran', 'ran', 'paused', 'paused']);
    expect(receipts.at(-1)).toMatchObject({ kind: 'paused', note: PAUSE_NOTE });

    // Resume.
    const resumed = await runAt(90, 'resume', ...scope);
    expect(resumed.code).toBe(0);

    // 3. The orchestrator's session dies while its bead is in progress; the worktree changes again.
    w.tmux('kill-session', '-t', '=orch-auth');
    commitInWorktree(worktree, 'again.txt', '2026-02-19T12:00:00Z');
    const crash = await cycle(100, '--json');
    expect(crash.code).toBe(0);
    const crashJson = JSON.parse(crash.stdout) as CycleJson;
    expect(crashJson.routes?.map((r) => [r.route, r.sink, r.delivery, r.findings])).toEqual([
      ['Immediate', 'file', 'delivered', 1],
      ['Advisory', 'file', 'delivered', 1],
    ]);
    expect(firstLines(inboxA)).toEqual(['WORK_FOUND: ORCH_FAILURE']);
    expect(fileSinkMessages(inboxA)[0]?.content).toContain('CRASHED: orch-auth (bead beads-a3m9 still in_progress)');
    expect(fileSinkMessages(inboxA)[0]?.content).not.toContain('GIT_STALE');
    expect(firstLines(inboxB)).toHaveLength(3);
    expect(fileSinkMessages(inboxB).at(-1)?.content).not.toContain('CRASHED');

    // The orchestrator is re-launched: the crash clears → exactly one RESOLVED line, on its route.
    w.tmux('new-session', '-d', '-s', 'orch-auth', '-x', '80', '-y', '20');
    expect((await cycle(110)).code).toBe(0);
    expect((await cycle(120)).code).toBe(0);
    expect((await cycle(130)).code).toBe(0);
    const resolved = [...fileSinkMessages(inboxA), ...fileSinkMessages(inboxB)].flatMap((m) =>
      m.content.split('\n').filter((line) => line.startsWith('RESOLVED: ')),
    );
    expect(resolved).toEqual(['RESOLVED: CRASHED: orch-auth (bead beads-a3m9 still in_progress)']);
    expect(fileSinkMessages(inboxA)).toHaveLength(2);
    transcript('file:A (Immediate) messages', {
      code: 0,
      stdout: `${fileSinkMessages(inboxA)
        .map((m) => m.content)
        .join('\n---\n')}\n`,
      stderr: '',
    });
    transcript('file:B (Advisory) messages', {
      code: 0,
      stdout: `${fileSinkMessages(inboxB)
        .map((m) => m.content)
        .join('\n---\n')}\n`,
      stderr: '',
    });
  }, 900_000);

  it('the tmux server killed: one finding on the Immediate route, not one per session', async () => {
    const sessions = ['orch-a', 'orch-b', 'orch-c'];
    const { w, inboxA, inboxB } = routedWorld({ sessions }, sessions);
    const { cycle } = session(w);
    expect((await cycle(0)).stdout).toBe('HEARTBEAT_OK\n');

    // The real thing: `tmux -L <socket> kill-server`.
    w.tmux('kill-server');
    const down = await cycle(10, '--json');
    expect(down.code).toBe(0);
    const out = JSON.parse(down.stdout) as CycleJson;
    expect(out.findings.map((f) => f.category)).toEqual(['TMUX_DOWN']);
    expect(out.inhibited.map((i) => [i.category, i.subject, i.by])).toEqual(sessions.map((s) => ['ORCH_FAILURE', s, 'TMUX_DOWN']));
    expect(firstLines(inboxA)).toEqual(['WORK_FOUND: TMUX_DOWN']);
    expect(fileSinkMessages(inboxA)[0]?.content).not.toMatch(/MISSING:|CRASHED:/);
    expect(fileSinkMessages(inboxB)).toEqual([]);
    // The next cycle: the same one cause, not said again inside its dedup window.
    expect((await cycle(20)).stdout).toBe('HEARTBEAT_OK\n');
    expect(fileSinkMessages(inboxA)).toHaveLength(1);
  }, 900_000);

  it('check-liveness warns about an ack with no end older than --max-pause-age, and never changes its exit for it', async () => {
    const { w } = routedWorld({
      worktrees: [{ dir: 'wt-feature', branch: 'feature-x', commitAt: new Date('2026-02-19T10:00:00Z'), dirty: true }],
    });
    const { scope, runAt, asAt, cycle } = session(w);
    expect((await cycle(0)).code).toBe(0);
    expect((await runAt(1, 'ack', 'GIT_STALE', '--note', 'known, ignore', ...scope)).code).toBe(0);
    expect((await cycle(40)).stderr).toContain('held by ack');
    const fresh = await asAt(50, 'check-liveness', '--max-pause-age', '24h');
    expect(fresh.code).toBe(0);
    expect(fresh.stderr).not.toContain('is it forgotten?');
    const old = await asAt(25 * 60, 'check-liveness', '--max-age', '48h', '--max-pause-age', '24h');
    expect(old.code).toBe(0);
    expect(old.stdout.split('\n')[1]).toBe("held by acks: 1 finding (1 ack in force; see 'heartbeat-kit ack --list')");
    expect(old.stderr).toMatch(
      /warning: ack ack-[0-9a-f]+ \(GIT_STALE\) has no end and was written 24 h ago \(2026-02-19T14:01:00\.000Z\), longer than 24 h: is it forgotten\? Fix: 'heartbeat-kit unack ack-[0-9a-f]+'/,
    );
    const json = JSON.parse((await asAt(25 * 60, 'check-liveness', '--max-age', '48h', '--json')).stdout) as {
      live: boolean;
      acks: unknown;
    };
    expect(json).toMatchObject({ live: true, acks: { inForce: 1, held: [expect.stringMatching(/^GIT_STALE:/)] } });
    // Not alive: the acks are still said, the exit is still 1.
    const stopped = await asAt(25 * 60, 'check-liveness', '--json');
    expect(stopped.code).toBe(1);
    expect(JSON.parse(stopped.stdout)).toMatchObject({ live: false, acks: { inForce: 1 } });
  }, 900_000);
});
