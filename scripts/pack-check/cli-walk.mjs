// Every --help page of the installed bin, walked from the help output itself (the rule of
// scripts/cli-help-walk.ts, against the installed bin instead of main() in-process): the top page
// lists the commands two spaces in; a command page whose usage shows `<subcommand>` or `<a|b|c>`
// lists its subcommands the same way. A new command or subcommand is covered without editing this.
import { Checks, run } from './report.mjs';

const BIN = 'heartbeat-kit';

/**
 * Names listed two spaces in. A line that starts with the bin's own name is an example command
 * line (runbook's "Start here:"), not a listed command.
 */
const listedNames = (text) => [...text.matchAll(/^ {2}([a-z][a-z0-9-]*)\b/gm)].map((m) => m[1]).filter((name) => name !== BIN);

/** A command page with subcommands; the `<a|b|c>` form names them, `<subcommand>` does not. */
const subcommandsOf = (page) => {
  const usage = /<subcommand>|<([a-z-]+(?:\|[a-z-]+)+)>/.exec(page);
  return usage && { named: usage[1]?.split('|'), listed: listedNames(page) };
};

/** What a command prints when it needs an optional package that is not installed. */
const NEEDS_PACKAGE = /needs the optional package (@?[a-z0-9./_-]+)[^\n]*Fix: npm install \1@\S+/;

/** A help page's shape: stdout starts with `Usage: heartbeat-kit <argv>`. */
const usageOf = (argv) => (r) => {
  const usage = `Usage: ${BIN} ${argv.join(' ')}`;
  return r.stdout.startsWith(`${usage} `) || r.stdout.startsWith(`${usage}\n`) ? '' : `stdout does not start with "${usage}"`;
};

const help = (ctx, argv) => run(ctx.bin, [...argv, '--help'], { cwd: ctx.cwd, env: ctx.env });

/** A subcommand's page: exit 0 and its usage. */
async function subcommandPage(ctx, argv) {
  const checks = new Checks();
  checks.run(`${BIN} ${argv.join(' ')} --help`, await help(ctx, argv), 0, usageOf(argv));
  return checks;
}

/**
 * A command's page and, when it lists subcommands, each subcommand's page. With
 * `optionalMissing`, a command that says it needs an optional package (exit 2 and the npm install
 * line) is checked for that and returned as deferred, to be walked once the package is installed.
 */
export async function walkCommand(ctx, command, { optionalMissing = false } = {}) {
  const checks = new Checks();
  const result = await help(ctx, [command]);
  const needs = NEEDS_PACKAGE.exec(result.stderr);
  if (optionalMissing && needs) {
    checks.run(`${BIN} ${command} --help without ${needs[1]} says how to add it (exit 2)`, result, 2);
    return { checks, deferred: command, package: needs[1] };
  }
  const subs = checks.run(`${BIN} ${command} --help`, result, 0, usageOf([command])) ? subcommandsOf(result.stdout) : null;
  if (!subs) return { checks };
  checks.check(
    subs.listed.length > 0 && (subs.named === undefined || subs.named.join() === subs.listed.join()),
    `${BIN} ${command} --help lists the subcommands its usage names`,
    `usage names: ${subs.named?.join(', ') ?? '<subcommand>'}; listed: ${subs.listed.join(', ')}`,
  );
  checks.add(...(await Promise.all(subs.listed.map((sub) => subcommandPage(ctx, [command, sub])))));
  return { checks };
}

/**
 * The whole walk, from `heartbeat-kit --help`. Returns the commands that need an optional package
 * (with the package), to walk again after installing it.
 */
export async function walkHelp(ctx) {
  const checks = new Checks();
  const top = await help(ctx, []);
  const commands = listedNames(top.stdout);
  checks.run(`${BIN} --help lists the commands`, top, 0, (r) =>
    r.stdout.startsWith(`Usage: ${BIN} `) && commands.length > 0 ? '' : 'no "Usage:" page listing commands',
  );
  const version = await run(ctx.bin, ['--version'], { cwd: ctx.cwd, env: ctx.env });
  checks.run(`${BIN} --version prints the packed version (${ctx.version})`, version, 0, (r) =>
    r.stdout.trim() === ctx.version ? '' : 'another version',
  );
  const pages = await Promise.all(commands.map((command) => walkCommand(ctx, command, { optionalMissing: true })));
  checks.add(...pages.map((p) => p.checks));
  return { checks, deferred: pages.filter((p) => p.deferred !== undefined) };
}
