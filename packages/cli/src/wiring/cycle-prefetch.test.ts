import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CommandRequest } from '@heartbeat-kit/core';
import { useTempDirs } from '../../test/support/cli-world.js';
import { startCyclePrefetch, type CyclePrefetch } from './cycle-prefetch.js';
import { revParseRequest } from './rev-parse-request.js';

const tempDir = useTempDirs();
const NOW = '2026-02-19T14:50:00.000Z';
const HOUR = 3_600_000;
const started: CyclePrefetch[] = [];
afterEach(() => {
  for (const prefetch of started.splice(0)) prefetch.discard();
});

/** A git repository with a config file and a fake tool that logs each run and prints its arguments. */
function repo(toolBody = 'echo "out $*"') {
  const root = tempDir('hk-prefetch-');
  const dir = join(root, 'project');
  mkdirSync(join(dir, '.claude'), { recursive: true });
  execFileSync('git', ['init', '-q', dir]);
  const config = join(dir, '.claude', 'HEARTBEAT.md');
  writeFileSync(config, '# Heartbeat\n');
  const log = join(root, 'runs.log');
  const tool = join(root, 'tool');
  writeFileSync(tool, `#!/bin/sh\necho "$$ $*" >> '${log}'\n${toolBody}\n`);
  chmodSync(tool, 0o755);
  const runs = (): string[] => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []);
  const listing: CommandRequest = { file: tool, args: ['list', '--json'], cwd: dir, profile: 'bd', speculative: true };
  return { root, dir, config, tool, runs, listing };
}

function prefetchFor(argv: string[], cwd: string, kit = '1.2.3', env: Record<string, string | undefined> = process.env): CyclePrefetch {
  const prefetch = startCyclePrefetch(argv, { cwd, env, shutdownSignal: new AbortController().signal }, kit);
  started.push(prefetch);
  return prefetch;
}

/** What one cycle leaves: it ran `request` (recorded), then saved the plan. */
async function cycleLeavingPlan(argv: string[], cwd: string, request: CommandRequest, configFile: string, validUntilMs: number) {
  const prefetch = prefetchFor(argv, cwd);
  await prefetch.planned;
  prefetch.record(request, undefined);
  await prefetch.savePlan({ configFile, validUntilMs });
  prefetch.discard();
}

describe('cycle prefetch', () => {
  it('starts git rev-parse at once and hands it, once, to the project lookup’s equal request', async () => {
    const r = repo();
    const prefetch = prefetchFor(['--cwd', r.dir], r.root);
    const run = prefetch.claim(revParseRequest(r.dir), undefined);
    expect(run).toBeDefined();
    const out = (await run!)._unsafeUnwrap();
    expect(out.stdout.split('\n')[0]).toBe(r.dir);
    expect(prefetch.claim(revParseRequest(r.dir), undefined)).toBeUndefined();
    // Another environment policy (--env-allow) is another run.
    expect(prefetchFor(['--cwd', r.dir], r.root).claim(revParseRequest(r.dir), ['HOME'])).toBeUndefined();
    expect(prefetch.discard()).toEqual({ started: 1, claimed: 1 });
  });

  it('the next cycle starts what the last one recorded, and hands it only to an equal request under the same policy', async () => {
    const r = repo();
    const argv = ['--cwd', r.dir, '--now', NOW];
    await cycleLeavingPlan(argv, r.root, r.listing, r.config, Date.parse(NOW) + HOUR);
    expect(r.runs()).toEqual([]);
    const next = prefetchFor(argv, r.root);
    expect(await next.planned).toBe(1);
    expect(next.claim({ ...r.listing, args: ['list'] }, undefined)).toBeUndefined();
    expect(next.claim({ ...r.listing, cwd: r.root }, undefined)).toBeUndefined();
    expect(next.claim(r.listing, ['HOME'])).toBeUndefined();
    const out = (await next.claim(r.listing, undefined)!)._unsafeUnwrap();
    expect(out.stdout).toBe('out list --json\n');
    expect(r.runs()).toHaveLength(1);
    expect(next.claim(r.listing, undefined)).toBeUndefined();
    // Only speculative requests are planned: one without the flag (the GChat poll) never is.
    next.record({ file: r.tool, args: ['poll'], cwd: r.dir }, undefined);
    next.record(r.listing, undefined);
    await next.savePlan({ configFile: r.config, validUntilMs: Date.parse(NOW) + HOUR });
    const plans = readdirSync(join(r.dir, '.git', 'heartbeat-kit'));
    expect(plans).toEqual([expect.stringMatching(/^cycle-prefetch-[0-9a-f]{8}\.json$/)]);
    expect(readFileSync(join(r.dir, '.git', 'heartbeat-kit', plans[0] ?? ''), 'utf8')).not.toContain('poll');
  });

  it('kills the runs nobody claimed', async () => {
    const r = repo('exec sleep 600');
    // Its own timeout far away: only the discard can end it.
    const listing = { ...r.listing, timeoutMs: 900_000 };
    const argv = ['--cwd', r.dir, '--now', NOW];
    await cycleLeavingPlan(argv, r.root, listing, r.config, Date.parse(NOW) + HOUR);
    const next = prefetchFor(argv, r.root);
    expect(await next.planned).toBe(1);
    const pid = Number((await waitForRun(r.runs)).split(' ')[0]);
    // Claimed (by the test) only to watch it end; the cycle's own discard kills what it did not claim.
    const run = next.claim(listing, undefined, AbortSignal.abort('cycle ended'));
    expect((await run!)._unsafeUnwrapErr().kind).toBe('aborted');
    // Gone well before its own 900 s timeout.
    await expect.poll(() => alive(pid), { timeout: 60_000 }).toBe(false);
    const other = prefetchFor(argv, r.root);
    expect(await other.planned).toBe(1);
    const otherPid = Number((await waitForRun(r.runs, 2)).split(' ')[0]);
    expect(other.discard()).toEqual({ started: 2, claimed: 0 });
    await expect.poll(() => alive(otherPid), { timeout: 60_000 }).toBe(false);
  });

  it('starts nothing from a plan whose config changed, whose hours are over, of another version or other flags', async () => {
    const r = repo();
    const argv = ['--cwd', r.dir, '--now', NOW];
    await cycleLeavingPlan(argv, r.root, r.listing, r.config, Date.parse(NOW) + HOUR);
    expect(await prefetchFor(['--cwd', r.dir, '--now', new Date(Date.parse(NOW) + HOUR).toISOString()], r.root).planned).toBe(0);
    expect(await prefetchFor(argv, r.root, '9.9.9').planned).toBe(0);
    expect(await prefetchFor([...argv, '--tmux-socket', 'other'], r.root).planned).toBe(0);
    expect(await prefetchFor([...argv, '--env-allow', 'HOME'], r.root).planned).toBe(0);
    expect(await prefetchFor([...argv, '--help'], r.root).planned).toBe(0);
    expect(await prefetchFor([...argv, 'extra'], r.root).planned).toBe(0);
    expect(await prefetchFor(['--cwd', r.dir, '--now', 'not a date'], r.root).planned).toBe(0);
    expect(await prefetchFor(argv, r.root).planned).toBe(1);
    // A config edited since (HEARTBEAT.md may have changed the active hours or the environment policy).
    writeFileSync(r.config, '# Heartbeat\n## Active Hours\n- Start: 9\n');
    utimesSync(r.config, new Date(), new Date(Date.now() + 5_000));
    expect(await prefetchFor(argv, r.root).planned).toBe(0);
    // A cycle with no hours left (or a breaker open) saves an empty plan: the next one starts nothing.
    const empty = prefetchFor(argv, r.root);
    expect(await empty.planned).toBe(0);
    empty.record(r.listing, undefined);
    await empty.savePlan({ configFile: r.config, validUntilMs: undefined });
    expect(await prefetchFor(argv, r.root).planned).toBe(0);
    expect(r.runs()).toHaveLength(1);
  });

  it('outside a git repository it starts nothing and leaves no plan', async () => {
    const dir = tempDir('hk-prefetch-nogit-');
    const prefetch = prefetchFor(['--cwd', dir], dir);
    expect(await prefetch.planned).toBe(0);
    await prefetch.savePlan({ configFile: join(dir, 'HEARTBEAT.md'), validUntilMs: Date.now() + HOUR });
    expect(readdirSync(dir)).toEqual([]);
    expect(prefetchFor(['--cwd', join(dir, 'missing')], dir).discard()).toEqual({ started: 0, claimed: 0 });
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
