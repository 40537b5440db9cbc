import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { useBuiltCli, useCliWorlds } from './support/cli-world.js';
import { WORLD_HEARTBEAT_MD } from './support/world.js';

interface ShownFinding {
  readonly subject: string;
  readonly line: string;
}
interface CheckRunJson {
  readonly status: string;
  readonly form?: string;
  readonly findings: ShownFinding[];
  readonly problem?: { readonly message: string };
}

const newWorld = useCliWorlds();
const cli = useBuiltCli();
const EXAMPLES = resolve(import.meta.dirname, '..', '..', '..', 'examples', 'checks');

// A gh double: answers `gh run list` and `gh pr list` with the JSON gh 2.x prints for the fields the
// examples ask for (from FAKE_GH_RUNS / FAKE_GH_PRS), and refuses any other arguments.
const FAKE_GH = `#!/usr/bin/env node
const args = process.argv.slice(2).join(' ');
if (args === 'run list --branch main --limit 10 --json databaseId,status,conclusion,displayTitle,url') process.stdout.write(process.env.FAKE_GH_RUNS + '\\n');
else if (args === 'pr list --search review:required draft:false --json number,title,url,createdAt,author') process.stdout.write(process.env.FAKE_GH_PRS + '\\n');
else { process.stderr.write('fake gh: unexpected arguments: ' + args + '\\n'); process.exitCode = 1; }
`;

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((done) => server.close(done));
});

async function loopback(status: () => number): Promise<string> {
  const server = createServer((_req, res) => {
    res.statusCode = status();
    res.end('ok\n');
  });
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/health`;
}

function worldWith(checks: string) {
  const world = newWorld({ heartbeatMd: `${WORLD_HEARTBEAT_MD}\n## Checks\n${checks}` });
  const bin = join(world.root, 'gh-double');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'gh'), FAKE_GH);
  chmodSync(join(bin, 'gh'), 0o755);
  return { world, env: (extra: Record<string, string>) => ({ ...world.env, PATH: `${bin}:${world.env.PATH ?? ''}`, ...extra }) };
}

async function checkRun(world: { project: string }, env: Record<string, string | undefined>, name: string) {
  const run = await cli.run(['check', 'run', name, '--cwd', world.project, '--json'], env);
  return { code: run.code, stderr: run.stderr, shown: JSON.parse(run.stdout) as CheckRunJson };
}

describe('examples/checks, each through `heartbeat-kit check run` (issue 28 item 6)', () => {
  it('disk usage over a threshold (df): a JSON-line finding at the limit, quiet above 100 %', async () => {
    const { world, env } = worldWith(
      `- name: disk\n  - run: [sh, ${EXAMPLES}/disk-usage.sh, /, "0"]\n- name: disk-ok\n  - run: [sh, ${EXAMPLES}/disk-usage.sh, /, "101"]\n`,
    );
    const full = await checkRun(world, env({}), 'disk');
    expect(full.code).toBe(0);
    expect(full.shown).toMatchObject({ status: 'ok', form: 'json-lines' });
    expect(full.shown.findings).toEqual([expect.objectContaining({ category: 'CHECK_DISK', subject: '/', decision: 'report' })]);
    expect(full.shown.findings[0]?.line).toMatch(/^disk \/ is \d+% full \(limit 0%\)$/);
    const ok = await checkRun(world, env({}), 'disk-ok');
    expect(ok.shown).toMatchObject({ status: 'ok', form: 'quiet', findings: [] });
  });

  it('a failing CI run on main (gh run list --json, against the gh double): found when red, quiet when green, a problem when gh fails', async () => {
    const { world, env } = worldWith(`- name: ci\n  - run: [node, ${EXAMPLES}/ci-failed.mjs, main]\n  - priority: Advisory\n`);
    const red = JSON.stringify([
      { databaseId: 9, status: 'in_progress', conclusion: '', displayTitle: 'wip', url: 'https://github.com/o/r/actions/runs/9' },
      {
        databaseId: 8,
        status: 'completed',
        conclusion: 'failure',
        displayTitle: 'fix parser',
        url: 'https://github.com/o/r/actions/runs/8',
      },
    ]);
    const failed = await checkRun(world, env({ FAKE_GH_RUNS: red }), 'ci');
    expect(failed.shown.findings).toEqual([
      expect.objectContaining({
        subject: 'main',
        priority: 'Advisory',
        line: 'CI failure on main: fix parser (https://github.com/o/r/actions/runs/8)',
      }),
    ]);
    const green = JSON.stringify([{ databaseId: 10, status: 'completed', conclusion: 'success', displayTitle: 'ok', url: 'u' }]);
    expect((await checkRun(world, env({ FAKE_GH_RUNS: green }), 'ci')).shown).toMatchObject({ status: 'ok', form: 'quiet' });
    const broken = await checkRun(world, env({ FAKE_GH_RUNS: 'not json' }), 'ci');
    expect(broken.code).toBe(3);
    expect(broken.shown.problem?.message).toMatch(/^check ci exited 1: gh run list failed/);
  });

  it('an HTTP endpoint (curl -fsS against a loopback server): quiet on 200, a plain-text finding on 503', async () => {
    let status = 200;
    const url = await loopback(() => status);
    const { world, env } = worldWith(`- name: staging\n  - run: [sh, ${EXAMPLES}/http-up.sh, "${url}"]\n  - priority: Immediate\n`);
    expect((await checkRun(world, env({}), 'staging')).shown).toMatchObject({ status: 'ok', form: 'quiet', findings: [] });
    status = 503;
    const down = await checkRun(world, env({}), 'staging');
    expect(down.shown).toMatchObject({ status: 'ok', form: 'text' });
    expect(down.shown.findings).toEqual([expect.objectContaining({ priority: 'Immediate', subject: 'staging', decision: 'report' })]);
    expect(down.shown.findings[0]?.line).toMatch(new RegExp(`^${url.replace(/[.?]/g, '\\$&')} is down: curl: \\(22\\) .*503`));
  });

  it('pull requests waiting for review (gh pr list --json, against the gh double): one finding per stale PR', async () => {
    const { world, env } = worldWith(`- name: stale-prs\n  - run: [node, ${EXAMPLES}/stale-prs.mjs, "2"]\n`);
    const prs = JSON.stringify([
      { number: 12, title: 'old one', url: 'https://github.com/o/r/pull/12', createdAt: '2020-01-01T00:00:00Z', author: { login: 'ann' } },
      { number: 13, title: 'fresh', url: 'https://github.com/o/r/pull/13', createdAt: new Date().toISOString(), author: { login: 'bob' } },
    ]);
    const shown = (await checkRun(world, env({ FAKE_GH_PRS: prs }), 'stale-prs')).shown;
    expect(shown.findings.map((f) => f.subject)).toEqual(['#12']);
    expect(shown.findings[0]?.line).toMatch(
      /^PR #12 "old one" by ann waits for review \(\d+ days\): https:\/\/github\.com\/o\/r\/pull\/12$/,
    );
    expect((await checkRun(world, env({ FAKE_GH_PRS: '[]' }), 'stale-prs')).shown).toMatchObject({ form: 'quiet', findings: [] });
  });
});
