import { err, ok, type Result } from 'neverthrow';
import { LIVENESS_EVERY_SEC, livenessArgs, MARKER, STOP_TIMEOUT_SEC, type ServicePlan } from './service-plan.js';
import { environmentAssignment, execArgument, isUnitValueError, pathValue, textValue, type UnitValueError } from './systemd-syntax.js';

/** One file a service install writes: its name in the unit directory and its text. */
export interface ServiceFile {
  readonly name: string;
  readonly text: string;
  /**
   * The part of `text` that names this node and this bin: `status` finds it in an installed file
   * to call it current (it cannot know the loop options install was given).
   */
  readonly program?: string;
}

class Refused extends Error {
  constructor(readonly refused: UnitValueError) {
    super(refused.reason);
  }
}

function must(value: string | UnitValueError): string {
  if (isUnitValueError(value)) throw new Refused(value);
  return value;
}

// User= is read verbatim: only a plain account name is written (POSIX portable names, as systemd accepts).
function userName(name: string): string | UnitValueError {
  return /^[A-Za-z_][A-Za-z0-9_.-]{0,31}$/.test(name) ? name : { value: name, reason: 'it is not a plain user name' };
}

function execLine(argv: readonly string[]): string {
  return argv.map((arg) => must(execArgument(arg))).join(' ');
}

/**
 * The systemd units of a plan: `<name>.service` (the loop), `<name>-liveness.service` (one
 * `check-liveness`) and `<name>-liveness.timer` (every 15 min). Every path is absolute and escaped
 * by systemd's rules; a path systemd cannot carry is an error naming it.
 */
export function systemdUnits(plan: ServicePlan): Result<readonly ServiceFile[], UnitValueError> {
  try {
    return ok(render(plan));
  } catch (error) {
    if (error instanceof Refused) return err(error.refused);
    throw error;
  }
}

function render(plan: ServicePlan): ServiceFile[] {
  const project = must(pathValue(plan.project));
  const envFile = must(pathValue(plan.envFile));
  const path = plan.pathEnv === undefined ? [] : [`Environment=${must(environmentAssignment('PATH', plan.pathEnv))}`];
  const user = plan.kind === 'systemd-system' && plan.user !== undefined ? [`User=${must(userName(plan.user))}`] : [];
  const wantedBy = plan.kind === 'systemd-user' ? 'default.target' : 'multi-user.target';
  const describe = textValue(plan.project);
  const common = [
    ...user,
    `WorkingDirectory=${project}`,
    ...path,
    '# Your variables (tokens for sinks, HEARTBEAT_* settings), one NAME=value a line; "-": it may not exist.',
    `EnvironmentFile=-${envFile}`,
  ];
  const loop = [
    `# ${MARKER}`,
    '[Unit]',
    `Description=heartbeat-kit loop for ${describe}`,
    '# heartbeat-kit service --help; docs/service.md in the heartbeat-kit repository.',
    'After=network-online.target',
    'Wants=network-online.target',
    '',
    '[Service]',
    'Type=exec',
    ...common,
    `ExecStart=${execLine([plan.node, plan.bin, 'loop', '--cwd', plan.project, ...plan.loopArgs])}`,
    'Restart=on-failure',
    'RestartSec=30s',
    '# A first SIGTERM lets the scan in flight finish and deliver (spec 000: do not interrupt',
    '# mid-scan). mixed sends it to heartbeat-kit alone, not to the tools it waits for; the final',
    '# SIGKILL still reaches every process of the unit.',
    'KillMode=mixed',
    `# Above the scan deadline (30 s) plus the slowest delivery (a command sink, 60 s), with 30 s spare.`,
    `TimeoutStopSec=${STOP_TIMEOUT_SEC}s`,
    '',
    '[Install]',
    `WantedBy=${wantedBy}`,
    '',
  ];
  const liveness = [
    `# ${MARKER}`,
    '[Unit]',
    `Description=heartbeat-kit liveness check for ${describe}`,
    '# heartbeat-kit service --help; docs/service.md in the heartbeat-kit repository.',
    '# Exit 1 (not alive) fails this unit: the reason is in its journal. Point OnFailure= at what pages you.',
    '',
    '[Service]',
    'Type=oneshot',
    ...common,
    `ExecStart=${execLine([plan.node, plan.bin, ...livenessArgs(plan)])}`,
    '',
  ];
  const timer = [
    `# ${MARKER}`,
    '[Unit]',
    `Description=heartbeat-kit liveness check every ${LIVENESS_EVERY_SEC / 60} min for ${describe}`,
    '',
    '[Timer]',
    `OnActiveSec=${LIVENESS_EVERY_SEC}s`,
    `OnUnitActiveSec=${LIVENESS_EVERY_SEC}s`,
    `Unit=${plan.name}-liveness.service`,
    '',
    '[Install]',
    'WantedBy=timers.target',
    '',
  ];
  const program = `\nExecStart=${execLine([plan.node, plan.bin])} `;
  return [
    { name: `${plan.name}.service`, text: loop.join('\n'), program },
    { name: `${plan.name}-liveness.service`, text: liveness.join('\n'), program },
    { name: `${plan.name}-liveness.timer`, text: timer.join('\n') },
  ];
}
