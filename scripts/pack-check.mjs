// `pnpm pack:check` (part of `pnpm test`, after `pnpm build`): the path from this repository to a
// user's own project, checked for real. Packs every package with `pnpm pack` (which rewrites
// workspace:* to versions), installs the CLI's tarballs with npm into an empty directory — without
// the optional @heartbeat-kit/bullmq — and there runs `npx heartbeat-kit cycle` over a fresh git
// repository, `fleet` (which must say how to add bullmq), and the README's embed example.
// Prints the install size (packages, du of node_modules). Keeps nothing unless --keep.
// Usage: node scripts/pack-check.mjs [--keep]
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { transformSync } from 'esbuild';

const root = join(import.meta.dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'hk-pack-check-'));
const keep = process.argv.includes('--keep');
const failures = [];
const check = (ok, what, detail = '') => {
  process.stdout.write(`${ok ? 'ok  ' : 'FAIL'} ${what}${ok || detail === '' ? '' : `\n${detail}`}\n`);
  if (!ok) failures.push(what);
};
const run = (cmd, args, cwd, env = {}) =>
  spawnSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false', ...env },
  });

try {
  // 1. Pack every package (workspace:* becomes the version).
  const tarballs = join(work, 'tarballs');
  mkdirSync(tarballs);
  for (const name of readdirSync(join(root, 'packages')).sort()) {
    execFileSync('npx', ['-y', 'pnpm@10.34.9', 'pack', '--pack-destination', tarballs], {
      cwd: join(root, 'packages', name),
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  const tgz = (prefix) => join(tarballs, readdirSync(tarballs).find((f) => f.startsWith(prefix)) ?? `${prefix}missing.tgz`);
  const cli = [
    'heartbeat-kit-0',
    'heartbeat-kit-core-',
    'heartbeat-kit-runbook-',
    'heartbeat-kit-scanners-',
    'heartbeat-kit-woterclip-',
  ].map(tgz);
  const bullmq = tgz('heartbeat-kit-bullmq-');
  for (const file of readdirSync(tarballs)) {
    const manifest = execFileSync('tar', ['-xOzf', join(tarballs, file), 'package/package.json'], { encoding: 'utf8' });
    check(!manifest.includes('workspace:'), `${file}: no workspace: ranges left`);
  }

  // 2. An empty project installs the CLI alone with npm.
  const project = join(work, 'my-project');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'my-project', private: true, type: 'module' }, null, 2));
  const install = run('npm', ['install', ...cli], project);
  check(install.status === 0, 'npm install of the CLI tarballs (without @heartbeat-kit/bullmq)', install.stderr);
  const count = run('npm', ['ls', '--all', '--parseable'], project).stdout.trim().split('\n').length - 1;
  const size = run('du', ['-sh', 'node_modules'], project).stdout.split('\t')[0];
  process.stdout.write(`     install size of the CLI alone: ${count} packages, ${size} node_modules\n`);

  // 3. `npx heartbeat-kit cycle` over a fresh repository with one commit.
  const repo = join(work, 'repo');
  mkdirSync(repo);
  for (const args of [
    ['init', '-q'],
    ['-c', 'user.name=t', '-c', 'user.email=t@t.invalid', 'commit', '-q', '--allow-empty', '-m', 'first'],
  ])
    execFileSync('git', args, { cwd: repo });
  const cycle = run('npx', ['--no-install', 'heartbeat-kit', 'cycle', '--cwd', repo], project);
  check(
    cycle.status === 0 && /^(HEARTBEAT_OK|WORK_FOUND: )/.test(cycle.stdout),
    'npx heartbeat-kit cycle --cwd <fresh repo>',
    `exit ${cycle.status}\n${cycle.stdout}${cycle.stderr}`,
  );
  check(!/at .+\(.+:\d+:\d+\)|Cannot find/.test(cycle.stderr), 'cycle prints no stack trace', cycle.stderr);
  // 3b. The bin is bundled (packages/cli/tsup.config.ts): a cycle loads the bin's own files and
  // no module of another package (not zod's ~95 files, not neverthrow's CommonJS build, whose
  // ES import starts Node's WebAssembly export lexer). A load hook lists every module loaded.
  const loadedList = join(work, 'cycle-modules.txt');
  writeFileSync(
    join(work, 'list-modules.mjs'),
    "import { register } from 'node:module';\nregister('./list-modules-hooks.mjs', import.meta.url);\n",
  );
  writeFileSync(
    join(work, 'list-modules-hooks.mjs'),
    "import { appendFileSync } from 'node:fs';\nexport async function load(url, context, next) {\n" +
      '  appendFileSync(process.env.HK_MODULE_LIST, `${url}\\n`);\n  return next(url, context);\n}\n',
  );
  const listed = run(
    'node',
    ['--import', join(work, 'list-modules.mjs'), join(project, 'node_modules/heartbeat-kit/bin/heartbeat-kit.js'), 'cycle', '--cwd', repo],
    project,
    { HK_MODULE_LIST: loadedList },
  );
  const ownDir = `${pathToFileURL(join(project, 'node_modules/heartbeat-kit')).href}/`;
  const foreign = (listed.status === 0 ? readFileSync(loadedList, 'utf8') : '')
    .split('\n')
    .filter((url) => url !== '' && !url.startsWith('node:') && !url.startsWith(ownDir));
  check(
    listed.status === 0 && foreign.length === 0,
    'cycle loads only the bundled bin (no module from another package)',
    `exit ${listed.status} ${listed.stderr}\n${foreign.join('\n')}`,
  );
  const fleet = run('npx', ['--no-install', 'heartbeat-kit', 'fleet', 'list'], project);
  check(
    fleet.status === 2 && /Fix: npm install @heartbeat-kit\/bullmq@/.test(fleet.stderr),
    'fleet without @heartbeat-kit/bullmq says how to add it (exit 2)',
    `exit ${fleet.status}\n${fleet.stderr}`,
  );

  // 4. The README's embed example, as a user would run it after compiling it.
  const example = readFileSync(join(root, 'examples/embed-custom-orchestrator/src/readme-example.ts'), 'utf8');
  writeFileSync(join(project, 'embed.mjs'), transformSync(example, { loader: 'ts', format: 'esm', target: 'node20' }).code);
  const embed = run('node', ['embed.mjs'], project);
  check(
    embed.status === 0 &&
      embed.stdout
        .split('\n')
        .map((l) => l.trimEnd())
        .join('\n') === '1 report INBOX_WAITING\n2 ok\n3 ok\nonline, work_found, shutdown\n',
    "the README's embed example prints what the README says",
    `exit ${embed.status}\n${embed.stdout}${embed.stderr}`,
  );

  // 4b. The scanners' Node adapters resolve under ./node, and the deprecated ./execa alias is the same module.
  const subpaths = run(
    'node',
    [
      '--input-type=module',
      '-e',
      "const a = await import('@heartbeat-kit/scanners/node'); const b = await import('@heartbeat-kit/scanners/execa');" +
        ' console.log(typeof a.nodeFileExists, a.nodeFileExists === b.nodeFileExists);',
    ],
    project,
  );
  check(
    subpaths.status === 0 && subpaths.stdout.trim() === 'function true',
    '@heartbeat-kit/scanners/node resolves and ./execa is its alias',
    `exit ${subpaths.status}\n${subpaths.stdout}${subpaths.stderr}`,
  );

  // 5. Adding the optional package makes fleet available.
  const add = run('npm', ['install', bullmq], project);
  check(add.status === 0, 'npm install of @heartbeat-kit/bullmq', add.stderr);
  const help = run('npx', ['--no-install', 'heartbeat-kit', 'fleet', '--help'], project);
  check(
    help.status === 0 && help.stdout.startsWith('Usage: heartbeat-kit fleet'),
    'fleet --help once bullmq is installed',
    `${help.stdout}${help.stderr}`,
  );
} finally {
  if (keep) process.stdout.write(`kept ${work}\n`);
  else rmSync(work, { recursive: true, force: true });
}
process.stdout.write(
  failures.length === 0
    ? 'pack:check: the packed packages install and run in an empty project\n'
    : `pack:check: ${failures.length} check(s) failed\n`,
);
process.exit(failures.length === 0 ? 0 : 1);
