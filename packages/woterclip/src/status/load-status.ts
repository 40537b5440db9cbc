import type { Clock, LockStore, ReceiptStore } from '@heartbeat-kit/core';
import { err, ok, type Result } from 'neverthrow';
import { priorBeatState } from '../beat/beat-receipts.js';
import type { WoterclipConfig } from '../config/woterclip-config.js';
import { lockView, type LockView } from '../lock/lock-holder.js';
import type { BeatLog } from '../ports/beat-log.js';
import type { IssueDetail, IssueTracker } from '../ports/issue-tracker.js';
import { buildStatus, type StatusView } from './status-view.js';

/** The ports `woterclip status` reads. */
export interface StatusDeps {
  readonly tracker: IssueTracker;
  readonly log: BeatLog;
  readonly clock: Clock;
  /** The beats' receipts, for the dispatch breaker's state; without them the breaker is not shown. */
  readonly receipts?: ReceiptStore;
  /** `.woterclip/.heartbeat-lock`: who holds it and whether the next beat takes it over; without it the lock is not shown. */
  readonly lock?: LockStore;
}

/** Why the status could not be computed: GitHub failed, or the beat log is unreadable. */
export interface StatusError {
  readonly kind: 'github' | 'log';
  readonly message: string;
}

/** The status view and the warnings met on the way (a torn log line, unreadable receipts). */
export interface LoadedStatus {
  readonly view: StatusView;
  readonly warnings: readonly string[];
}

/**
 * Everything `woterclip status` shows, read through the ports: who is logged in, the inbox,
 * the `Clears when:` line of each blocked issue, the beat log, and whether the dispatch breaker
 * holds beats back, and who holds the lock (a holder that died on this host is taken over at once
 * by the next beat; another host's, by age). A blocked issue whose detail cannot be read shows "not stated"; GitHub
 * failing on the login or the inbox, or an unreadable log, is an error.
 */
export async function loadStatus(deps: StatusDeps, config: WoterclipConfig): Promise<Result<LoadedStatus, StatusError>> {
  const auth = await deps.tracker.authStatus();
  if (auth.isErr()) return err({ kind: 'github', message: auth.error.message });
  const inbox = await deps.tracker.listInbox();
  if (inbox.isErr()) return err({ kind: 'github', message: inbox.error.message });
  const blockedDetails: IssueDetail[] = [];
  for (const issue of inbox.value.filter((i) => i.labels.includes(config.labels.blocked))) {
    const detail = await deps.tracker.viewIssue(issue.number);
    if (detail.isOk()) blockedDetails.push(detail.value);
  }
  const log = await deps.log.read();
  if (log.isErr()) return err({ kind: 'log', message: log.error.message });
  const warnings = [...log.value.warnings];
  let breaker;
  if (deps.receipts !== undefined) {
    const listed = await deps.receipts.list();
    if (listed.isErr()) warnings.push(`receipts: ${listed.error.message}`);
    else {
      warnings.push(...listed.value.warnings);
      const prior = priorBeatState(listed.value.receipts);
      if (prior.breaker !== undefined && prior.breaker.backoff > 0)
        breaker = {
          failures: prior.breaker.failures,
          message: prior.breaker.message,
          since: new Date(prior.breaker.sinceMs).toISOString(),
          nextTryBeat: prior.breaker.nextRunCycle,
          lastBeat: prior.n,
        };
    }
  }
  let lock: LockView | undefined;
  if (deps.lock !== undefined) {
    const nowMs = deps.clock.now().getTime();
    const inspected =
      deps.lock.inspect !== undefined
        ? await deps.lock.inspect()
        : (await deps.lock.read()).map((holder) => (holder === undefined ? undefined : { holder, liveness: 'unknown' as const }));
    if (inspected.isErr())
      warnings.push(`.woterclip/.heartbeat-lock: ${inspected.error.kind === 'held' ? 'held' : inspected.error.message}`);
    else lock = lockView(inspected.value, nowMs, config.heartbeat.stale_lock_hours);
  }
  const view = buildStatus({
    config,
    login: auth.value.login,
    inbox: inbox.value,
    blockedDetails,
    log: log.value.lines,
    now: deps.clock.now(),
  });
  return ok({
    view: { ...view, ...(breaker === undefined ? {} : { dispatchBreaker: breaker }), ...(lock === undefined ? {} : { lock }) },
    warnings,
  });
}
