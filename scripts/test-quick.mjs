// `pnpm test:quick`: the inner loop. Type-checks the workspace, then runs the unit tests (the
// `*.test.ts` beside the code, under a package's or example's src/) of the folders whose files
// changed since the last commit, with vitest's --changed (a test runs when it imports a changed
// file). Tests elsewhere that import the change (the CLI's end-to-end suites) are left to
// `pnpm test`: through the CLI every package reaches every test, and the loop would be the suite.
// Usage: node scripts/test-quick.mjs [--since REF]   (default: uncommitted changes against HEAD)
import { execFileSync, spawnSync } from 'node:child_process';
import { argv, exit, stdout } from 'node:process';

const at = argv.indexOf('--since');
const since = at > 0 ? argv[at + 1] : 'HEAD';
const git = (...args) => execFileSync('git', args, { encoding: 'utf8' }).split('\n').filter(Boolean);
const changed = [...git('diff', '--name-only', since), ...git('ls-files', '--others', '--exclude-standard')];
// packages/<name>/… and examples/<name>/… → their src/ folder; a change elsewhere (scripts, root config) → scripts/.
const folders = [
  ...new Set(
    changed
      .map((file) => /^((?:packages|examples)\/[^/]+)\//.exec(file)?.[1])
      .map((dir) => (dir === undefined ? 'scripts/' : `${dir}/src/`)),
  ),
].sort();

const run = (cmd, args) => spawnSync(cmd, args, { stdio: 'inherit' }).status ?? 1;
if (run('tsc', ['-p', 'tsconfig.json', '--noEmit']) !== 0) exit(1);
if (folders.length === 0) {
  stdout.write(`test:quick: no file changed since ${since}; type-check passed\n`);
  exit(0);
}
stdout.write(`test:quick: unit tests importing what changed since ${since}, in ${folders.join(' ')}\n`);
exit(run('vitest', ['run', '--changed', since, '--passWithNoTests', ...folders]));
