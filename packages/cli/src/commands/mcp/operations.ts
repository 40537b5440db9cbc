import { decodeHeartbeatState } from '@heartbeat-kit/core';
import type { HeartbeatMcpDeps, McpOutcome } from '@heartbeat-kit/mcp';
import { EXIT } from '../../exit-codes.js';
import type { CliIo } from '../../io.js';
import { resolveHeartbeat } from '../../wiring/heartbeat-options.js';
import { ackCommand } from '../ack.js';
import { cycleCommand } from '../cycle.js';
import { historyCommand } from '../history.js';
import { pauseCommand, resumeCommand } from '../pause.js';
import { planCommand } from '../plan.js';
import { compactCycle, compactPlan, explainRows, type CycleJson, type PlanJson } from './compact.js';
import { runJsonCommand, targetFlags, type McpTarget } from './run-command.js';

interface Receipt {
  readonly kind?: string;
  readonly [key: string]: unknown;
}

/**
 * The MCP tools' operations, each one of the CLI's own commands (plan, history, ack, pause,
 * resume, cycle) run in-process: the server decides nothing the CLI does not.
 */
export function cliMcpOperations(io: CliIo, target: McpTarget, version: string, allowWrite: boolean): HeartbeatMcpDeps {
  const ops: Operations = {
    io,
    target,
    all: targetFlags(target, ['cwd', 'config', 'state']),
    stateOnly: targetFlags(target, ['cwd', 'state']),
    cycleFlags: targetFlags(target, ['cwd', 'config', 'state', 'tmuxSocket']),
  };
  const { all, stateOnly, cycleFlags } = ops;
  return {
    version,
    allowWrite,
    status: () => status(ops),
    plan: async ({ hours }) => {
      const plan = await runJsonCommand(io, planCommand, ['--hours', String(hours), ...all]);
      return plan.ok ? { ok: true, value: compactPlan(plan.value as PlanJson) } : plan;
    },
    history: async ({ since, limit }) => {
      const history = await runJsonCommand(io, historyCommand, [...(since === undefined ? [] : [`--since=${since}`]), ...stateOnly]);
      if (!history.ok) return history;
      const { receipts: list = [], warnings = [] } = history.value as { receipts?: Receipt[]; warnings?: string[] };
      return { ok: true, value: { total: list.length, receipts: list.slice(-limit), ...(warnings.length === 0 ? {} : { warnings }) } };
    },
    explain: async ({ match }) => {
      const [cycle, state] = await Promise.all([dryRun(ops), loadState(ops)]);
      if (!cycle.ok) return cycle;
      if (!state.ok) return state;
      return { ok: true, value: explainRows(cycle.value as CycleJson, state.state.reported, match) };
    },
    cycleDryRun: async () => {
      const cycle = await dryRun(ops);
      return cycle.ok ? { ok: true, value: compactCycle(cycle.value as CycleJson) } : cycle;
    },
    // `--` first: a selector starting with '-' is a selector, never an option.
    ack: async (input) => runJsonCommand(io, ackCommand, [...ackFlags(input), ...stateOnly, '--', input.selector]),
    pause: async (input) =>
      input.resume === true
        ? runJsonCommand(io, resumeCommand, stateOnly)
        : runJsonCommand(io, pauseCommand, [...pauseFlags(input), ...stateOnly]),
    cycle: async () => {
      const cycle = await runJsonCommand(io, cycleCommand, cycleFlags, cycleDone);
      return cycle.ok ? { ok: true, value: compactCycle(cycle.value as CycleJson) } : cycle;
    },
    config: async () => {
      const state = await loadState(ops);
      if (!state.ok) return state;
      const { settings, statePath, cwd } = state.resolved;
      return { ok: true, value: { project: cwd, statePath, config: settings.config } };
    },
    lastReport: async () => {
      const history = await receipts(ops);
      if (!history.ok) return history;
      const list = (history.value as { receipts?: Receipt[] }).receipts ?? [];
      return { ok: true, value: { receipt: [...list].reverse().find((r) => r.kind === 'ran') ?? null } };
    },
  };
}

/** What every operation shares: the io, the target project and its flags for each command. */
interface Operations {
  readonly io: CliIo;
  readonly target: McpTarget;
  readonly all: string[];
  readonly stateOnly: string[];
  readonly cycleFlags: string[];
}

// A real cycle exits 3 when a route failed: its JSON still says what happened.
const cycleDone = (code: number): boolean => code === EXIT.ok || code === EXIT.failure;

function dryRun(ops: Operations): Promise<McpOutcome> {
  return runJsonCommand(ops.io, cycleCommand, ['--dry-run', ...ops.cycleFlags], cycleDone);
}

function receipts(ops: Operations): Promise<McpOutcome> {
  return runJsonCommand(ops.io, historyCommand, ops.stateOnly);
}

async function loadState(ops: Operations) {
  const { target } = ops;
  const resolved = await resolveHeartbeat({ cwd: target.cwd, config: target.config, state: target.state }, quiet(ops.io), { dryRun: true });
  if (resolved.isErr()) return { ok: false as const, message: resolved.error.message };
  const loaded = await resolved.value.deps.stateStore.load();
  return {
    ok: true as const,
    resolved: resolved.value,
    state: decodeHeartbeatState(loaded.isOk() ? loaded.value.document : undefined).state,
  };
}

async function status(ops: Operations): Promise<McpOutcome> {
  const [history, plan, acks, state] = await Promise.all([
    receipts(ops),
    runJsonCommand(ops.io, planCommand, ['--hours', '24', ...ops.all]),
    runJsonCommand(ops.io, ackCommand, ['--list', ...ops.stateOnly]),
    loadState(ops),
  ]);
  if (!history.ok) return history;
  if (!plan.ok) return plan;
  if (!acks.ok) return acks;
  if (!state.ok) return state;
  const list = (history.value as { receipts?: Receipt[] }).receipts ?? [];
  const planned = plan.value as PlanJson;
  const s = state.state;
  const open = Object.entries(s.reported).sort(([, a], [, b]) => b - a);
  const breakers = {
    scanners: Object.keys(s.breakers ?? {}),
    sink: s.sinkBreaker === undefined ? null : s.sinkBreaker,
    routes: Object.keys(s.routeBreakers ?? {}),
  };
  return {
    ok: true,
    value: {
      lastCycle: [...list].reverse().find((r) => r.kind === 'ran') ?? null,
      lastSlot: list.at(-1) ?? null,
      nextSlot: planned.slots[0] ?? null,
      pause: planned.pause ?? null,
      openFindings: {
        count: open.length,
        latest: open.slice(0, 10).map(([fingerprint, ms]) => ({ fingerprint, reportedAt: new Date(ms).toISOString() })),
      },
      breakers,
      acks: ((acks.value as { acks?: { active?: boolean }[] }).acks ?? []).filter((a) => a.active === true),
    },
  };
}

function ackFlags(input: Parameters<HeartbeatMcpDeps['ack']>[0]): string[] {
  const flags = [`--note=${input.note}`];
  if (input.for !== undefined) flags.push(`--for=${input.for}`);
  if (input.until !== undefined) flags.push(`--until=${input.until}`);
  if (input.snooze === true) flags.push('--snooze');
  return flags;
}

function pauseFlags(input: Parameters<HeartbeatMcpDeps['pause']>[0]): string[] {
  const flags: string[] = [];
  if (input.note !== undefined) flags.push(`--note=${input.note}`);
  if (input.for !== undefined) flags.push(`--for=${input.for}`);
  if (input.until !== undefined) flags.push(`--until=${input.until}`);
  for (const scanner of input.scanners ?? []) flags.push(`--scanner=${scanner}`);
  if (input.exceptCritical === true) flags.push('--except-critical');
  return flags;
}

/** The io of a read that must print nothing (a state migration note is the cycle's to say). */
function quiet(io: CliIo): CliIo {
  return { ...io, stdout: () => undefined, stderr: () => undefined, info: () => undefined };
}
