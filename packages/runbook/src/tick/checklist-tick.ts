import { sanitizeForMessage } from '@heartbeat-kit/core';
import { stripTerminalEscapes } from '@heartbeat-kit/core/host';
import { isEffectivelyEmpty } from '../model/effectively-empty.js';
import { parseRunbook } from '../model/runbook.js';
import { renderSystemStatus } from '../status/render-status.js';
import { hasOpenTaskOfType, type SystemStatus } from '../status/system-status.js';
import type { ChecklistSettings } from '../gate/checklist-env.js';
import { buildGateState } from '../gate/gate-state.js';
import { gateEffect, runGate, type Gate, type GateState, type GateVerdict } from '../gate/gate.js';

/** Why a tick created nothing. */
export type TickSkipReason = 'disabled' | 'no-lead' | 'interval-not-elapsed' | 'runbook-empty' | 'open-checklist-task' | 'gate-quiet';

/** A task the server should create. */
export interface TaskToCreate {
  readonly taskType: 'heartbeat-checklist' | 'boot-triage';
  readonly assignTo: string | null;
  readonly tags: readonly string[];
  readonly priority: number;
  readonly prompt: string;
}

/** Inputs of the pre-gate checks. */
export interface TickInput {
  readonly runbookText: string | null;
  readonly status: SystemStatus;
  readonly now: Date;
  readonly timeZone: string;
  readonly settings: Pick<ChecklistSettings, 'intervalMs' | 'disabled' | 'gateMode'>;
}

/** The result of the checks that come before the gate. */
export type PreconditionOutcome =
  | { readonly kind: 'skip'; readonly reason: TickSkipReason; readonly detail: string }
  | { readonly kind: 'proceed'; readonly leadId: string };

/** When the previous tick happened: the newest checklist task, else the server start (no tick at boot). */
export function lastTickAt(status: SystemStatus): Date | undefined {
  const times = status.tasks.filter((t) => t.taskType === 'heartbeat-checklist').map((t) => Date.parse(t.createdAt));
  if (status.serverStartedAt) times.push(Date.parse(status.serverStartedAt));
  return times.length === 0 ? undefined : new Date(Math.max(...times));
}

/**
 * The checks of reference §1 before the gate, cheapest first: disabled, lead, interval, runbook
 * content, open checklist task. The gate comes after them so a skipped tick never costs a model call.
 */
export function checkTickPreconditions(input: TickInput): PreconditionOutcome {
  if (input.settings.disabled) return { kind: 'skip', reason: 'disabled', detail: 'HEARTBEAT_CHECKLIST_DISABLE is set' };
  const lead = input.status.agents.find((a) => a.isLead);
  if (lead === undefined) return { kind: 'skip', reason: 'no-lead', detail: 'no lead agent in the status snapshot' };
  const last = lastTickAt(input.status);
  if (last !== undefined && input.now.getTime() - last.getTime() < input.settings.intervalMs) {
    return {
      kind: 'skip',
      reason: 'interval-not-elapsed',
      detail: `next tick at ${new Date(last.getTime() + input.settings.intervalMs).toISOString()}`,
    };
  }
  if (input.runbookText === null || input.runbookText === '' || isEffectivelyEmpty(input.runbookText)) {
    return { kind: 'skip', reason: 'runbook-empty', detail: 'the runbook holds only headers, comments or empty items' };
  }
  if (hasOpenTaskOfType(input.status, 'heartbeat-checklist')) {
    return { kind: 'skip', reason: 'open-checklist-task', detail: 'the lead still has an open heartbeat-checklist task' };
  }
  return { kind: 'proceed', leadId: lead.id };
}

/** The checklist prompt: system status, then the runbook snapshot, then Gate Findings when given. */
export function renderChecklistPrompt(status: SystemStatus, runbookText: string, now: Date, gateFindings?: string): string {
  const parts = [
    '# Heartbeat checklist',
    renderSystemStatus(status, now),
    `## Runbook snapshot [auto-generated]\n\n${stripTerminalEscapes(runbookText).trimEnd()}`,
  ];
  if (gateFindings !== undefined && gateFindings.trim() !== '') {
    parts.push(`## Gate Findings [auto-generated]\n\n${sanitizeForMessage(gateFindings, { maxLength: 4000, multiline: true })}`);
  }
  return parts.join('\n\n') + '\n';
}

/** What a tick decided. */
export type TickDecision =
  | { readonly kind: 'skip'; readonly reason: TickSkipReason; readonly detail: string; readonly verdict?: GateVerdict }
  | { readonly kind: 'create'; readonly task: TaskToCreate; readonly verdict?: GateVerdict };

/** Turns a proceed outcome and an optional gate verdict into the task (or the enforce-mode skip). Pure. */
export function decideChecklistTask(input: TickInput, leadId: string, verdict: GateVerdict | undefined): TickDecision {
  const tags = ['checklist', 'auto-generated'];
  let findings: string | undefined;
  if (verdict !== undefined) {
    const effect = gateEffect(input.settings.gateMode, verdict);
    if (!effect.createTask)
      return { kind: 'skip', reason: 'gate-quiet', detail: verdict.kind === 'quiet' ? verdict.reason : 'gate quiet', verdict };
    tags.push(effect.tag);
    findings = effect.gateFindings;
  }
  const prompt = renderChecklistPrompt(input.status, input.runbookText ?? '', input.now, findings);
  const task: TaskToCreate = { taskType: 'heartbeat-checklist', assignTo: leadId, tags, priority: 60, prompt };
  return verdict === undefined ? { kind: 'create', task } : { kind: 'create', task, verdict };
}

/** Ports and options of a whole tick. */
export interface TickDeps {
  /** The selected gate; undefined when the selection is none. */
  readonly gate?: Gate;
  readonly signal?: AbortSignal;
}

/**
 * One checklist tick end to end: preconditions, then the gate (fail open), then the task. The gate
 * state is returned so a caller can log or preview it.
 *
 * @example
 * ```ts
 * import { createRulesGate, runChecklistTick } from '@heartbeat-kit/runbook';
 * import { makeStatus } from '@heartbeat-kit/runbook/testing';
 *
 * const decision = await runChecklistTick(
 *   {
 *     runbookText: '## Watch Items\n- Webhook retries. Lift when 0 retries for 48 h (check 10-20).\n',
 *     status: makeStatus(), // a version-1 status snapshot with a lead agent
 *     now: new Date('2026-10-20T10:00:00Z'),
 *     timeZone: 'UTC',
 *     settings: { intervalMs: 1_800_000, disabled: false, gateMode: 'enforce' },
 *   },
 *   { gate: createRulesGate() },
 * );
 * console.log(decision.kind, decision.verdict?.kind); // 'create' 'wake' — the item is due today
 * ```
 */
export async function runChecklistTick(input: TickInput, deps: TickDeps = {}): Promise<TickDecision & { readonly gateState?: GateState }> {
  const pre = checkTickPreconditions(input);
  if (pre.kind === 'skip') return pre;
  if (deps.gate === undefined) return decideChecklistTask(input, pre.leadId, undefined);
  const gateState = buildGateState({
    status: input.status,
    runbook: parseRunbook(input.runbookText ?? ''),
    now: input.now,
    timeZone: input.timeZone,
  });
  const verdict = await runGate(deps.gate, gateState, deps.signal === undefined ? {} : { signal: deps.signal });
  return { ...decideChecklistTask(input, pre.leadId, verdict), gateState };
}
