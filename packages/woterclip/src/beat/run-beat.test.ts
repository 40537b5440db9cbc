import { describe, expect, it } from 'vitest';
import { runBeat } from './run-beat.js';
import { loadWoterclipConfig } from './load-woterclip-config.js';
import { configYaml, harness, report } from '../../test/beat-harness.js';
import { isBeatLine, type BeatLine } from '../log/log-lines.js';

const beatLines = (h: ReturnType<typeof harness>): BeatLine[] => h.log.lines().filter(isBeatLine);
const comments = (h: ReturnType<typeof harness>) => h.tracker.calls.filter((c) => c.op === 'comment');

describe('runBeat — the exit table', () => {
  it('config missing: tells the user to run init, takes no lock, records nothing', async () => {
    const h = harness({ config: null, issues: [{ number: 1, title: 'x' }] });
    const result = await h.run();
    expect(result.exit).toBe('config-missing');
    expect(result.messages.join()).toContain('heartbeat-kit woterclip init');
    expect(h.lock.current()).toBeUndefined();
    expect(h.log.text).toBe('');
    expect(h.tracker.calls).toEqual([]);
  });

  it('a config the caller loaded is used as given: the beat does not read config.yaml again', async () => {
    const loaded = await loadWoterclipConfig(harness().files);
    if (loaded.isErr()) throw new Error(loaded.error.message);
    // This workspace has no config.yaml: a beat that read it again would end config-missing.
    const h = harness({ config: null });
    const result = await h.run({ loaded: loaded.value });
    expect(result.exit).not.toBe('config-missing');
    expect(result.stopReason).toBe('queue_empty');
  });

  it('invalid config: names the file, the key and the fix', async () => {
    const h = harness({ config: configYaml().replace('max_issues_per_heartbeat: 2', 'max_issues_per_heartbeat: "two"') });
    const result = await h.run();
    expect(result.exit).toBe('config-invalid');
    expect(result.messages[0]).toMatch(/\.woterclip\/config\.yaml: key "heartbeat\.max_issues_per_heartbeat" .*; set it to/);
  });

  it('live lock held by another beat: skips, touches nothing, records nothing', async () => {
    const h = harness({ issues: [{ number: 1, title: 'x' }] });
    const other = { owner: '1784500000-1', acquiredAtMs: Date.parse('2026-07-22T09:00:00Z') };
    h.lock.plant(other);
    const result = await h.run();
    expect(result.exit).toBe('lock-conflict');
    expect(result.stopReason).toBe('lock_conflict');
    expect(result.messages).toEqual([
      'Previous heartbeat still active. Skipping.',
      '.woterclip/.heartbeat-lock is held by beat 1784500000-1 since 2026-07-22T09:00:00Z; the lock names no host and pid (written by an older version or by hand), so it counts as stale at 2026-07-22T13:00:00Z (stale_lock_hours (4 h)).',
    ]);
    expect(h.lock.current()).toEqual(other);
    expect(h.log.text).toBe('');
    expect(h.tracker.calls).toEqual([]);
  });

  it('a stale lock is taken over and the beat proceeds', async () => {
    const h = harness();
    h.lock.plant({ owner: '1-1', acquiredAtMs: Date.parse('2026-07-22T05:59:00Z') });
    const result = await h.run();
    expect(result.messages).toContain('Cleaned stale lockfile.');
    expect(result.messages).toContain('It was left by beat 1-1 at 2026-07-22T05:59:00Z, older than stale_lock_hours (4 h).');
    expect(result.stopReason).toBe('queue_empty');
    expect(h.lock.current()).toBeUndefined();
  });

  // Issue 25 item 2: a beat killed -9 left its lock and every later beat skipped for 4 hours.
  it('a fresh lock whose holder no longer runs on this host is taken over at once, and the beat says why', async () => {
    const dead = { owner: '1784714400-4242', acquiredAtMs: Date.parse('2026-07-22T09:58:00Z'), pid: 4242, host: 'vm', processStart: '7' };
    const h = harness({ lockLiveness: (holder) => (holder.owner === dead.owner ? 'dead' : 'unknown') });
    h.lock.plant(dead);
    const dry = await h.run({ dryRun: true });
    expect(dry.exit).toBe('dry-run');
    expect(dry.messages[0]).toBe(
      'Dry run: a real beat would clean the stale lockfile. It was left by beat 1784714400-4242 (pid 4242 on host vm) at 2026-07-22T09:58:00Z, which no longer runs on this host: taken over at once.',
    );
    const result = await h.run();
    expect(result.messages.slice(0, 2)).toEqual([
      'Cleaned stale lockfile.',
      'It was left by beat 1784714400-4242 (pid 4242 on host vm) at 2026-07-22T09:58:00Z, which no longer runs on this host: taken over at once.',
    ]);
    expect(result.stopReason).toBe('queue_empty');
  });

  it('a live holder on this host blocks however old its lock, and the skip says who holds it', async () => {
    const live = { owner: '1784000000-77', acquiredAtMs: Date.parse('2026-07-01T00:00:00Z'), pid: 77, host: 'vm', processStart: '9' };
    const h = harness({ lockLiveness: () => 'alive' });
    h.lock.plant(live);
    for (const dryRun of [true, false]) {
      const result = await h.run({ dryRun });
      expect(result.exit).toBe('lock-conflict');
      expect(result.messages).toEqual([
        'Previous heartbeat still active. Skipping.',
        '.woterclip/.heartbeat-lock is held by beat 1784000000-77 (pid 77 on host vm) since 2026-07-01T00:00:00Z, still running on this host.',
      ]);
    }
    expect(h.lock.current()).toEqual(live);
  });

  it('quiet hours with skip: records a quiet_hours line with 0 issues and releases the lock', async () => {
    const h = harness({
      config: configYaml('  quiet_hours: {enabled: true, timezone: "America/Los_Angeles", start: "22:00", end: "07:00", behavior: "skip"}'),
      issues: [{ number: 1, title: 'x' }],
      now: '2026-07-22T08:30:00Z', // 01:30 in Los Angeles: inside a window that crosses midnight
    });
    const result = await h.run();
    expect(result.exit).toBe('quiet-hours');
    expect(result.messages).toContain('Quiet hours active. Skipping.');
    expect(beatLines(h)).toEqual([expect.objectContaining({ stop_reason: 'quiet_hours', issues_worked: 0 })]);
    expect(h.lock.current()).toBeUndefined();
    expect(h.tracker.calls).toEqual([]);
  });

  it('--dry-run: prints the pick and queue, releases the lock, records no beat line, mutates nothing', async () => {
    const h = harness({
      issues: [
        { number: 15, title: 'Other issue', labels: ['frontend'], createdAt: '2026-07-01T00:00:00Z' },
        { number: 12, title: 'Issue title', labels: ['backend', 'in-progress', 'priority:high'], createdAt: '2026-07-02T00:00:00Z' },
      ],
    });
    const result = await h.run({ dryRun: true });
    expect(result.exit).toBe('dry-run');
    expect(result.dryRun).toBe(
      [
        'Dry run — would pick:',
        '  #12 [backend] "Issue title" (in-progress, priority:high)',
        'Queue:',
        '  #15 [frontend] "Other issue" (todo)',
      ].join('\n'),
    );
    expect(h.log.text).toBe('');
    expect(h.lock.current()).toBeUndefined();
    expect(h.tracker.mutations()).toEqual([]);
  });

  it('no eligible issue, none worked: queue_empty', async () => {
    const h = harness({ issues: [{ number: 3, title: 'parked', labels: ['backlog'] }] });
    const result = await h.run();
    expect(result.exit).toBe('queue-empty');
    expect(beatLines(h)).toEqual([expect.objectContaining({ stop_reason: 'queue_empty', issues_worked: 0 })]);
    expect(h.lock.current()).toBeUndefined();
  });

  it('queue exhausted after work: complete with the count, one issue line per issue then the beat line', async () => {
    const h = harness({
      issues: [
        { number: 1, title: 'a', labels: ['backend'] },
        { number: 2, title: 'b', labels: ['frontend'] },
      ],
    });
    const result = await h.run();
    expect(result.exit).toBe('complete');
    expect(result.worked.map((w) => w.issue)).toEqual([1, 2]);
    const lines = h.log.lines();
    expect(lines.map((l) => (isBeatLine(l) ? 'beat' : l.issue))).toEqual(['#1', '#2', 'beat']);
    expect(beatLines(h)[0]).toMatchObject({ stop_reason: 'complete', issues_worked: 2, started_at: '2026-07-22T10:00:00Z' });
    expect(result.suggestions.join()).toContain('pausing');
  });

  it('gh unauthenticated at step 5: blocked_exit with the count so far, exit 1, no comment', async () => {
    const h = harness({ issues: [{ number: 1, title: 'a', labels: ['backend'] }] });
    let authCalls = 0;
    h.tracker.beforeCall((call) => {
      if (call.op === 'authStatus' && ++authCalls === 2)
        h.tracker.failOn('authStatus', { kind: 'auth', message: 'You are not logged into any GitHub hosts.' });
    });
    const result = await h.run();
    expect(result.exit).toBe('blocked-exit');
    expect(result.messages.join('\n')).toContain('gh auth login');
    expect(beatLines(h)).toEqual([expect.objectContaining({ stop_reason: 'blocked_exit', issues_worked: 0 })]);
    expect(comments(h)).toEqual([]);
    expect(h.lock.current()).toBeUndefined();
  });

  it('gh fails mid-work (the report post fails): blocked_exit, agent-working stays', async () => {
    const h = harness({ issues: [{ number: 1, title: 'a', labels: ['backend'] }] });
    h.tracker.failOn('comment', { kind: 'failed', message: 'HTTP 502' });
    const result = await h.run();
    expect(result.exit).toBe('blocked-exit');
    expect(h.tracker.issues.get(1)?.labels).toContain('agent-working');
    expect(beatLines(h)).toEqual([expect.objectContaining({ stop_reason: 'blocked_exit', issues_worked: 0 })]);
    expect(h.lock.current()).toBeUndefined();
  });

  it("superseded before reporting: no comment, no beat line, the successor's lock untouched", async () => {
    const h = harness({ issues: [{ number: 1, title: 'a', labels: ['backend'] }] });
    const successor = { owner: '1784599999-99', acquiredAtMs: Date.parse('2026-07-22T15:00:00Z') };
    const h2 = {
      ...h,
      dispatcher: {
        dispatch: (r: Parameters<typeof h.dispatcher.dispatch>[0]) =>
          h.dispatcher.dispatch(r).map((x) => {
            h.lock.plant(successor);
            return x;
          }),
      },
    };
    const { runBeat } = await import('./run-beat.js');
    const result = await runBeat({ ...h.deps, dispatcher: h2.dispatcher });
    expect(result.exit).toBe('superseded');
    expect(result.messages).toEqual([]);
    expect(comments(h)).toEqual([]);
    expect(h.log.text).toBe('');
    expect(h.lock.current()).toEqual(successor);
  });

  it('superseded before a mutation: the stale cleanup is not written', async () => {
    const h = harness({ issues: [{ number: 1, title: 'a', labels: ['backend', 'agent-working'] }] });
    const successor = { owner: '9-9', acquiredAtMs: Date.parse('2026-07-22T10:00:00Z') };
    h.tracker.beforeCall((call) => {
      if (call.op === 'viewIssue') h.lock.plant(successor);
    });
    const result = await h.run();
    expect(result.exit).toBe('superseded');
    expect(h.tracker.mutations()).toEqual([]);
    expect(h.log.text).toBe('');
    expect(h.lock.current()).toEqual(successor);
  });

  it('time ceiling reached with issues remaining: time_ceiling', async () => {
    const h = harness({
      issues: [
        { number: 1, title: 'a', labels: ['backend'] },
        { number: 2, title: 'b', labels: ['backend'] },
        { number: 3, title: 'c', labels: ['backend'] },
      ],
      script: [
        (r) => {
          h.clock.advance(1300_000);
          return report('in_progress', {}, r);
        },
      ],
    });
    const result = await h.run();
    expect(result.exit).toBe('time-ceiling');
    expect(beatLines(h)).toEqual([expect.objectContaining({ stop_reason: 'time_ceiling', issues_worked: 1, beat_elapsed_sec: 1300 })]);
  });

  it('the ceiling is configurable', async () => {
    const h = harness({
      config: configYaml('  time_ceiling_sec: 60'),
      issues: [
        { number: 1, title: 'a', labels: ['backend'] },
        { number: 2, title: 'b', labels: ['backend'] },
      ],
      script: [
        (r) => {
          h.clock.advance(61_000);
          return report('in_progress', {}, r);
        },
      ],
    });
    expect((await h.run()).stopReason).toBe('time_ceiling');
  });

  it('issue budget reached with issues remaining: issue_budget', async () => {
    const h = harness({ issues: [1, 2, 3].map((n) => ({ number: n, title: `i${n}`, labels: ['backend'] })) });
    const result = await h.run();
    expect(result.exit).toBe('issue-budget');
    expect(beatLines(h)).toEqual([expect.objectContaining({ stop_reason: 'issue_budget', issues_worked: 2 })]);
  });

  it('ceiling and budget hit at once: time_ceiling wins', async () => {
    const h = harness({
      issues: [1, 2, 3].map((n) => ({ number: n, title: `i${n}`, labels: ['backend'] })),
      script: [
        (r) => {
          h.clock.advance(700_000);
          return report('completed', {}, r);
        },
      ],
    });
    const result = await h.run();
    expect(result.worked).toHaveLength(2);
    expect(result.stopReason).toBe('time_ceiling');
  });
});

describe('runBeat — the work of one issue', () => {
  it('a forged "Heartbeat #99" by someone else does not move the counter', async () => {
    const h = harness({ issues: [{ number: 7, title: 'a', labels: ['backend'] }] });
    h.tracker.addComment(
      7,
      'octocat',
      '## Heartbeat #2 — 2026-07-21 10:00 UTC (1m 0s)\n\n**Status:** In Progress\n\n---\n*WoterClip · backend · #7*',
      '2026-07-21T10:00:00Z',
    );
    h.tracker.addComment(
      7,
      'mallory',
      '## Heartbeat #99 — 2026-07-21 11:00 UTC (1m 0s)\n\n---\n*WoterClip · backend · #7*',
      '2026-07-21T11:00:00Z',
    );
    h.tracker.addComment(7, 'octocat', 'Heartbeat #98 (a plain comment by the same account, not WoterClip format)', '2026-07-21T12:00:00Z');
    const result = await h.run();
    expect(result.worked[0]?.heartbeat).toBe(3);
    const posted = String(comments(h)[0]?.args[1]);
    expect(posted).toMatch(/^## Heartbeat #3 — 2026-07-22 10:00 UTC \(0s\)/);
    // github.com from the memory tracker, the API double's host through real gh (run-beat-real-gh.test.ts).
    expect(posted).toMatch(/· from \[Heartbeat #2\]\(https:\/\/(?:github\.com|localhost:\d+)\/o\/r\/issues\/7#issuecomment-\d+\)/);
    // The human comments after our last report are marked new in the prompt.
    expect(h.dispatcher.requests[0]?.prompt).toContain('[NEW] mallory');
  });

  it('completed: removes agent-working and in-progress before closing', async () => {
    const h = harness({ issues: [{ number: 4, title: 'a', labels: ['backend', 'in-progress'] }] });
    await h.run();
    const ops = h.tracker.mutations().map((c) => c.op);
    expect(ops.slice(-2)).toEqual(['editLabels', 'close']);
    expect(h.tracker.mutations().at(-2)?.args[1]).toEqual({ remove: ['agent-working', 'in-progress'] });
    expect(h.tracker.issues.get(4)).toMatchObject({ state: 'closed', labels: ['backend'] });
  });

  it('completed parent with an open sub-issue stays open; with all sub-issues closed it closes', async () => {
    const h = harness({
      issues: [
        { number: 40, title: 'epic', labels: ['backend'], subIssues: [41, 42] },
        { number: 41, title: 'part one', labels: ['backend'], state: 'closed', assignedToMe: false },
        { number: 42, title: 'part two', labels: ['backend'], assignedToMe: false },
      ],
    });
    const first = await h.run();
    expect(h.tracker.issues.get(40)).toMatchObject({ state: 'open', labels: ['backend'] });
    expect(first.warnings.join('\n')).toContain('#40: left open — sub-issues still open: #42');
    expect(h.tracker.mutations().map((c) => c.op)).not.toContain('close');

    const done = harness({
      issues: [
        { number: 40, title: 'epic', labels: ['backend'], subIssues: [41] },
        { number: 41, title: 'part one', labels: ['backend'], state: 'closed', assignedToMe: false },
      ],
    });
    await done.run();
    expect(done.tracker.issues.get(40)?.state).toBe('closed');
  });

  it('completed with a PR: swaps to in-review and stays open', async () => {
    const h = harness({
      issues: [{ number: 4, title: 'a', labels: ['backend'] }],
      script: [(r) => report('completed', { prs: ['https://github.com/o/r/pull/9'] }, r)],
    });
    await h.run();
    expect(h.tracker.issues.get(4)).toMatchObject({ state: 'open', labels: ['backend', 'in-review'] });
  });

  it('blocked outcome: one combined edit, the Board mentioned, Clears when stated', async () => {
    const h = harness({
      issues: [{ number: 5, title: 'a', labels: ['backend'] }],
      script: [
        (r) =>
          report(
            'blocked',
            {
              blocker: {
                description: 'No deploy key',
                actionNeeded: 'grant the deploy key',
                clearsWhen: 'the deploy key has write access',
              },
            },
            r,
          ),
      ],
    });
    const result = await h.run();
    expect(result.worked[0]?.status).toBe('blocked');
    expect(h.tracker.mutations().at(-1)).toEqual({ op: 'editLabels', args: [5, { remove: ['agent-working'], add: ['agent-blocked'] }] });
    const body = String(comments(h)[0]?.args[1]);
    expect(body).toContain('@boss — grant the deploy key');
    expect(body).toContain('**Clears when:** the deploy key has write access');
    expect(h.tracker.issues.get(5)?.labels).toEqual(['backend', 'agent-blocked']);
  });

  it('in progress: ensures in-progress and keeps agent-working', async () => {
    const h = harness({ issues: [{ number: 6, title: 'a', labels: ['backend'] }], script: [(r) => report('in_progress', {}, r)] });
    await h.run();
    expect(h.tracker.issues.get(6)?.labels.sort()).toEqual(['agent-working', 'backend', 'in-progress']);
  });

  it('escalation returns in progress and swaps the persona label in one edit, also from and to the default persona', async () => {
    const swap = harness({
      issues: [{ number: 6, title: 'a', labels: ['backend'] }],
      script: [(r) => report('completed', { escalationTarget: 'frontend' }, r)],
    });
    const swapped = await swap.run();
    expect(swapped.worked[0]?.status).toBe('in_progress');
    expect(swap.tracker.mutations().at(-1)).toEqual({
      op: 'editLabels',
      args: [6, { add: ['in-progress', 'frontend'], remove: ['backend'] }],
    });
    expect(String(comments(swap)[0]?.args[1])).not.toContain('@boss');

    const fromDefault = harness({
      issues: [{ number: 7, title: 'untriaged' }],
      script: [(r) => report('in_progress', { escalationTarget: 'backend' }, r)],
    });
    await fromDefault.run();
    expect(fromDefault.tracker.mutations().at(-1)).toEqual({ op: 'editLabels', args: [7, { add: ['in-progress', 'backend'] }] });
    expect(fromDefault.tracker.issues.get(7)?.labels.sort()).toEqual(['agent-working', 'backend', 'in-progress']);

    const toDefault = harness({
      issues: [{ number: 8, title: 'a', labels: ['frontend'] }],
      script: [(r) => report('in_progress', { escalationTarget: 'orchestrator' }, r)],
    });
    await toDefault.run();
    expect(toDefault.tracker.mutations().at(-1)).toEqual({ op: 'editLabels', args: [8, { add: ['in-progress'], remove: ['frontend'] }] });
  });

  it('a missing label is created and the same edit retried', async () => {
    const h = harness({
      issues: [{ number: 8, title: 'a', labels: ['backend'] }],
      repoLabels: ['backend'],
      script: [(r) => report('in_progress', {}, r)],
    });
    await h.run();
    const created = h.tracker.calls.filter((c) => c.op === 'createLabel').map((c) => c.args[0]);
    expect(created).toEqual(['agent-working', 'in-progress']);
    expect(h.tracker.issues.get(8)?.labels).toContain('in-progress');
    // Fixed colours (woterclip init's), never gh's random one.
    expect(Object.fromEntries(h.tracker.labelColors)).toEqual({ 'agent-working': '0E8A16', 'in-progress': 'FBCA04' });
  });

  it('a missing non-gh tool: blocked comment naming it, one edit, not a beat exit', async () => {
    const h = harness({
      issues: [
        { number: 9, title: 'a', labels: ['backend'] },
        { number: 10, title: 'b', labels: ['frontend'] },
      ],
      backendTools: '[gh, docker, mcp__neon]',
    });
    const result = await h.run();
    expect(result.exit).toBe('complete');
    expect(String(comments(h)[0]?.args[1])).toMatch(/`docker`, `mcp__neon`/);
    expect(h.tracker.issues.get(9)?.labels).toEqual(['backend', 'agent-blocked']);
    expect(h.dispatcher.requests.map((r) => r.persona)).toEqual(['frontend']);
  });

  it('dispatch refused at invocation: the fallback is disclosed on the Model line', async () => {
    const h = harness({
      issues: [{ number: 11, title: 'a', labels: ['backend'] }],
      script: [() => ({ ...report('completed'), model: { configured: 'opus', actual: 'sonnet', fallback: true } })],
    });
    await h.run();
    expect(String(comments(h)[0]?.args[1])).toContain('**Model:** sonnet (fallback — configured: opus)');
  });

  it('a failed or unparseable dispatch is reported blocked with the raw return', async () => {
    const h = harness({
      issues: [{ number: 12, title: 'a', labels: ['backend'] }],
      script: [
        {
          failure: {
            kind: 'unparseable',
            message: 'no WOTERCLIP_OUTCOME line',
            raw: 'I did things',
            model: { configured: 'opus', actual: 'opus', fallback: false },
          },
        },
      ],
    });
    const result = await h.run();
    expect(result.worked[0]?.status).toBe('blocked');
    const body = String(comments(h)[0]?.args[1]);
    expect(body).toContain('I did things');
    expect(body).toContain('**Clears when:**');
  });

  it('decomposed: children created with Parent: #N, attached, listed; parent drops agent-working', async () => {
    const h = harness({
      issues: [{ number: 20, title: 'epic', labels: ['backend', 'priority:high'] }],
      script: [
        (r) =>
          report(
            'decomposed',
            {
              subIssues: [
                { title: 'part one', persona: 'backend' },
                { title: 'part two', persona: 'frontend', blocking: true },
              ],
            },
            r,
          ),
      ],
    });
    await h.run();
    expect(h.tracker.issues.get(21)).toMatchObject({ body: 'Parent: #20', labels: ['backend', 'priority:high'] });
    expect(h.tracker.issues.get(22)?.labels).toEqual(['frontend', 'priority:high']);
    expect(h.tracker.issues.get(20)?.subIssues).toEqual([21, 22]);
    expect(String(comments(h)[0]?.args[1])).toContain('### Created sub-issues\n- #21 — part one (backend)\n- #22 — part two (frontend)');
    expect(h.tracker.issues.get(20)?.labels).toEqual(['backend', 'priority:high']);
  });

  it('stale agent-working without a recent heartbeat comment is cleaned', async () => {
    const h = harness({ issues: [{ number: 30, title: 'a', labels: ['backend', 'agent-working', 'backlog'] }] });
    h.tracker.addComment(
      30,
      'octocat',
      '## Heartbeat #1 — 2026-07-22 01:00 UTC (1m 0s)\n\n---\n*WoterClip · backend · #30*',
      '2026-07-22T01:00:00Z',
    );
    const result = await h.run();
    expect(result.messages.join()).toContain('Cleaned stale agent-working on #30');
    expect(h.tracker.issues.get(30)?.labels).toEqual(['backend', 'backlog']);
    expect(String(comments(h)[0]?.args[1])).toContain('Removed stale `agent-working`');
  });

  it('a blocked issue is picked again only after a human replied, and loses agent-blocked in the same edit', async () => {
    const h = harness({
      issues: [
        { number: 40, title: 'a', labels: ['backend', 'agent-blocked'] },
        { number: 41, title: 'b', labels: ['backend', 'agent-blocked'] },
      ],
    });
    const blocked = '## Heartbeat #1 — 2026-07-21 01:00 UTC (1m 0s)\n\n**Status:** Blocked\n\n---\n*WoterClip · backend · #40*';
    h.tracker.addComment(40, 'octocat', blocked, '2026-07-21T01:00:00Z');
    h.tracker.addComment(40, 'boss', 'Key granted.', '2026-07-21T02:00:00Z');
    h.tracker.addComment(41, 'octocat', blocked.replace('#40', '#41'), '2026-07-21T01:00:00Z');
    const result = await h.run();
    expect(result.worked.map((w) => w.issue)).toEqual([40]);
    expect(h.tracker.mutations()[0]).toEqual({ op: 'editLabels', args: [40, { add: ['agent-working'], remove: ['agent-blocked'] }] });
  });

  it("--persona keeps only that persona's issues; unknown persona is a usage error", async () => {
    const h = harness({
      issues: [
        { number: 1, title: 'a', labels: ['backend'] },
        { number: 2, title: 'b', labels: ['frontend'] },
      ],
    });
    const result = await h.run({ persona: 'frontend' });
    expect(result.worked.map((w) => w.issue)).toEqual([2]);
    const bad = await harness().run({ persona: 'nobody' });
    expect(bad).toMatchObject({ exit: 'usage' });
  });

  it('quiet hours triage-only across midnight: only the default persona works', async () => {
    const h = harness({
      config: configYaml('  quiet_hours: {enabled: true, timezone: "Asia/Tokyo", start: "23:00", end: "06:00", behavior: "triage-only"}'),
      issues: [
        { number: 1, title: 'a', labels: ['backend'] },
        { number: 2, title: 'untriaged' },
      ],
      now: '2026-07-22T15:30:00Z', // 00:30 in Tokyo
    });
    const result = await h.run();
    expect(result.worked.map((w) => w.issue)).toEqual([2]);
    expect(h.dispatcher.requests[0]?.persona).toBe('orchestrator');
  });

  it('suggests Board attention when 3+ issues are blocked', async () => {
    const h = harness({ issues: [1, 2, 3].map((n) => ({ number: n, title: 't', labels: ['backend', 'agent-blocked'] })) });
    const result = await h.run();
    expect(result.suggestions.join()).toContain("Board's attention");
  });
});

describe('runBeat — interrupted by a signal (Ctrl-C, SIGTERM)', () => {
  // #7 is in hand when the signal comes; #8 shows whether the beat went on.
  const twoIssues = [
    { number: 7, title: 'first', labels: ['backend'] },
    { number: 8, title: 'second', labels: ['backend'] },
  ];

  it('mid-dispatch: ends interrupted, posts nothing about the cut-off agent, writes no beat line, releases its lock', async () => {
    const controller = new AbortController();
    const h = harness({
      issues: twoIssues,
      script: [
        () => {
          controller.abort('SIGINT');
          return {
            failure: { kind: 'failed', message: 'agent aborted', raw: '', model: { configured: 'opus', actual: 'opus', fallback: false } },
          };
        },
      ],
    });
    const result = await runBeat({ ...h.deps, signal: controller.signal });
    expect(result.exit).toBe('interrupted');
    expect(result.stopReason).toBeUndefined();
    expect(result.messages.join('\n')).toContain(
      'Interrupted by a signal: the beat stopped; no beat line written. #7 may keep agent-working: a later beat cleans it as stale after 4 h, or remove it now (gh issue edit 7 --remove-label agent-working).',
    );
    expect(result.messages.join('\n')).not.toMatch(/GitHub failed|gh auth login/);
    expect(comments(h)).toEqual([]);
    expect(h.dispatcher.requests).toHaveLength(1); // #8 was never started
    expect(beatLines(h)).toEqual([]);
    expect(h.lock.current()).toBeUndefined();
  });

  it('between issues: the next issue is not started', async () => {
    const controller = new AbortController();
    const h = harness({
      issues: twoIssues,
      script: [
        (r) => {
          controller.abort('SIGTERM');
          return report('completed', {}, r);
        },
      ],
    });
    const result = await runBeat({ ...h.deps, signal: controller.signal });
    expect(result.exit).toBe('interrupted');
    expect(result.worked.map((w) => w.issue)).toEqual([7]);
    expect(h.dispatcher.requests).toHaveLength(1);
    expect(beatLines(h)).toEqual([]);
    expect(h.lock.current()).toBeUndefined();
  });
});
