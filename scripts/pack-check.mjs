// `pnpm pack:check` (part of `pnpm test`, after `pnpm build`): the path from this repository to a
// user's own project, checked for real ("what is tested is what ships"). Packs every package with
// pnpm (which rewrites workspace:* to versions) and installs the CLI's tarballs with npm into an
// empty directory, without the optional @heartbeat-kit/bullmq, @heartbeat-kit/mcp and @heartbeat-kit/otel. There, from node_modules/.bin:
//   - every command's and subcommand's --help, walked from the help output (pack-check/cli-walk.mjs);
//   - one real run of every command over fresh git repositories (pack-check/cli-*.mjs; woterclip
//     against the woterclip tests' fake gh), exit codes checked exactly, no sign of a crash (exit 70,
//     a stack trace, "internal error", "Cannot find module") on stdout or stderr;
//   - a cycle loads only the bundled bin, which holds no require shim (pack-check/bin-bundle.mjs);
//   - the README's embed example;
//   - a CommonJS project (`npm init -y`): require() of every entry, import() from a .cjs file, and
//     the README's example type-checked as a .mts file (pack-check/commonjs.mjs).
// Then it adds them, walks `fleet`'s and `mcp`'s help, runs one MCP session (pack-check/cli-mcp.mjs), imports every public entry of every
// package as ESM and type-checks them under node16 and bundler resolution (library-entries.mjs).
// One ok/FAIL line per check, printed group by group in a fixed order; exit 1 if any failed.
// Checks the install size against a budget (40 MB). Keeps nothing unless --keep.
// Usage: node scripts/pack-check.mjs [--keep]
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { binBundle } from './pack-check/bin-bundle.mjs';
import { commonjsProject } from './pack-check/commonjs.mjs';
import { fleetWithoutPackage, heartbeatCommands, loopCommand } from './pack-check/cli-heartbeat.mjs';
import { mcpSession, mcpWithoutPackage } from './pack-check/cli-mcp.mjs';
import { runbookCommands } from './pack-check/cli-runbook.mjs';
import { walkCommand, walkHelp } from './pack-check/cli-walk.mjs';
import { woterclipCommands } from './pack-check/cli-woterclip.mjs';
import { emptyProject, installSize, measureInstall, noNativeBinaries, npmInstall, packAll, packageNames } from './pack-check/install.mjs';
import { libraryEntries, readmeExample } from './pack-check/library-entries.mjs';
import { run } from './pack-check/report.mjs';

const root = join(import.meta.dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'hk-pack-check-'));
const keep = process.argv.includes('--keep');
const failures = [];
const print = (...groups) => {
  for (const group of groups) {
    if (group.lines.length > 0) process.stdout.write(`${group.lines.join('\n')}\n`);
    failures.push(...group.failed);
  }
};

try {
  const started = performance.now();
  const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
  const packages = packageNames(root);
  const optionals = ['@heartbeat-kit/bullmq', '@heartbeat-kit/mcp', '@heartbeat-kit/otel'];
  const optional = optionals.join(' and ');
  const { checks: packed, tarball } = packAll(root, join(work, 'tarballs'));
  print(packed);

  const project = join(work, 'my-project');
  emptyProject(project);
  const cli = packages.filter((name) => !optionals.includes(name));
  print(await npmInstall(project, cli.map(tarball), `npm install of the CLI tarballs (without ${optional})`));
  print(noNativeBinaries(project));
  print(await installSize(project));
  process.stdout.write(`     (installed at ${elapsed()})\n`);

  // The CLI's runs get a clean environment: a HOME of their own, no workspace bins on PATH, tmux
  // sockets under the work directory (and a private socket name), UTC.
  const home = join(work, 'home');
  mkdirSync(join(work, 'tmux'), { recursive: true });
  mkdirSync(home);
  const PATH = [
    dirname(process.execPath),
    ...(process.env.PATH ?? '').split(delimiter).filter((d) => d !== '' && !d.includes('node_modules')),
  ].join(delimiter);
  const env = { PATH, HOME: home, TZ: 'UTC', TMUX_TMPDIR: join(work, 'tmux') };
  const git = (args, cwd) => run('git', ['-c', 'user.name=pack-check', '-c', 'user.email=pack-check@invalid', ...args], { cwd, env });
  const bin = join(project, 'node_modules/.bin/heartbeat-kit');
  const ctx = {
    root,
    work,
    cwd: project,
    env,
    bin,
    version: JSON.parse(readFileSync(join(project, 'node_modules/heartbeat-kit/package.json'), 'utf8')).version,
    tmuxSocket: `hk-pack-check-${process.pid}`,
    hk: (args, options = {}) => run(bin, args, { cwd: project, env, ...options }),
    /** A fresh git repository with one commit. */
    newRepo: async (name) => {
      const repo = join(work, 'repos', name, 'repo');
      mkdirSync(repo, { recursive: true });
      await git(['init', '-q'], repo);
      await git(['commit', '-q', '--allow-empty', '-m', 'first'], repo);
      return repo;
    },
  };

  // The CLI alone: these runs are independent of each other (each has its own repository).
  const [walk, ...commands] = await Promise.all([
    walkHelp(ctx),
    heartbeatCommands(ctx),
    loopCommand(ctx),
    woterclipCommands(ctx),
    runbookCommands(ctx),
    fleetWithoutPackage(ctx),
    mcpWithoutPackage(ctx),
    binBundle(ctx),
    readmeExample(ctx),
    commonjsProject(ctx, cli.map(tarball), cli),
  ]);
  print(walk.checks, ...commands);
  process.stdout.write(`     the CLI alone: done at ${elapsed()}\n`);

  // With the optional package: the commands that needed it, and the library entries of every package.
  print(await npmInstall(project, optionals.map(tarball), `npm install of ${optional}`));
  // The figure only: the 40 MB budget is the CLI's alone.
  const withOptional = (await measureInstall(project)).text;
  process.stdout.write(`     install size with ${optional}: ${withOptional}\n`);
  const [library, session, ...deferred] = await Promise.all([
    libraryEntries(ctx, packages),
    mcpSession(ctx),
    ...walk.deferred.map((d) => walkCommand(ctx, d.deferred)),
  ]);
  print(...deferred.map((d) => d.checks), library, session);
  process.stdout.write(`     with ${optional} and the library entries: done at ${elapsed()}\n`);
} finally {
  if (keep) process.stdout.write(`kept ${work}\n`);
  else rmSync(work, { recursive: true, force: true });
}
process.stdout.write(
  failures.length === 0
    ? 'pack:check: the packed packages install and run in an empty project\n'
    : `pack:check: ${failures.length} check(s) failed:\n${failures.map((f) => `  ${f}`).join('\n')}\n`,
);
process.exit(failures.length === 0 ? 0 : 1);
