import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CommandRequest } from '@heartbeat-kit/core';
import { useTempDirs } from '../../test/support/cli-world.js';
import { startCyclePrefetch, type CyclePrefetch } from './cycle-prefetch.js';
import { prefetchRequest } from './prefetch-requests.js';
import { revParseRequest } from './rev-parse-request.js';

const tempDir = useTempDirs();
const NOW = '2026-02-19T14:50:00.000Z';
const HOUR = 3_600_000;
const started: CyclePrefetch[] = [];
afterEach(() => {
  for (const prefetch of started.splice(0)) prefetch.discard();
});

/** A git repository with a config file and a fake `bd` on PATH that logs each run and prints its arguments. */
function repo(toolBody = 'echo "out $*"') {
  const root = realpathSync(tempDir('hk-prefetch-'));
  const dir = join(root, 'project');
  mkdirSync(join(dir, '.claude'), { recursive: true });
  execFileSync('git', ['init', '-q', dir]);
  const config = join(dir, '.claude', 'HEARTBEAT.md');
  writeFileSync(config, '# Heartbeat\n');
  const log = join(root, 'runs.log');
  const bin = join(root, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'bd'), `#!/bin/sh\necho "$$ $*" >> '${log}'\n${toolBody}\n`);
  chmodSync(join(bin, 'bd'), 0o755);
  const env = { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` };
  const runs = (): string[] => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []);
  const listing: CommandRequest = { ...prefetchRequest('bd-ready-json', { project: dir, tmuxSocket: undefined })!, speculative: true };
  const planDir = join(dir, '.git', 'heartbeat-kit', `prefetch-${process.geteuid?.() ?? 0}`);
  const plans = (): string[] => (existsSync(planDir) ? readdirSync(planDir) : []);
  const planJson = (): Record<string, unknown> =>
    JSON.parse(readFileSync(join(planDir, plans()[0] ?? ''), 'utf8')) as Record<string, unknown>;
  return { root, dir, config, env, runs, listing, planDir, plans, planJson };
}

type Repo = ReturnType<typeof repo>;

function prefetchFor(r: Repo, argv: string[], kit = '1.2.3'): CyclePrefetch {
  const prefetch = startCyclePrefetch(argv, { cwd: r.root, env: r.env, shutdownSignal: new AbortController().signal }, kit);
  started.push(prefetch);
  return prefetch;
}

/** What one cycle leaves: it ran `requests` (recorded), then saved the plan. */
async function cycleLeavingPlan(r: Repo, argv: string[], requests: CommandRequest[], validUntilMs: number, configFile = r.config) {
  const prefetch = prefetchFor(r, argv);
  await prefetch.planned;
  for (const request of requests) prefetch.record(request, undefined);
  await prefetch.savePlan({ configFile, validUntilMs });
  prefetch.discard();
}

describe('cycle prefetch', () => {
  it('starts git rev-parse at once and hands it, once, to the project lookup’s equal request', async () => {
    const r = repo();
    const prefetch = prefetchFor(r, ['--cwd', r.dir]);
    const run = prefetch.claim(revParseRequest(r.dir), undefined);
    expect(run).toBeDefined();
    const out = (await run!)._unsafeUnwrap();
    expect(out.stdout.split('\n')[0]).toBe(r.dir);
    expect(prefetch.claim(revParseRequest(r.dir), undefined)).toBeUndefined();
    // Another environment policy (--env-allow) is another run.
    expect(prefetchFor(r, ['--cwd', r.dir]).claim(revParseRequest(r.dir), ['HOME'])).toBeUndefined();
    expect(prefetch.discard()).toEqual({ started: 1, claimed: 1 });
  });

  it('the next cycle starts what the last one recorded, built in code, and hands it only to an equal request', async () => {
    const r = repo();
    const argv = ['--cwd', r.dir, '--now', NOW];
    // A speculative request that is not one of the known listings is never planned, nor is the GChat poll.
    const unknown: CommandRequest = { file: 'sh', args: ['-c', 'echo no'], cwd: r.dir, speculative: true };
    await cycleLeavingPlan(r, argv, [unknown, r.listing, { file: 'python3', args: ['poll.py'], cwd: r.dir }], Date.parse(NOW) + HOUR);
    expect(r.runs()).toEqual([]);
    // The plan names the listing by id, and nothing a command line is made of.
    expect(r.plans()).toEqual([expect.stringMatching(/^cycle-prefetch-[0-9a-f]{8}\.json$/)]);
    const plan = r.planJson();
    expect(plan.ids).toEqual(['bd-ready-json']);
    expect(Object.keys(plan).sort()).toEqual(['config', 'envAllow', 'ids', 'key', 'kit', 'validUntilMs', 'version']);
    expect(JSON.stringify(plan)).not.toMatch(/"(?:sh|python3|bd)"|poll|--json/);
    // Only this user may enter the plan's directory or read the plan.
    expect(statSync(r.planDir).mode & 0o777).toBe(0o700);
    expect(statSync(join(r.planDir, r.plans()[0] ?? '')).mode & 0o777).toBe(0o600);

    const next = prefetchFor(r, argv);
    expect(await next.planned).toBe(1);
    expect(next.warnings()).toEqual([]);
    expect(next.claim({ ...r.listing, args: ['ready'] }, undefined)).toBeUndefined();
    expect(next.claim({ ...r.listing, cwd: r.root }, undefined)).toBeUndefined();
    expect(next.claim(r.listing, ['HOME'])).toBeUndefined();
    const out = (await next.claim(r.listing, undefined)!)._unsafeUnwrap();
    expect(out.stdout).toBe('out ready --json\n');
    expect(r.runs()).toHaveLength(1);
    expect(next.claim(r.listing, undefined)).toBeUndefined();
  });

  it('kills the runs nobody claimed', async () => {
    const r = repo('exec sleep 600');
    const argv = ['--cwd', r.dir, '--now', NOW];
    await cycleLeavingPlan(r, argv, [r.listing], Date.parse(NOW) + HOUR);
    const next = prefetchFor(r, argv);
    expect(await next.planned).toBe(1);
    const pid = Number((await waitForRun(r.runs)).split(' ')[0]);
    // Claimed (by the test) only to watch it end; the cycle's own discard kills what it did not claim.
    const run = next.claim(r.listing, undefined, AbortSignal.abort('cycle ended'));
    expect((await run!)._unsafeUnwrapErr().kind).toBe('aborted');
    await expect.poll(() => alive(pid), { timeout: 60_000 }).toBe(false);
    const other = prefetchFor(r, argv);
    expect(await other.planned).toBe(1);
    const otherPid = Number((await waitForRun(r.runs, 2)).split(' ')[0]);
    expect(other.discard()).toEqual({ started: 2, claimed: 0 });
    await expect.poll(() => alive(otherPid), { timeout: 60_000 }).toBe(false);
  });

  it('starts nothing from a plan whose config changed, whose hours are over, of another version or other flags', async () => {
    const r = repo();
    const argv = ['--cwd', r.dir, '--now', NOW];
    await cycleLeavingPlan(r, argv, [r.listing], Date.parse(NOW) + HOUR);
    expect(await prefetchFor(r, ['--cwd', r.dir, '--now', new Date(Date.parse(NOW) + HOUR).toISOString()]).planned).toBe(0);
    expect(await prefetchFor(r, argv, '9.9.9').planned).toBe(0);
    expect(await prefetchFor(r, [...argv, '--tmux-socket', 'other']).planned).toBe(0);
    expect(await prefetchFor(r, [...argv, '--env-allow', 'HOME']).planned).toBe(0);
    expect(await prefetchFor(r, [...argv, '--help']).planned).toBe(0);
    expect(await prefetchFor(r, [...argv, 'extra']).planned).toBe(0);
    expect(await prefetchFor(r, [...argv, '--no-such-option']).planned).toBe(0);
    expect(await prefetchFor(r, [...argv, '--sink']).planned).toBe(0);
    expect(await prefetchFor(r, ['--cwd', r.dir, '--now', 'not a date']).planned).toBe(0);
    expect(await prefetchFor(r, argv).planned).toBe(1);
    // A config edited since (HEARTBEAT.md may have changed the active hours or the environment policy).
    writeFileSync(r.config, '# Heartbeat\n## Active Hours\n- Start: 9\n');
    utimesSync(r.config, new Date(), new Date(Date.now() + 5_000));
    expect(await prefetchFor(r, argv).planned).toBe(0);
    // A cycle with no hours left (or a breaker open) saves an empty plan: the next one starts nothing.
    await cycleLeavingPlan(r, argv, [r.listing], Date.parse(NOW) + HOUR);
    const empty = prefetchFor(r, argv);
    expect(await empty.planned).toBe(1);
    empty.record(r.listing, undefined);
    await empty.savePlan({ configFile: r.config, validUntilMs: undefined });
    expect(r.planJson().ids).toEqual([]);
    expect(await prefetchFor(r, argv).planned).toBe(0);
    // A config other than the one the bin looks at (read from elsewhere): no plan either.
    await cycleLeavingPlan(r, argv, [r.listing], Date.parse(NOW) + HOUR, join(r.root, 'other.md'));
    expect(r.planJson().ids).toEqual([]);
    expect(await prefetchFor(r, argv).planned).toBe(0);
  });

  it('reads every option that takes a value as the command does: `--sink file:X Y` keeps the plan (issue 25 item 10b)', async () => {
    const r = repo();
    const argv = ['--cwd', r.dir, '--now', NOW];
    await cycleLeavingPlan(r, argv, [r.listing], Date.parse(NOW) + HOUR);
    for (const extra of [
      ['--sink', 'file:out.jsonl'],
      ['--sink', 'file:with space.jsonl'],
      ['--sink=file:x y'],
      ['--record', 'a b.jsonl', '--cron', '*/10 * * * *', '--operator-last-active', NOW],
      ['--operator-activity-file', 'x', '--sink-auth-env', 'H', '--json', '--dry-run'],
    ])
      expect(await prefetchFor(r, [...argv, ...extra]).planned, extra.join(' ')).toBe(1);
  });

  it('ignores, with one warning naming the file and the fix, a plan that is not exactly a plan', async () => {
    const r = repo();
    const argv = ['--cwd', r.dir, '--now', NOW];
    await cycleLeavingPlan(r, argv, [r.listing], Date.parse(NOW) + HOUR);
    const path = join(r.planDir, r.plans()[0] ?? '');
    writeFileSync(path, JSON.stringify({ ...r.planJson(), requests: [{ file: 'sh', args: ['-c', 'touch x'] }] }));
    const next = prefetchFor(r, argv);
    expect(await next.planned).toBe(0);
    expect(next.warnings()).toEqual([
      `prefetch plan ${path} ignored, nothing in it ran: it has a field a plan never has (requests). Fix: nothing to do if you edited it (a cache: the next cycle replaces it); if not, check who can write to ${r.planDir}.`,
    ]);
    // The next save replaces it, so the warning is said once.
    next.record(r.listing, undefined);
    await next.savePlan({ configFile: r.config, validUntilMs: Date.parse(NOW) + HOUR });
    const after = prefetchFor(r, argv);
    expect(await after.planned).toBe(1);
    expect(after.warnings()).toEqual([]);
    await waitForRun(r.runs);
  });

  it('ignores a plan others can write, and writes none there', async () => {
    const r = repo();
    const argv = ['--cwd', r.dir, '--now', NOW];
    await cycleLeavingPlan(r, argv, [r.listing], Date.parse(NOW) + HOUR);
    const path = join(r.planDir, r.plans()[0] ?? '');
    chmodSync(r.planDir, 0o770);
    const next = prefetchFor(r, argv);
    expect(await next.planned).toBe(0);
    expect(next.warnings()).toEqual([
      `prefetch plan ${path} ignored, nothing in it ran: its directory ${r.planDir}: it is writable by its group (mode 770). Fix: chmod go-w ${r.planDir}.`,
    ]);
    const before = readFileSync(path, 'utf8');
    await next.savePlan({ configFile: r.config, validUntilMs: undefined });
    expect(readFileSync(path, 'utf8')).toBe(before);
    expect(r.runs()).toEqual([]);
  });

  it('removes the plan an older version kept beside the state (whole command lines), and never reads it', async () => {
    const r = repo();
    const argv = ['--cwd', r.dir, '--now', NOW];
    await cycleLeavingPlan(r, argv, [r.listing], Date.parse(NOW) + HOUR);
    const name = r.plans()[0] ?? '';
    const legacy = join(r.dir, '.git', 'heartbeat-kit', name);
    writeFileSync(legacy, JSON.stringify({ version: 1, requests: [{ file: 'sh', args: ['-c', 'touch x'] }] }));
    const next = prefetchFor(r, argv);
    expect(await next.planned).toBe(1);
    await next.savePlan({ configFile: r.config, validUntilMs: undefined });
    expect(existsSync(legacy)).toBe(false);
  });

  it('outside a git repository it starts nothing and leaves no plan', async () => {
    const dir = tempDir('hk-prefetch-nogit-');
    const prefetch = startCyclePrefetch(['--cwd', dir], { cwd: dir, env: process.env, shutdownSignal: new AbortController().signal }, '1');
    started.push(prefetch);
    expect(await prefetch.planned).toBe(0);
    await prefetch.savePlan({ configFile: join(dir, 'HEARTBEAT.md'), validUntilMs: Date.now() + HOUR });
    expect(readdirSync(dir)).toEqual([]);
  });
});

/** Whether the fake tool's `sleep 600` still runs as `pid` (pids wrap at 32768 here: a reused one runs something else). */
function alive(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8') === 'sleep\u0000600\u0000';
  } catch {
    return false;
  }
}

async function waitForRun(runs: () => string[], count = 1): Promise<string> {
  await expect.poll(() => runs().length, { timeout: 60_000 }).toBeGreaterThanOrEqual(count);
  return runs()[count - 1] ?? '';
}
