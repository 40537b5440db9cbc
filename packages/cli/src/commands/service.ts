import { existsSync, realpathSync } from 'node:fs';
import { homedir, userInfo } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { err, ok, type Result } from 'neverthrow';
import {
  commandFailure,
  defineCommand,
  renderHelp,
  usageFailure,
  type CommandFailure,
  type CommandInput,
  type CommandSpec,
  type DeclaredCommand,
} from '../cli-kernel/index.js';
import { unknownNameError } from '../errors.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { launchdPlists } from '../service/launchd-plist.js';
import { install, status, uninstall, type Context } from '../service/service-actions.js';
import { serviceName, STOP_TIMEOUT_SEC, type ServiceKind, type ServicePlan } from '../service/service-plan.js';
import { systemdUnits } from '../service/systemd-units.js';
import { createCliRunner } from '../wiring/cli-runner.js';
import { resolvePath } from '../wiring/cycle-deps.js';
import { parseDurationFlag } from '../wiring/duration-flag.js';
import { locateProject } from '../wiring/project-location.js';

const FLAGS = {
  systemd: { type: 'boolean', help: 'systemd units (system-wide in /etc/systemd/system, User= you; needs root)' },
  user: { type: 'boolean', help: 'with --systemd: user units, run by your user manager (no root)' },
  launchd: { type: 'boolean', help: 'macOS launchd agents' },
  cwd: { type: 'string', value: 'DIR', help: "a directory of the project's git repository (default: current directory)" },
  print: { type: 'boolean', help: 'install: print the files instead of writing them (writes nothing, runs nothing)' },
  'no-enable': { type: 'boolean', help: 'install: write the files but do not run systemctl/launchctl' },
  'no-disable': { type: 'boolean', help: 'uninstall: remove the files without stopping the service first' },
  force: { type: 'boolean', help: 'install: replace, uninstall: remove files heartbeat-kit did not write' },
  'environment-file': {
    type: 'string',
    value: 'FILE',
    help: `systemd: the environment file (default: ~/.config/heartbeat-kit/<name>.env
with --user, /etc/heartbeat-kit/<name>.env without); it may not exist.
(Not --env-file: Node 20 reads that flag itself, wherever it appears.)`,
  },
  'max-age': { type: 'string', value: 'DURATION', help: "the liveness check's --max-age (default: check-liveness's, 3 × the interval)" },
  dir: { type: 'string', value: 'DIR', help: "write to / read from DIR instead of the manager's directory" },
  json: { type: 'boolean', help: 'print one JSON object: {action, kind, name, files, steps}' },
} as const;

type ServiceInput = CommandInput<typeof FLAGS>;
type Values = ServiceInput['flags'];

/** The declaration of `heartbeat-kit service` (its action comes first and is read before the flags). */
const SPEC: CommandSpec<typeof FLAGS> = {
  name: 'service',
  usage: `install (--systemd [--user] | --launchd) [options] [-- LOOP_OPTIONS...]
       heartbeat-kit service status    (--systemd [--user] | --launchd) [--cwd DIR] [--dir DIR] [--json]
       heartbeat-kit service uninstall (--systemd [--user] | --launchd) [--cwd DIR] [--dir DIR] [--no-disable] [--force] [--json]`,
  description: `Runs 'heartbeat-kit loop' for a project under the machine's service manager, with a liveness
check beside it, from files this command writes (every path absolute: this node, this
heartbeat-kit's bin, the project root):

  systemd  <name>.service           the loop: Restart=on-failure, KillMode=mixed and
                                    TimeoutStopSec=${STOP_TIMEOUT_SEC}s so a stop lets the scan in flight
                                    finish and deliver; WorkingDirectory= the project;
                                    EnvironmentFile=-<env file> (optional) for your variables
           <name>-liveness.service  one 'check-liveness': fails (journal says why) when the
           <name>-liveness.timer    heartbeat stopped; the timer runs it every 15 min
  launchd  dev.heartbeat-kit.<name>.plist           the loop (KeepAlive: restart on failure)
           dev.heartbeat-kit.<name>.liveness.plist  'check-liveness' every 15 min

<name> is heartbeat-kit-<project directory name>-<hash of its path>. Files go to
~/.config/systemd/user ($XDG_CONFIG_HOME) with --user, /etc/systemd/system without it, and
~/Library/LaunchAgents with --launchd. Each file's first lines say heartbeat-kit wrote it: a
file there without that mark is not replaced or removed (exit 1) unless --force.

After writing, install runs 'systemctl [--user] daemon-reload' and 'enable --now' (launchd:
'launchctl bootstrap gui/UID'); uninstall runs 'disable --now' (launchd: 'bootout') before
removing the files. When the tool is not on PATH, or with --no-enable/--no-disable, it says what
was not done, so you can run it yourself.`,
  flags: FLAGS,
  notes: "Anything after -- is passed to 'loop' as it is (e.g. -- --sink file:.heartbeat/reports.jsonl).",
  exitCodeTable: true,
  exitCodes: [
    [EXIT.ok, 'done (status: installed, every file current)'],
    [
      EXIT.rejected,
      'status: not installed, partly, out of date or not ours; install and uninstall: a file\nthere was not written by heartbeat-kit (nothing changed)',
    ],
    [EXIT.usage, 'usage error, or a path systemd or launchd cannot carry (nothing written)'],
    [EXIT.failure, 'a file could not be written or removed, or systemctl/launchctl failed (what was done is listed)'],
  ],
};

/** Which options each action takes (the rest are a usage error, not silently ignored). */
const ONLY: Record<string, readonly string[]> = {
  print: ['install'],
  'no-enable': ['install'],
  'environment-file': ['install'],
  'max-age': ['install'],
  'no-disable': ['uninstall'],
  force: ['install', 'uninstall'],
};

const ACTIONS = ['install', 'status', 'uninstall'] as const;
type Action = (typeof ACTIONS)[number];

/** The bin users run: `bin/heartbeat-kit.js` of this package, found from this module (dist/ or src/commands/). */
function binPath(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let up = 0; up < 4; up++) {
    const candidate = join(dir, 'bin', 'heartbeat-kit.js');
    if (existsSync(candidate)) return realpathSync(candidate);
    dir = dirname(dir);
  }
  return undefined;
}

function configHome(env: CliIo['env']): string {
  const xdg = env.XDG_CONFIG_HOME;
  return xdg !== undefined && isAbsolute(xdg) ? xdg : join(home(env), '.config');
}

function home(env: CliIo['env']): string {
  return env.HOME !== undefined && isAbsolute(env.HOME) ? env.HOME : homedir();
}

function managerDir(kind: ServiceKind, env: CliIo['env']): string {
  if (kind === 'systemd-user') return join(configHome(env), 'systemd', 'user');
  if (kind === 'systemd-system') return '/etc/systemd/system';
  return join(home(env), 'Library', 'LaunchAgents');
}

// The account a system unit runs as: the one who ran sudo, else whoever runs this.
function systemUser(env: CliIo['env']): string {
  const sudoUser = env.SUDO_USER;
  if (process.getuid?.() === 0 && sudoUser !== undefined && sudoUser !== '') return sudoUser;
  return userInfo().username;
}

/** Which service manager the flags name for `action`, after every flag is checked against it. */
function serviceKind(action: Action, values: Values, loopArgs: readonly string[]): Result<ServiceKind, CommandFailure> {
  for (const [flag, actions] of Object.entries(ONLY)) {
    if (values[flag as keyof typeof values] !== undefined && !actions.includes(action))
      return usageFailure(`--${flag} is for ${actions.join(' and ')}, not ${action}. Fix: drop it.`);
  }
  if (loopArgs.length > 0 && action !== 'install')
    return usageFailure(`loop options after -- are for install, not ${action}. Fix: drop them.`);
  if (values.systemd === true && values.launchd === true)
    return usageFailure('--systemd and --launchd are two service managers. Fix: give one.');
  if (values.systemd !== true && values.launchd !== true)
    return usageFailure(
      `${action} needs a service manager. Fix: add --systemd --user (Linux, your user), --systemd (system-wide) or --launchd (macOS).`,
    );
  if (values.user === true && values.systemd !== true)
    return usageFailure('--user is for --systemd. Fix: drop --user (launchd agents are per user).');
  if (values.print === true && values['no-enable'] === true) return usageFailure('--print runs nothing anyway. Fix: drop --no-enable.');
  const kind: ServiceKind = values.launchd === true ? 'launchd' : values.user === true ? 'systemd-user' : 'systemd-system';
  if (kind === 'launchd' && values['environment-file'] !== undefined)
    return usageFailure(
      "--environment-file is for systemd: launchd has no environment file. Fix: drop it and put variables in the plist's EnvironmentVariables.",
    );
  return ok(kind);
}

/** The service's plan for this project: its name, files' inputs and where they go. */
function servicePlan(io: CliIo, kind: ServiceKind, values: Values, project: string, bin: string, loopArgs: readonly string[]): ServicePlan {
  const name = serviceName(project);
  const envFile =
    values['environment-file'] !== undefined
      ? resolvePath(io.cwd, values['environment-file'])
      : join(kind === 'systemd-system' ? '/etc' : configHome(io.env), 'heartbeat-kit', `${name}.env`);
  return {
    kind,
    name,
    node: process.execPath,
    bin,
    project,
    envFile,
    pathEnv: io.env.PATH,
    loopArgs,
    maxAge: values['max-age'],
    user: kind === 'systemd-system' ? systemUser(io.env) : undefined,
    logDir: join(home(io.env), 'Library', 'Logs', 'heartbeat-kit'),
  };
}

/** One action on the service, once argv is split into the action, its flags and the loop's options. */
async function runService(
  action: Action,
  loopArgs: readonly string[],
  { flags: values, io }: ServiceInput,
): Promise<Result<ExitCode, CommandFailure>> {
  const kind = serviceKind(action, values, loopArgs);
  if (kind.isErr()) return err(kind.error);
  if (values['max-age'] !== undefined) {
    const maxAge = parseDurationFlag('--max-age', values['max-age'], { unit: 'm', example: '30m' });
    if (maxAge.isErr()) return usageFailure(maxAge.error);
  }
  const runner = createCliRunner(io);
  const located = await locateProject(resolvePath(io.cwd, values.cwd ?? '.'), { runner, env: io.env, flag: '--cwd' });
  if (located.isErr()) return usageFailure(located.error);
  const bin = binPath();
  if (bin === undefined) return commandFailure("cannot find this heartbeat-kit's bin/heartbeat-kit.js. Fix: reinstall heartbeat-kit.");
  const plan = servicePlan(io, kind.value, values, located.value.project, bin, loopArgs);
  const rendered = plan.kind === 'launchd' ? launchdPlists(plan) : systemdUnits(plan);
  // status and uninstall do not know the loop options install was given: a file counts as
  // current when it is ours and runs this node and this bin.
  if (rendered.isErr())
    return usageFailure(
      `${JSON.stringify(rendered.error.value)} cannot go in a ${plan.kind === 'launchd' ? 'launchd plist' : 'systemd unit'}: ${rendered.error.reason}. Fix: move or rename it (or pass --environment-file elsewhere).`,
    );
  const context: Context = {
    io,
    kind: plan.kind,
    name: plan.name,
    dir: values.dir !== undefined ? resolvePath(io.cwd, values.dir) : managerDir(plan.kind, io.env),
    files: rendered.value,
    logDir: plan.kind === 'launchd' ? plan.logDir : undefined,
    json: values.json === true,
    runner,
    uid: process.getuid?.() ?? 501,
  };
  const code =
    action === 'install' ? await install(context, values) : action === 'status' ? await status(context) : await uninstall(context, values);
  // The actions return one of EXIT's codes (typed as a number in service-actions.ts).
  return ok(code as ExitCode);
}

/** `heartbeat-kit service install|status|uninstall`: the loop and its liveness check as a systemd or launchd service. */
export const serviceCommand: DeclaredCommand<typeof FLAGS> = Object.assign(
  async (argv: readonly string[], io: CliIo): Promise<number> => {
    const [action, ...rest] = argv;
    if (action === undefined || action === '--help' || action === '-h' || action === 'help') {
      io.stdout(renderHelp(SPEC));
      return action === undefined ? EXIT.usage : EXIT.ok;
    }
    if (!(ACTIONS as readonly string[]).includes(action)) {
      unknownNameError(io, 'service', 'subcommand', action, ACTIONS);
      return EXIT.usage;
    }
    // Everything after `--` is the loop's, passed as it is; the service's own flags come before it.
    const dashes = rest.indexOf('--');
    const own = dashes < 0 ? rest : rest.slice(0, dashes);
    const loopArgs = dashes < 0 ? [] : rest.slice(dashes + 1);
    return defineCommand(SPEC, (input) => runService(action as Action, loopArgs, input))(own, io);
  },
  { spec: SPEC },
);
