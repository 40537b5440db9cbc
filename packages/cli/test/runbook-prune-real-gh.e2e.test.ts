import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { emptyRepo, startRealGhWorld, type RealGhWorld } from '../../woterclip/test/support/real-gh.js';
import { BUILT_CLI_BIN } from './support/built-cli.js';

// Issue 31 item 2: `heartbeat-kit runbook prune` (the built bin) reading PR states through the
// real gh 2.23.0 from the GitHub API double (GH_REPO names the double's repository).
const TEXT = [
  '## Active Blockers',
  '- Deploy freeze. Lift when #12 merges (check 10-25)',
  '- Flaky test. Lift when #13 merges (check 10-25)',
  '- Docs. Lift when #14 merges (check 10-25)',
  '- Unknown PR. Lift when #99 merges (check 10-25)',
  '',
].join('\n');
let world: RealGhWorld;
const dir = mkdtempSync(join(tmpdir(), 'hk-prune-real-gh-'));
beforeAll(async () => {
  world = await startRealGhWorld(
    emptyRepo({
      pulls: [
        { number: 12, state: 'MERGED', mergedAt: '2026-10-19T08:00:00Z' },
        { number: 13, state: 'CLOSED', mergedAt: null },
        { number: 14, state: 'OPEN', mergedAt: null },
      ],
    }),
  );
});
afterAll(async () => {
  const unknown = world.double.unknown;
  await world.close();
  rmSync(dir, { recursive: true, force: true });
  expect(unknown).toEqual([]);
});

const cli = (args: readonly string[]) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    const env = { ...world.env, GH_REPO: `${world.double.host}/o/r` };
    execFile(process.execPath, [BUILT_CLI_BIN, ...args], { cwd: dir, env }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr });
    });
  });

it('runbook prune through real gh: merged and closed-unmerged PR items go, the open one stays, the unknown PR is a warning', async () => {
  writeFileSync(join(dir, 'HEARTBEAT.md'), TEXT);
  const plan = await cli(['runbook', 'prune', 'HEARTBEAT.md', '--json', '--now', '2026-10-20T10:00:00Z', '--tz', 'UTC']);
  expect(plan.stderr).toBe('');
  expect(plan.code).toBe(0);
  const json = JSON.parse(plan.stdout) as { entries: { line: number; reason: string }[]; warnings: { line: number }[] };
  expect(json.entries.map((e) => [e.line, e.reason])).toEqual([
    [2, 'pr-merged'],
    [3, 'pr-closed-unmerged'],
  ]);
  expect(json.warnings.map((w) => w.line)).toEqual([5]);
  // The reads run concurrently: any order.
  expect(world.double.requests.map((r) => `${r.status} ${r.operation ?? r.path} ${JSON.stringify(r.variables ?? {})}`).sort()).toEqual(
    [12, 13, 14, 99].map((n) => `200 PullRequestByNumber {"owner":"o","pr_number":${n},"repo":"r"}`),
  );
  expect(readFileSync(join(dir, 'HEARTBEAT.md'), 'utf8')).toBe(TEXT);
});
