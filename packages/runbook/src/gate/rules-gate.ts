import { okAsync } from 'neverthrow';
import type { Gate, GateResult, GateState } from './gate.js';

/**
 * The deterministic verdict: wake on new failures, due tracked items, unanswered mentions or
 * untriaged reboot failures; quiet otherwise. No model, so it costs nothing and replays exactly.
 */
export function decideByRules(state: GateState): GateResult {
  const findings: string[] = [];
  const reasons: string[] = [];
  if (state.untriagedRebootFailures.length > 0) {
    reasons.push(`${state.untriagedRebootFailures.length} untriaged reboot failure(s)`);
    findings.push(...state.untriagedRebootFailures.map((id) => `- Reboot-interrupted, untriaged: ${id}`));
  }
  const others = state.newFailures.filter((f) => !state.untriagedRebootFailures.includes(f.id));
  if (others.length > 0) {
    reasons.push(`${others.length} new failed or stalled task(s)`);
    findings.push(...others.map((f) => `- New ${f.kind} task ${f.id.slice(0, 8)} "${f.task}": ${f.reason}`));
  }
  if (state.dueItems.length > 0) {
    reasons.push(`${state.dueItems.length} tracked item(s) due`);
    findings.push(
      ...state.dueItems.map((d) => `- Due (${d.reason === 'delete-past' ? 'DELETE date past' : 'check today'}), line ${d.line}: ${d.text}`),
    );
  }
  if (state.unansweredMentions > 0) {
    reasons.push(`${state.unansweredMentions} unanswered mention(s)`);
    findings.push(`- ${state.unansweredMentions} mention(s) unanswered since the last heartbeat`);
  }
  if (reasons.length === 0) return { quiet: true, reason: 'nothing new since the previous checklist', summary: '' };
  return { quiet: false, reason: reasons.join('; '), summary: findings.join('\n') };
}

/**
 * A gate that needs no model: {@link decideByRules} behind the {@link Gate} port.
 *
 * @example
 * ```ts
 * import { createRulesGate, runGate, type GateState } from '@heartbeat-kit/runbook';
 *
 * declare const state: GateState; // from buildGateState({ status, runbook, now, timeZone })
 * const verdict = await runGate(createRulesGate(), state);
 * console.log(verdict.kind); // 'quiet' when nothing is new, due or unanswered
 * ```
 */
export function createRulesGate(): Gate {
  return { name: 'heartbeat-rules-gate', decide: (state) => okAsync(decideByRules(state)) };
}
