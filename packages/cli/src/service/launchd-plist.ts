import { join } from 'node:path';
import { err, ok, type Result } from 'neverthrow';
import { LIVENESS_EVERY_SEC, livenessArgs, MARKER, STOP_TIMEOUT_SEC, type ServicePlan } from './service-plan.js';
import type { ServiceFile } from './systemd-units.js';
import type { UnitValueError } from './systemd-syntax.js';

// XML 1.0 has no way to write these (not even as character references): such a path is refused.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/;

class Refused extends Error {
  constructor(readonly refused: UnitValueError) {
    super(refused.reason);
  }
}

function xmlText(value: string): string {
  if (NOT_XML.test(value)) throw new Refused({ value, reason: 'it contains a character XML cannot carry (a control character)' });
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

type PlistValue = string | number | boolean | readonly string[] | { readonly [key: string]: PlistValue };

function plistValue(value: PlistValue, indent: string): string[] {
  if (typeof value === 'string') return [`${indent}<string>${xmlText(value)}</string>`];
  if (typeof value === 'number') return [`${indent}<integer>${value}</integer>`];
  if (typeof value === 'boolean') return [`${indent}<${value ? 'true' : 'false'}/>`];
  if (Array.isArray(value)) return [`${indent}<array>`, ...value.flatMap((v: string) => plistValue(v, `${indent}  `)), `${indent}</array>`];
  return [
    `${indent}<dict>`,
    ...Object.entries(value as Record<string, PlistValue>).flatMap(([key, v]) => [
      `${indent}  <key>${xmlText(key)}</key>`,
      ...plistValue(v, `${indent}  `),
    ]),
    `${indent}</dict>`,
  ];
}

function plist(dict: Record<string, PlistValue>): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<!-- ${MARKER} -->`,
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    '<plist version="1.0">',
    ...plistValue(dict, ''),
    '</plist>',
    '',
  ].join('\n');
}

/** The launchd label of a plan's loop (`<name>` is already a valid label part). */
export function launchdLabel(name: string): string {
  return `dev.heartbeat-kit.${name}`;
}

/**
 * The launchd agents of a plan: `<label>.plist` (the loop, restarted when it exits non-zero) and
 * `<label>.liveness.plist` (`check-liveness` every 15 min, its answer in the log). launchd has
 * no environment file: PATH is set from the install, other variables go in EnvironmentVariables.
 */
export function launchdPlists(plan: ServicePlan): Result<readonly ServiceFile[], UnitValueError> {
  try {
    const label = launchdLabel(plan.name);
    const env: Record<string, string> = plan.pathEnv === undefined ? {} : { PATH: plan.pathEnv };
    const loop = plist({
      Label: label,
      ProgramArguments: [plan.node, plan.bin, 'loop', '--cwd', plan.project, ...plan.loopArgs],
      WorkingDirectory: plan.project,
      EnvironmentVariables: env,
      RunAtLoad: true,
      // Restart on failure only: a loop that stopped cleanly (exit 0 after SIGTERM) stays stopped.
      KeepAlive: { SuccessfulExit: false },
      // launchd sends SIGTERM, then SIGKILL after this: the scan in flight drains first.
      ExitTimeOut: STOP_TIMEOUT_SEC,
      StandardOutPath: join(plan.logDir, `${plan.name}.out.log`),
      StandardErrorPath: join(plan.logDir, `${plan.name}.err.log`),
    });
    const liveness = plist({
      Label: `${label}.liveness`,
      ProgramArguments: [plan.node, plan.bin, ...livenessArgs(plan)],
      WorkingDirectory: plan.project,
      EnvironmentVariables: env,
      StartInterval: LIVENESS_EVERY_SEC,
      StandardOutPath: join(plan.logDir, `${plan.name}.liveness.log`),
      StandardErrorPath: join(plan.logDir, `${plan.name}.liveness.log`),
    });
    const program = `<array>\n    <string>${xmlText(plan.node)}</string>\n    <string>${xmlText(plan.bin)}</string>\n`;
    return ok([
      { name: `${label}.plist`, text: loop, program },
      { name: `${label}.liveness.plist`, text: liveness, program },
    ]);
  } catch (error) {
    if (error instanceof Refused) return err(error.refused);
    throw error;
  }
}
