import { chmodSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBuiltCli, useCliWorlds } from './support/cli-world.js';

// The bin as a real process: only the bin starts a cycle's commands while Node loads the command.
const cli = useBuiltCli();
const createCliWorld = useCliWorlds({ endProcesses: true });
const NOW = '2026-02-19T14:50:00.000Z';

/** A world whose fake bd logs each run's arguments before replaying its fixtures. */
function worldWithBdLog() {
  const world = createCliWorld({
    ready: [{ id: 'hk-1', title: 'Ready work', priority: 1 }],
    inProgress: [{ id: 'hk-2', title: 'Started', priority: 2, assignee: 'orch-a', started_at: '2026-02-19T09:00:00Z' }],
    sessions: ['orch-a'],
  });
  const log = join(world.root, 'bd-runs.log');
  renameSync(join(world.fakeBin, 'bd'), join(world.fakeBin, 'bd-replay'));
  writeFileSync(join(world.fakeBin, 'bd'), `#!/bin/sh\necho "$*" >> '${log}'\nexec '${join(world.fakeBin, 'bd-replay')}' "$@"\n`);
  chmodSync(join(world.fakeBin, 'bd'), 0o755);
  const bdRuns = (): string[] => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []);
  // `--now` first: a real run at that instant (the OS clock stopped there); with --dry-run, the rehearsal flag itself.
  const cycle = async (...extra: string[]) => {
    const argv = ['cycle', '--cwd', world.project, '--tmux-socket', world.tmuxSocket];
    const run =
      extra[0] === '--now' && !extra.includes('--dry-run')
        ? await cli.runAt(extra[1] as string, [...argv, ...extra.slice(2)], world.env)
        : await cli.run([...argv, ...extra], world.env);
    expect(run.code, run.stderr).toBe(0);
    return run;
  };
  // One directory per user, which only that user can write (issue 25 item 1).
  const planDir = join(world.project, '.git', 'heartbeat-kit', `prefetch-${process.geteuid?.() ?? 0}`);
  const plans = () => readdirSync(planDir).filter((name) => name.startsWith('cycle-prefetch-'));
  return { world, bdRuns, cycle, plans, planDir };
}

/** The `prefetch` field of a cycle's JSON. */
const prefetchOf = (stdout: string): unknown => (JSON.parse(stdout) as { prefetch?: unknown }).prefetch;

/** What a cycle decided and looked at, without its timings. */
function verdict(stdout: string) {
  const out = JSON.parse(stdout) as { status: string; findings: unknown[]; scanners: { name: string; status: string }[]; message: unknown };
  return { status: out.status, findings: out.findings, scanners: out.scanners.map((s) => [s.name, s.status]), message: out.message };
}

describe('a cycle starts the last cycle’s first listings while Node loads the command', () => {
  it('reports exactly what a cycle without the plan reports, and runs each listing once', async () => {
    const { world, bdRuns, cycle, plans, planDir } = worldWithBdLog();
    const first = await cycle('--now', NOW, '--json');
    // The first cycle had no plan: only the project lookup's git rev-parse started early.
    expect(prefetchOf(first.stdout)).toEqual({ started: 1, claimed: 1 });
    expect(plans()).toHaveLength(1);
    // A fresh state (the plan stays): the dry runs below report the world's findings again.
    rmSync(join(world.project, '.git', 'heartbeat-kit', 'state.json'));

    const before = bdRuns().length;
    const early = await cycle('--now', NOW, '--json', '--dry-run');
    // rev-parse, bd ready, bd list, tmux list-sessions, git worktree list: all started early, all taken.
    expect(prefetchOf(early.stdout)).toEqual({ started: 5, claimed: 5 });
    expect(bdRuns().slice(before).sort()).toEqual(['list --status=in_progress --json --limit 0', 'ready --json']);

    rmSync(join(planDir, plans()[0] ?? ''));
    const late = await cycle('--now', NOW, '--json', '--dry-run');
    expect(prefetchOf(late.stdout)).toEqual({ started: 1, claimed: 1 });
    expect(verdict(early.stdout)).toEqual(verdict(late.stdout));
    expect(verdict(early.stdout).findings.length).toBeGreaterThan(0);
  });

  it('never starts a command the cycle would not run: not outside active hours, not after the config changed', async () => {
    const { world, cycle } = worldWithBdLog();
    // 21:30 UTC, inside the world's 8–22 hours: the plan holds the day's listings (git worktree list too).
    await cycle('--now', '2026-02-19T21:30:00.000Z', '--json');
    // 22:05, outside: the git scanners do not run, so the day's plan is over; only the lookup starts early.
    const night = await cycle('--now', '2026-02-19T22:05:00.000Z', '--json');
    expect(prefetchOf(night.stdout)).toEqual({ started: 1, claimed: 1 });
    // The night's own plan: what runs outside the hours (bd ready, bd list, tmux), all taken.
    const later = await cycle('--now', '2026-02-19T22:20:00.000Z', '--json');
    expect(prefetchOf(later.stdout)).toEqual({ started: 4, claimed: 4 });
    // HEARTBEAT.md edited since the plan: nothing starts before the new config is read.
    const config = join(world.project, '.claude', 'HEARTBEAT.md');
    writeFileSync(config, `${readFileSync(config, 'utf8')}\n## Environment\n- Allow: BEADS_DIR\n`);
    const edited = await cycle('--now', '2026-02-19T22:30:00.000Z', '--json');
    expect(prefetchOf(edited.stdout)).toEqual({ started: 1, claimed: 1 });
  });
});
