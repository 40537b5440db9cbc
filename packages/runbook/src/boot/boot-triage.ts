import { isEffectivelyEmpty } from '../model/effectively-empty.js';
import { renderSystemStatus } from '../status/render-status.js';
import { classifyFailureReason } from '../status/failure-reasons.js';
import {
  failedAt,
  orphanedTasks,
  rebootInterrupted,
  recentRealFailures,
  stuckOnOfflineAgents,
  supersededWithoutResume,
  type RebootInterrupted,
} from '../status/status-views.js';
import { hasOpenTaskOfType, type StatusTask, type SystemStatus } from '../status/system-status.js';
import type { TaskToCreate } from '../tick/checklist-tick.js';
import { stripTerminalEscapes } from '@heartbeat-kit/core/host';

/** Boot triage runs this long after a server start. */
export const BOOT_TRIAGE_DELAY_MS = 90_000;

/** What the restart left behind. */
export interface BootFindings {
  /**
   * Where this boot begins: reboot-sweep failures before it belong to an earlier restart and do not
   * count. `server-start` is the snapshot's `serverStartedAt`; without it, `lookback` falls back to
   * the failure lookback window (the snapshot cannot tell the boots apart).
   */
  readonly boot: { readonly since: string; readonly source: 'server-start' | 'lookback' };
  readonly rebootInterrupted: readonly RebootInterrupted[];
  readonly recentFailures: readonly StatusTask[];
  readonly orphaned: readonly StatusTask[];
  readonly supersededWithoutResume: readonly StatusTask[];
  readonly stuckOnOfflineAgents: readonly StatusTask[];
}

/** Inputs of the boot-triage decision. */
export interface BootTriageInput {
  readonly status: SystemStatus;
  readonly runbookText: string | null;
  readonly now: Date;
  /** `HEARTBEAT_CHECKLIST_DISABLE` also stops boot triage (server behaviour). */
  readonly disabled: boolean;
  readonly lookbackMinutes?: number;
  readonly stuckMinutes?: number;
}

/** What boot triage decided. */
export type BootTriageDecision =
  | {
      readonly kind: 'skip';
      readonly reason: 'disabled' | 'no-lead' | 'open-boot-triage-task' | 'clean-boot';
      readonly findings?: BootFindings;
    }
  | { readonly kind: 'create'; readonly task: TaskToCreate; readonly findings: BootFindings };

/**
 * Gathers what the restart cut off or left behind (the boot-triage script's sets, plus the reboot
 * sweep). Only reboot-sweep failures of this boot count, in both sets: a clean boot after an earlier
 * failed one must not cost a triage task for failures the earlier boot's triage already had.
 */
export function gatherBootFindings(status: SystemStatus, now: Date, lookbackMinutes = 60, stuckMinutes = 5): BootFindings {
  const started = status.serverStartedAt ?? null;
  const since = started === null ? new Date(now.getTime() - lookbackMinutes * 60_000) : new Date(started);
  const earlierBoot = (t: StatusTask): boolean =>
    classifyFailureReason(t.failureReason) === 'reboot-interrupted' && failedAt(t) < since.getTime();
  return {
    boot: { since: since.toISOString(), source: started === null ? 'lookback' : 'server-start' },
    rebootInterrupted: rebootInterrupted(status, since),
    recentFailures: recentRealFailures(status, now, lookbackMinutes).filter((t) => !earlierBoot(t)),
    orphaned: orphanedTasks(status),
    supersededWithoutResume: supersededWithoutResume(status, now, lookbackMinutes),
    stuckOnOfflineAgents: stuckOnOfflineAgents(status, now, stuckMinutes),
  };
}

/** Whether anything needs a verdict. Stuck work on offline agents counts: the restart cut it off too. */
export function bootNeedsTriage(f: BootFindings): boolean {
  return (
    f.rebootInterrupted.length +
      f.recentFailures.length +
      f.orphaned.length +
      f.supersededWithoutResume.length +
      f.stuckOnOfflineAgents.length >
    0
  );
}

/**
 * The decision about 90 s after a server restart (spec 003): a boot-triage task only when the restart cut off work or left
 * failures, orphans or superseded tasks without a resume child; a clean boot creates none. The gate
 * never runs here.
 *
 * @example
 * ```ts
 * import { decideBootTriage, type BootTriageInput } from '@heartbeat-kit/runbook';
 *
 * declare const input: BootTriageInput; // the status snapshot after a restart, the runbook text, now
 * const decision = decideBootTriage(input);
 * console.log(decision.kind);
 * ```
 */
export function decideBootTriage(input: BootTriageInput): BootTriageDecision {
  if (input.disabled) return { kind: 'skip', reason: 'disabled' };
  const lead = input.status.agents.find((a) => a.isLead);
  if (lead === undefined) return { kind: 'skip', reason: 'no-lead' };
  if (hasOpenTaskOfType(input.status, 'boot-triage')) return { kind: 'skip', reason: 'open-boot-triage-task' };
  const findings = gatherBootFindings(input.status, input.now, input.lookbackMinutes, input.stuckMinutes);
  if (!bootNeedsTriage(findings)) return { kind: 'skip', reason: 'clean-boot', findings };
  const runbook =
    input.runbookText === null || isEffectivelyEmpty(input.runbookText)
      ? '_No standing orders configured._'
      : stripTerminalEscapes(input.runbookText).trimEnd();
  const extra: string[] = [];
  if (findings.supersededWithoutResume.length > 0) {
    extra.push(
      [
        '## Superseded Without Resume [auto-generated, NEEDS ATTENTION]',
        ...findings.supersededWithoutResume.map((t) => `- [${t.id}] superseded at ${t.lastUpdatedAt}, no live resume child`),
      ].join('\n'),
    );
  }
  if (findings.stuckOnOfflineAgents.length > 0) {
    extra.push(
      [
        '## Stuck On Offline Agents [auto-generated]',
        ...findings.stuckOnOfflineAgents.map(
          (t) => `- [${t.id}] in progress on offline agent ${t.agentId ?? 'unknown'}, last update ${t.lastUpdatedAt}`,
        ),
      ].join('\n'),
    );
  }
  const prompt =
    [
      '# Boot triage',
      renderSystemStatus(input.status, input.now, { boot: true, bootStartedAt: new Date(findings.boot.since) }),
      ...extra,
      `## Runbook snapshot [auto-generated]\n\n${runbook}`,
    ].join('\n\n') + '\n';
  return {
    kind: 'create',
    findings,
    task: { taskType: 'boot-triage', assignTo: lead.id, tags: ['boot', 'triage', 'auto-generated'], priority: 70, prompt },
  };
}
