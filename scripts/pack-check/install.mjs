// Packs every package the way a release does and installs tarballs with npm into an empty project.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Checks, run } from './report.mjs';

/** npm without its network side trips (audit, fund, update check). */
const npmEnv = { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };

/** The name of every package under packages/, from its package.json. */
export const packageNames = (root) =>
  readdirSync(join(root, 'packages'))
    .sort()
    .map((dir) => JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8')).name);

/**
 * Packs every package with one recursive `pnpm pack` (which rewrites workspace:* to versions; one
 * pnpm start instead of six) into `dir`. Returns the tarball of a package name (npm's file name:
 * @scope/name → scope-name-VERSION.tgz).
 */
export function packAll(root, dir) {
  const checks = new Checks();
  mkdirSync(dir);
  execFileSync('npx', ['-y', 'pnpm@10.34.9', '-r', '--filter', './packages/*', 'pack', '--pack-destination', dir], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const files = readdirSync(dir);
  for (const file of files) {
    const manifest = execFileSync('tar', ['-xOzf', join(dir, file), 'package/package.json'], { encoding: 'utf8' });
    checks.check(!manifest.includes('workspace:'), `${file}: no workspace: ranges left`);
  }
  const tarball = (name) => {
    const prefix = `${name.replace(/^@/, '').replace('/', '-')}-`;
    const file = files.find((f) => f.startsWith(prefix) && /^\d/.test(f.slice(prefix.length)));
    return join(dir, file ?? `${prefix}missing.tgz`);
  };
  return { checks, tarball };
}

/** An empty project (package.json only), as a user's would be. */
export function emptyProject(dir) {
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'my-project', private: true, type: 'module' }, null, 2)}\n`);
}

/** `npm install ...tarballs` in the project; `what` names the check. */
export async function npmInstall(project, tarballs, what) {
  const checks = new Checks();
  const install = await run('npm', ['install', ...tarballs], { cwd: project, env: npmEnv, timeoutMs: 600_000 });
  checks.check(install.status === 0, what, `exit ${install.status}\n${install.stderr}`);
  return checks;
}

/** The install weight budget of the CLI without the fleet package (issue "A user's second hour", item 7). */
export const INSTALL_BUDGET_MB = 40;

/**
 * What `npm install` put on disk: the package count, the megabytes of node_modules and the three
 * heaviest packages (so a regression names its cause), as one line of text.
 */
export async function measureInstall(project) {
  const ls = await run('npm', ['ls', '--all', '--parseable'], { cwd: project, env: npmEnv });
  const du = await run('du', ['-sk', 'node_modules'], { cwd: project });
  const mb = Number.parseInt(du.stdout, 10) / 1024;
  const modules = join(project, 'node_modules');
  const heaviest = [];
  for (const name of readdirSync(modules).filter((n) => !n.startsWith('.'))) {
    const dirs = name.startsWith('@') ? readdirSync(join(modules, name)).map((m) => `${name}/${m}`) : [name];
    for (const dir of dirs) {
      const size = await run('du', ['-sk', join(modules, dir)], { cwd: project });
      heaviest.push({ dir, kb: Number.parseInt(size.stdout, 10) });
    }
  }
  const top = heaviest
    .sort((a, b) => b.kb - a.kb)
    .slice(0, 3)
    .map((h) => `${h.dir} ${(h.kb / 1024).toFixed(1)} MB`)
    .join(', ');
  return { mb, text: `${ls.stdout.trim().split('\n').length - 1} packages, ${mb.toFixed(1)} MB node_modules (heaviest: ${top})` };
}

/** The CLI's install (without the fleet package) checked against INSTALL_BUDGET_MB. */
export async function installSize(project) {
  const checks = new Checks();
  const { mb, text } = await measureInstall(project);
  const what = `install size of the CLI alone: ${text.replace('(heaviest', `(budget ${INSTALL_BUDGET_MB} MB; heaviest`)}`;
  checks.check(Number.isFinite(mb) && mb <= INSTALL_BUDGET_MB, what, `${mb.toFixed(1)} MB is over the budget: see which dependency grew`);
  return checks;
}

/**
 * No platform binary in the install (a package.json with `os` or `cpu`): none of ours needs one, and
 * neverthrow 8.1+ pulled in @rollup/rollup-linux-x64-gnu (2.3 MB) through an optional dependency.
 */
export function noNativeBinaries(project) {
  const checks = new Checks();
  const modules = join(project, 'node_modules');
  const names = readdirSync(modules)
    .filter((n) => !n.startsWith('.'))
    .flatMap((n) => (n.startsWith('@') ? readdirSync(join(modules, n)).map((m) => `${n}/${m}`) : [n]));
  const native = names.filter((name) => {
    const manifest = join(modules, name, 'package.json');
    if (!existsSync(manifest)) return false;
    const { os, cpu } = JSON.parse(readFileSync(manifest, 'utf8'));
    return os !== undefined || cpu !== undefined;
  });
  checks.check(native.length === 0, 'the CLI install holds no platform binary (no package with os/cpu)', native.join(', '));
  return checks;
}
