// The installed bin's woterclip commands against a gh double: the fake gh of the woterclip tests
// (packages/woterclip/test/fixtures/fake-gh/gh.mjs, gh's output shapes and exit codes over a JSON
// state file), found on PATH as `gh`, with one open issue assigned to the authenticated account.
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Checks, parseJson } from './report.mjs';

const REPO = 'o/r';

/** The fake gh's state: the repository, the login, its labels and one issue assigned to the login. */
const ghState = () => ({
  repo: REPO,
  login: 'octocat',
  authMode: 'ok',
  seq: 100,
  argv: [],
  failures: [],
  labels: ['bug'],
  issues: [
    {
      number: 12,
      id: 3000000012,
      title: 'Retry webhooks on 502',
      body: '',
      labels: [],
      comments: [],
      createdAt: '2026-07-01T00:00:00Z',
      state: 'OPEN',
      assignees: ['octocat'],
      subIssues: [],
    },
  ],
});

/** woterclip init (with --labels, through gh), status, beat --dry-run, history; check-liveness and plan over its config. */
export async function woterclipCommands(ctx) {
  const checks = new Checks();
  const repo = await ctx.newRepo('woterclip');
  const ghBin = join(repo, '..', 'woterclip-gh-bin');
  mkdirSync(ghBin);
  symlinkSync(join(ctx.root, 'packages/woterclip/test/fixtures/fake-gh/gh.mjs'), join(ghBin, 'gh'));
  const statePath = join(repo, '..', 'woterclip-gh-state.json');
  writeFileSync(statePath, JSON.stringify(ghState()));
  const env = { ...ctx.env, PATH: `${ghBin}:${ctx.env.PATH}`, FAKE_GH_STATE: statePath };
  const hk = (...args) => ctx.hk(args, { env });
  const at = ['--cwd', repo];
  const gh = () => JSON.parse(readFileSync(statePath, 'utf8'));

  checks.run(
    'woterclip init --repo --board-user --labels: config, persona, labels through gh',
    await hk('woterclip', 'init', ...at, '--repo', REPO, '--board-user', 'boss', '--labels'),
    0,
    (r) => {
      if (!/^wrote \.woterclip\/config\.yaml$/m.test(r.stdout)) return 'no "wrote .woterclip/config.yaml" line';
      const config = readFileSync(join(repo, '.woterclip/config.yaml'), 'utf8');
      if (!config.includes(`repo: "${REPO}"`)) return `config.yaml does not name ${REPO}`;
      return ['agent-working', 'agent-blocked'].every((l) => gh().labels.includes(l)) ? '' : 'the labels were not created through gh';
    },
  );
  checks.run('woterclip status: the issue is queued for the Orchestrator', await hk('woterclip', 'status', ...at), 0, (r) =>
    /^Queue by persona:\n {2}orchestrator: #12$/m.test(r.stdout) ? '' : 'no "orchestrator: #12" under "Queue by persona:"',
  );
  checks.run('woterclip beat --dry-run: would pick the issue', await hk('woterclip', 'beat', ...at, '--dry-run'), 0, (r) =>
    /^Dry run — would pick:\n {2}#12 \[orchestrator\]/m.test(r.stdout) ? '' : 'no "#12 [orchestrator]" under "Dry run — would pick:"',
  );
  checks.run('woterclip beat --dry-run --json', await hk('woterclip', 'beat', ...at, '--dry-run', '--json'), 0, (r) => {
    const beat = parseJson(r.stdout);
    if (beat?.exit !== 'dry-run' || beat.exitCode !== 0) return 'not {"exit": "dry-run", "exitCode": 0}';
    const writes = gh().argv.filter(([group, verb]) => group === 'issue' && !['list', 'view'].includes(verb));
    return writes.length === 0 ? '' : `the dry runs changed issues through gh: ${JSON.stringify(writes)}`;
  });
  const [history, liveness, plan] = await Promise.all([
    hk('woterclip', 'history', ...at, '--json'),
    hk('check-liveness', '--woterclip', ...at),
    hk('plan', ...at, '--hours', '1'),
  ]);
  // A dry run is a rehearsal: it leaves no receipt a real beat would read (issue 26).
  checks.run('woterclip history --json: the dry runs left no receipt', history, 0, (r) => {
    const receipts = parseJson(r.stdout)?.receipts;
    return Array.isArray(receipts) && receipts.length === 0 ? '' : 'dry runs left receipts';
  });
  checks.run('check-liveness --woterclip: only dry runs, never ran (exit 1)', liveness, 1, (r) =>
    /^not alive \(never-ran\)/.test(r.stdout) ? '' : 'no "not alive (never-ran)" line',
  );
  checks.run('plan over a repository with .woterclip/config.yaml', plan, 0, (r) =>
    /^Plan from \S+ for 1 h, every 600 s: \d+ slots\n/.test(r.stdout) ? '' : 'no "Plan from … for 1 h" header',
  );
  return checks;
}
