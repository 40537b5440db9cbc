// How a cycle's outcome reads to an off-host monitor: the end ping's result and its one-line summary.
import type { CycleOutcome, Receipt } from '@heartbeat-kit/core';
import { cutOffScanners } from '@heartbeat-kit/core/host';
import type { PingEvent } from './ping-requests.js';
import type { PingFailures } from './slot-pinger.js';

/**
 * The exit a slot's outcome stands for, as `cycle` returns it: 3 when the delivery failed or was
 * held, the state was not saved or a signal cut scanners off; else 0. (A record or receipt that
 * could not be written also makes `cycle` exit 3, but is known only after the ping.)
 */
export function outcomeExitCode(outcome: CycleOutcome): number {
  return outcome.delivery === 'failed' ||
    outcome.delivery === 'held' ||
    outcome.stateError !== undefined ||
    cutOffScanners(outcome.problems).length > 0
    ? 3
    : 0;
}

/**
 * The end ping of a cycle that ran: the exit code when it is not 0; `fail` when a scanner failed or
 * timed out (a HEARTBEAT_OK that did not look everywhere must not read as all-clear); else success.
 */
export function endPingEvent(outcome: CycleOutcome, exitCode: number): Extract<PingEvent, { kind: 'end' }> {
  const failed = [
    ...new Set(
      outcome.problems.filter((p) => p.severity === 'warning' && (p.kind === 'failed' || p.kind === 'timed-out')).map((p) => p.scanner),
    ),
  ];
  const d = outcome.decision;
  const parts = [
    `cycle #${d.cycle} ${d.status === 'ok' ? 'HEARTBEAT_OK' : `report (${d.reportable.length} finding${d.reportable.length === 1 ? '' : 's'})`}`,
    `delivery ${outcome.delivery}`,
    ...(failed.length === 0 ? [] : [`scanners failed: ${failed.join(', ')}`]),
    ...(outcome.stateError === undefined ? [] : ['state not saved']),
    ...(exitCode === 0 ? [] : [`exit ${exitCode}`]),
  ];
  return {
    kind: 'end',
    result: exitCode !== 0 ? { kind: 'exit', code: exitCode } : failed.length > 0 ? { kind: 'fail' } : { kind: 'success' },
    summary: parts.join('; '),
  };
}

/** The receipt's optional `ping` field: present only when a ping of the slot failed. */
export function withPingFailures<R extends Receipt>(receipt: R, failures: PingFailures | undefined): R {
  if (failures === undefined || (failures.start === undefined && failures.end === undefined)) return receipt;
  return { ...receipt, ping: failures };
}
