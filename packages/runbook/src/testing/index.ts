/**
 * In-memory fakes of the runbook ports, for tests and embedders.
 * @module @heartbeat-kit/runbook/testing
 */
import { errAsync, okAsync } from 'neverthrow';
import type { Gate, GateError, GateResult, GateState } from '../gate/gate.js';
import { pullRequestKey } from '../prune/prune-plan.js';
import type { PullRequestRef } from '../model/runbook.js';
import type { PullRequestState, PullRequestStateError, PullRequestStates } from '../ports/pull-request-states.js';
import type { TaskStore } from '../ports/task-store.js';
import type { SystemStatus } from '../status/system-status.js';

/** A fake PR reader over a map keyed like `#12` or `o/r#12`; unknown PRs are `not-found`. */
export function createFakePullRequestStates(
  states: Readonly<Record<string, PullRequestState | PullRequestStateError>>,
): PullRequestStates & { readonly reads: PullRequestRef[] } {
  const reads: PullRequestRef[] = [];
  return {
    reads,
    read: (ref) => {
      reads.push(ref);
      const s = states[pullRequestKey(ref)];
      if (s === undefined) return errAsync({ kind: 'not-found', ref, message: `no PR ${pullRequestKey(ref)}` });
      return 'state' in s ? okAsync(s) : errAsync(s);
    },
  };
}

/** A fake TaskStore returning a fixed snapshot. */
export function createFakeTaskStore(status: SystemStatus): TaskStore {
  return { snapshot: () => okAsync(status) };
}

/** A fake gate with a fixed answer that records the states it saw. */
export function createFakeGate(answer: GateResult | GateError): Gate & { readonly calls: GateState[] } {
  const calls: GateState[] = [];
  return {
    name: 'fake-gate',
    calls,
    decide: (state) => {
      calls.push(state);
      return 'quiet' in answer ? okAsync(answer) : errAsync(answer);
    },
  };
}

/** What `makeTask` needs: an id and a status; every other field has a default. */
export type TaskInput = Partial<SystemStatus['tasks'][number]> & {
  readonly id: string;
  readonly status: SystemStatus['tasks'][number]['status'];
};

/** A status task with defaults filled in (timestamps default to `at`). */
export function makeTask(task: TaskInput, at = '2026-10-20T09:00:00.000Z'): SystemStatus['tasks'][number] {
  return { task: '', tags: [], createdAt: at, lastUpdatedAt: at, ...task };
}

/** A version-1 status snapshot with a lead agent `lead` online, for tests. */
export function makeStatus(partial: Partial<Omit<SystemStatus, 'version'>> = {}): SystemStatus {
  return {
    version: 1,
    generatedAt: '2026-10-20T10:00:00.000Z',
    tasks: [],
    agents: [{ id: 'lead', name: 'lead', isLead: true, status: 'online', busy: false }],
    schedules: [],
    mentions: [],
    ...partial,
  };
}
