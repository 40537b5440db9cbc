import { sanitizeForMessage } from '@heartbeat-kit/core';
import { orphanedTasks, rebootInterrupted, recentFailures, stalledTasks } from './status-views.js';
import type { StatusTask, SystemStatus } from './system-status.js';

const DAY = 86_400_000;

function short(id: string): string {
  return sanitizeForMessage(id.slice(0, 8), { maxLength: 8 });
}

function text(value: string, max: number): string {
  return sanitizeForMessage(value, { maxLength: max });
}

function agentLabel(status: SystemStatus, id: string | null | undefined): string {
  if (id === null || id === undefined) return 'unassigned';
  const agent = status.agents.find((a) => a.id === id);
  return text(agent?.name !== undefined && agent.name !== '' ? agent.name : id, 40);
}

function failureLines(failures: readonly StatusTask[]): string[] {
  const patterns = new Map<string, { count: number; agents: Set<string> }>();
  for (const f of failures) {
    const key = (f.failureReason ?? 'unknown').slice(0, 80).toLowerCase().trim() || 'unknown';
    const p = patterns.get(key) ?? { count: 0, agents: new Set<string>() };
    p.count += 1;
    if (f.agentId) p.agents.add(short(f.agentId));
    patterns.set(key, p);
  }
  const repeated = [...patterns].filter(([, p]) => p.count >= 2);
  const lines: string[] = ['## Recent Failures (last 6h) [auto-generated]', ''];
  if (repeated.length > 0) {
    lines.push('**Failure patterns detected:**');
    for (const [key, p] of repeated) lines.push(`- ${p.count}x: "${text(key, 80)}" (agents: ${[...p.agents].join(', ')})`);
    lines.push('');
  }
  for (const f of failures.slice(0, 10)) {
    const reason = f.failureReason ? text(f.failureReason, 100) : 'no reason';
    lines.push(
      `- [${short(f.id)}] "${text(f.task, 50)}" — agent: ${f.agentId ? short(f.agentId) : 'unassigned'}, reason: ${reason}, at: ${f.finishedAt ?? f.lastUpdatedAt}`,
    );
  }
  if (failures.length > 10) lines.push(`- ... and ${failures.length - 10} more`);
  return lines;
}

/**
 * The system status text of a checklist prompt (reference §4). Every untrusted string is sanitised
 * (controls, secrets, mentions) and cut, because the text goes in front of a model. In boot mode,
 * `bootStartedAt` keeps earlier restarts' reboot-sweep failures out of the Reboot-Interrupted section.
 */
export function renderSystemStatus(
  status: SystemStatus,
  now: Date,
  options: { readonly boot?: boolean; readonly bootStartedAt?: Date } = {},
): string {
  const count = (s: string): number => status.tasks.filter((t) => t.status === s).length;
  const within24h = (t: StatusTask): boolean => now.getTime() - Date.parse(t.finishedAt ?? t.lastUpdatedAt) <= DAY;
  const sections: string[][] = [];
  sections.push([
    '## Task Overview [auto-generated]',
    `- In Progress: ${count('in_progress')}`,
    `- Pending: ${count('pending')}`,
    `- Unassigned: ${status.tasks.filter((t) => (t.status === 'pending' || t.status === 'offered') && !t.agentId && !t.offeredTo).length}`,
    `- Completed (24h): ${status.tasks.filter((t) => t.status === 'completed' && within24h(t)).length}`,
    `- Failed (24h): ${status.tasks.filter((t) => t.status === 'failed' && within24h(t)).length}`,
  ]);
  const stalled = stalledTasks(status, now);
  if (stalled.length > 0) {
    sections.push([
      '## Stalled Tasks [auto-generated]',
      ...stalled.map(
        (t) =>
          `- [${short(t.id)}] "${text(t.task, 60)}" — assigned to ${t.agentId ? short(t.agentId) : 'unassigned'}, last update: ${t.lastUpdatedAt}`,
      ),
    ]);
  }
  const failures = recentFailures(status, now);
  if (failures.length > 0) sections.push(failureLines(failures));
  const online = status.agents.filter((a) => a.status === 'online');
  const idle = online.filter((a) => !a.busy);
  sections.push([
    '## Agent Status [auto-generated]',
    `- Online: ${online.length} (${idle.length} idle, ${online.length - idle.length} busy), Offline: ${status.agents.length - online.length}`,
  ]);
  const pool = Math.min(10, status.tasks.filter((t) => t.status === 'pending' && !t.agentId).length);
  const idleWorkers = idle.filter((a) => !a.isLead).length;
  if (pool > 0 || idleWorkers > 0) {
    sections.push([
      '## Available Work [auto-generated]',
      `- ${pool} unassigned pool task(s) waiting`,
      `- ${idleWorkers} idle worker(s) with capacity`,
    ]);
  }
  if (options.boot === true) {
    const interrupted = rebootInterrupted(status, options.bootStartedAt);
    if (interrupted.length > 0) {
      sections.push([
        '## Reboot-Interrupted Work [auto-generated, ACTION REQUIRED]',
        ...interrupted.map(
          (r) =>
            `- [${text(r.task.id, 64)}] "${text(r.task.task, 100)}" — was on ${agentLabel(status, r.task.agentId)} → ${r.systemTask ? 'no retry (system task)' : r.retry ? `retry created: ${text(r.retry.id, 64)}` : 'no retry found'}`,
        ),
        '',
        'For each task: get-task-details on its retry; recreate a failed or stuck retry; cancel a retry nobody needs. Every item gets a verdict.',
      ]);
    }
    const orphans = orphanedTasks(status);
    if (orphans.length > 0) {
      sections.push([
        '## Orphaned Tasks [auto-generated, NEEDS ATTENTION]',
        ...orphans.map(
          (t) =>
            `- [${text(t.id, 64)}] "${text(t.task, 100)}" — status: ${t.status}, assigned to: ${agentLabel(status, t.status === 'offered' ? (t.offeredTo ?? t.agentId) : t.agentId)}`,
        ),
      ]);
    }
  }
  return sections.map((s) => s.join('\n')).join('\n\n');
}
