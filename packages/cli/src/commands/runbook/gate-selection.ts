import { createRulesGate, type Gate, type GateSelection } from '@heartbeat-kit/runbook';
import { createCommandGate } from '@heartbeat-kit/runbook/node';
import { errAsync } from 'neverthrow';
import type { CliIo } from '../../io.js';
import { createCliRunner } from '../../wiring/cli-runner.js';
import { resolvePath } from './shared.js';

// Which gate decides a tick: `HEARTBEAT_CHECKLIST_GATE_SCRIPT` (or --gate) names the rules gate,
// a command, or the server's own script, which heartbeat-kit does not ship (it fails open).

/** The rules gate's name when `HEARTBEAT_CHECKLIST_GATE_SCRIPT` selects it. */
export const RULES_GATE_NAMES: ReadonlySet<string> = new Set(['heartbeat-rules-gate', 'rules']);

function unavailableGate(name: string, message: string): Gate {
  return { name, decide: () => errAsync({ kind: 'unavailable', message }) };
}

/** Picks the gate adapter for a selection; the seeded model gate is not shipped, so it fails open. */
export function gateFor(selection: GateSelection, io: CliIo, override?: string, envAllow?: readonly string[]): Gate | undefined {
  const runner = createCliRunner(io, { profile: 'gate', envAllow });
  if (override !== undefined)
    return RULES_GATE_NAMES.has(override) ? createRulesGate() : createCommandGate({ file: resolvePath(io, override), cwd: io.cwd, runner });
  switch (selection.kind) {
    case 'none':
      return undefined;
    case 'default':
      return unavailableGate(
        selection.script,
        `${selection.script} (${selection.provider}) is a server script and not part of heartbeat-kit; set HEARTBEAT_CHECKLIST_GATE_SCRIPT=heartbeat-rules-gate or a command path`,
      );
    case 'script':
      return RULES_GATE_NAMES.has(selection.script)
        ? createRulesGate()
        : createCommandGate({ file: resolvePath(io, selection.script), cwd: io.cwd, name: selection.script, runner });
  }
}
