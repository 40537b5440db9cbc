import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import {
  markDelivered,
  redactSecrets,
  scanAndEvaluate,
  sinkDeliveryHeld,
  skippedReceipt,
  updateSinkBreaker,
  type BreakerSettings,
  type CategoryTable,
  type Clock,
  type CycleDecision,
  type HeartbeatConfig,
  type OperatorActivity,
  type OutboundMessage,
  type Receipt,
  type ReceiptBounds,
  type Scanner,
  type SinkAttempt,
  type SinkError,
  type Sleep,
} from '@heartbeat-kit/core';
import { nodeSleep, systemClock } from '@heartbeat-kit/core/node';
import { DelayedError, Queue, UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Result, ResultAsync } from 'neverthrow';
import { parseFleetHeartbeat, type FleetHeartbeat } from '../fleet/fleet-heartbeat.js';
import {
  decideSlot,
  decodeFleetState,
  encodeFleetState,
  recordDelivery,
  recordPending,
  wasDelivered,
  withPendingAsReported,
  withoutPending,
  type FleetMeta,
  type FleetStateDocument,
} from '../fleet/fleet-state.js';
import { fleetGapReceipts, fleetRanReceipt } from '../fleet/fleet-receipts.js';
import type { RedisTarget } from '../fleet/redis-url.js';
import { cycleJobId, outboxJobId, slotOf } from '../fleet/slots.js';
import { appendReceiptWhileHeld, commitCycle } from './fleet-commit.js';
import { fleetKeys, type FleetKeys } from './fleet-keys.js';
import type { TickJobData } from './fleet-scheduler.js';
import { closeRedisClient, createRedisClient, redisOptionsFor } from './redis-connection.js';
import { createRedisLockStore, type RedisLockStore } from './redis-lock-store.js';
import { createRedisReceiptStore, DEFAULT_FLEET_RECEIPT_BOUNDS } from './redis-receipt-store.js';
import { createRedisStateStore } from './redis-state-store.js';

/** One outbox message handed to a {@link FleetSink}; `id` is stable across retries. */
export interface FleetDelivery {
  /** `<heartbeat>__<cycle>` (a cost alert adds `__cost`): a sink can drop repeats by it. */
  readonly id: string;
  readonly heartbeatId: string;
  readonly cycle: number;
  readonly message: OutboundMessage;
}

/** Where fleet messages go. Ok means the sink confirmed; an error is retried with backoff. */
export interface FleetSink {
  /** The sink's name as the operator knows it (`webhook`, `command`, …), said by its circuit breaker. */
  readonly name?: string;
  readonly deliver: (delivery: FleetDelivery) => ResultAsync<void, SinkError>;
}

/** What one cycle of a heartbeat runs with. */
export interface CycleSetup {
  readonly scanners: readonly Scanner[];
  readonly config: HeartbeatConfig;
  readonly timeZone: string;
  readonly operatorActivity?: OperatorActivity;
  /**
   * The categories' rules (an embedder's own from `defineCategories`): priority, outside-hours rule,
   * confirm cycles and header order of this heartbeat's findings and messages; default `DEFAULT_CATEGORIES`.
   */
  readonly categories?: CategoryTable;
}

/** Turns a registration into scanners and config for one slot (the CLI wires the real scanners here). */
export type ResolveHeartbeat = (heartbeat: FleetHeartbeat, slot: number) => Promise<Result<CycleSetup, string>>;

/** What the worker did, as journal entries and `onEvent` calls. */
export type FleetEvent =
  | {
      readonly type: 'cycle';
      readonly heartbeatId: string;
      readonly slot: number;
      readonly cycle: number;
      readonly fence: number;
      readonly worker: string;
      readonly dueMs: number;
      readonly startedAtMs: number;
      readonly endedAtMs: number;
      readonly report: boolean;
      /** What went wrong around the cycle (operator activity unreadable, …), as `runCycle` reports it. */
      readonly warnings?: readonly string[];
    }
  | {
      readonly type: 'skip';
      readonly heartbeatId: string;
      readonly slot: number;
      readonly reason: 'already-ran' | 'unregistered' | 'overlap';
      readonly worker: string;
    }
  | {
      readonly type: 'stale-write';
      readonly heartbeatId: string;
      readonly slot: number;
      readonly fence: number;
      readonly current: number;
      readonly worker: string;
    }
  | { readonly type: 'failed'; readonly heartbeatId: string; readonly slot: number; readonly message: string; readonly worker: string }
  | {
      readonly type: 'delivered';
      readonly heartbeatId: string;
      readonly cycle: number;
      readonly id: string;
      readonly fence: number;
      readonly worker: string;
    }
  | {
      /** The heartbeat's sink breaker: `tripped`, `recovered`, `changed` once each; `held` per message not tried. */
      readonly type: 'sink-breaker';
      readonly kind: 'tripped' | 'recovered' | 'changed' | 'held';
      readonly heartbeatId: string;
      /** The heartbeat's cycle the breaker counted this at. */
      readonly cycle: number;
      /** The outbox message it happened to. */
      readonly id: string;
      readonly line: string;
      /** With `tripped`: the one SINK_FAILING advisory, for the operator's channel (the sink cannot carry it). */
      readonly advisory?: { readonly line: string; readonly action: string };
      readonly worker: string;
    };

/** Options of {@link createFleetWorker}. */
export interface FleetWorkerOptions {
  readonly target: RedisTarget;
  readonly prefix?: string;
  readonly sink: FleetSink;
  /** Jobs of each queue processed at once (default 4). */
  readonly concurrency?: number;
  /**
   * Scanners and config per heartbeat. No default: the CLI passes one for project directories;
   * tests and benchmarks pass `createFakeResolver()` from `@heartbeat-kit/bullmq/testing`.
   */
  readonly resolve: ResolveHeartbeat;
  /** Receipts kept per heartbeat (default {@link DEFAULT_FLEET_RECEIPT_BOUNDS}). */
  readonly receiptBounds?: ReceiptBounds;
  /** Lease of a heartbeat lock; renewed every third of it while a cycle runs (default 30 s). */
  readonly lockTtlMs?: number;
  /** BullMQ's job lock; a worker silent this long has its jobs handed to another (default 30 s). */
  readonly jobLockMs?: number;
  /** How often BullMQ looks for stalled jobs (default: half the job lock). */
  readonly stalledIntervalMs?: number;
  /** Append every event to the `<prefix>:journal` list (tests and benchmarks read it). */
  readonly journal?: boolean;
  readonly onEvent?: (event: FleetEvent) => void;
  readonly workerId?: string;
  readonly clock?: Clock;
  readonly sleep?: Sleep;
}

/** A running fleet worker. */
export interface FleetWorker {
  readonly id: string;
  /** Stops taking jobs, waits for running ones, and closes every connection. */
  readonly close: () => Promise<void>;
}

/** Data of a cycle job. */
export interface CycleJobData {
  readonly heartbeatId: string;
  readonly slot: number;
  readonly dueMs: number;
}

/** Data of an outbox job: the whole decision, so `markDelivered` can run after confirmation. */
export interface OutboxJobData {
  readonly heartbeatId: string;
  readonly cycle: number;
  readonly decision: CycleDecision;
  /** The heartbeat's sink breaker settings when the cycle ran (absent in jobs from older workers: no breaker). */
  readonly breaker?: OutboxBreakerSettings;
}

/** What the outbox needs to run a heartbeat's sink breaker. */
export interface OutboxBreakerSettings {
  readonly settings: BreakerSettings;
  readonly timeZone: string;
  /** The heartbeat's interval: a held message is looked at again one cycle later. */
  readonly intervalMs: number;
}

const HOLD_POLL_MS = 20;
const OUTBOX_RETRY_MS = 500;
// The outbox's own backoff type: doubling from 500 ms, capped at the heartbeat's interval (a
// minute without one), so a sink that was down for hours is tried again within a cycle of coming back.
const CAPPED_BACKOFF = 'capped-exponential';
const DELIVERED_MARK_SECONDS = 7 * 24 * 3600;

class LockBusy extends Error {}

/**
 * When a tick was due. BullMQ names scheduler jobs `repeat:<scheduler>:<due millis>` and does not
 * keep `prevMillis` on the job; creation time plus delay is the fallback.
 */
function tickDueMs(job: Job<TickJobData>): number {
  const fromId = Number((job.id ?? '').slice((job.id ?? '').lastIndexOf(':') + 1));
  if ((job.id ?? '').startsWith('repeat:') && Number.isSafeInteger(fromId) && fromId > 0) return fromId;
  return job.timestamp + (job.opts.delay ?? 0);
}

// Lock owners say what holds them, so a slot can tell a running cycle from a short outbox write.
const CYCLE_OWNER_TAG = ':cycle-';

/**
 * A fleet worker: three BullMQ workers on one Redis.
 * - `ticks` (fed by one job scheduler per heartbeat) turns each due slot into a cycle job with
 *   id `<heartbeat>__<slot>`; BullMQ ignores a second add of an existing id.
 * - `cycles` takes the heartbeat's Redis lock (fenced), skips a slot the state says already
 *   ran, runs core's cycle step (`scanAndEvaluate`: breaker skips, operator activity, evaluate),
 *   enqueues the message as outbox job `<heartbeat>__<cycle>`, then saves the state and the
 *   slot's receipt in one script under the fence. Message first, state second: a crash in
 *   between re-runs the slot, which re-enqueues the same id (a no-op) instead of losing the
 *   report; state and receipt together: every slot ends in exactly one record.
 * - `outbox` delivers, and only after the sink confirmed marks the findings reported
 *   (core's `markDelivered`) under the lock and fence.
 *
 * @example
 * ```ts
 * import { okAsync } from 'neverthrow';
 * import { parseRedisUrl } from '@heartbeat-kit/bullmq';
 * import { createFleetWorker } from '@heartbeat-kit/bullmq/node';
 * import { createFakeResolver } from '@heartbeat-kit/bullmq/testing';
 *
 * const target = parseRedisUrl(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
 * if (target.isErr()) throw new Error(`REDIS_URL: ${target.error}`); // the script's edge: say why and stop
 * // Run as many workers as you like: each slot runs once, each report is delivered once.
 * const worker = createFleetWorker({
 *   target: target.value,
 *   resolve: createFakeResolver(), // or your own: registration → scanners, config, time zone
 *   sink: { deliver: (delivery) => okAsync(void console.log(delivery.heartbeatId, delivery.message.summary)) },
 * });
 * process.once('SIGTERM', () => void worker.close());
 * ```
 */
export function createFleetWorker(options: FleetWorkerOptions): FleetWorker {
  const keys = fleetKeys(options.prefix);
  const id = options.workerId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const clock = options.clock ?? systemClock;
  const receiptBounds = options.receiptBounds ?? DEFAULT_FLEET_RECEIPT_BOUNDS;
  const sleep = options.sleep ?? nodeSleep;
  const lockTtlMs = options.lockTtlMs ?? 30_000;
  const jobLockMs = options.jobLockMs ?? 30_000;
  const concurrency = Math.max(1, options.concurrency ?? 4);
  const { resolve } = options;
  const redis = createRedisClient(options.target);
  const connection = redisOptionsFor(options.target);
  const cycles = new Queue<CycleJobData>(keys.cycleQueue, { connection, prefix: keys.bullPrefix });
  const outbox = new Queue<OutboxJobData>(keys.outboxQueue, { connection, prefix: keys.bullPrefix });

  const emit = async (event: FleetEvent): Promise<void> => {
    options.onEvent?.(event);
    if (options.journal === true) await redis.rpush(keys.journal, JSON.stringify(event));
  };

  const registration = async (heartbeatId: string): Promise<FleetHeartbeat | undefined> => {
    const text = await redis.hget(keys.registry, heartbeatId);
    if (text === null) return undefined;
    const parsed = parseFleetHeartbeat(JSON.parse(text));
    return parsed.isOk() ? parsed.value : undefined;
  };

  /**
   * Takes the heartbeat lock, waiting while another job holds it; renews it until `release`.
   * With `skipIfCycle`, a lock held by another cycle returns its owner at once instead: that
   * cycle covers this slot, and waiting would pin a worker slot behind one slow heartbeat.
   */
  const holdLock = async (heartbeatId: string, purpose: string, skipIfCycle = false) => {
    const lock: RedisLockStore = createRedisLockStore({ redis, key: keys.lock(heartbeatId), ttlMs: lockTtlMs });
    const owner = `${id}:${purpose}:${randomUUID().slice(0, 8)}`;
    const deadline = clock.now().getTime() + lockTtlMs;
    for (;;) {
      const acquired = await lock.acquire({ owner, nowMs: clock.now().getTime(), staleAfterMs: lockTtlMs });
      if (acquired.isOk()) {
        const fence = acquired.value.record.fence ?? 0;
        let lost = false;
        const timer = setInterval(
          () => {
            void lock.renew(owner, clock.now().getTime(), lockTtlMs).then((renewed) => {
              if (renewed.isOk() && renewed.value === 'lost') lost = true;
            });
          },
          Math.max(10, Math.floor(lockTtlMs / 3)),
        );
        return {
          skippedFor: undefined,
          fence,
          lost: () => lost,
          /** True while no newer holder has taken the lock. */
          current: async () => Number((await redis.get(lock.fenceKey)) ?? '0') === fence,
          release: async () => {
            clearInterval(timer);
            await lock.release(owner);
          },
        };
      }
      if (acquired.error.kind !== 'held') throw new Error(acquired.error.message);
      if (skipIfCycle && acquired.error.holder.owner.includes(CYCLE_OWNER_TAG)) return { skippedFor: acquired.error.holder.owner };
      // Waiting beats failing: the holder is usually the previous slot or the outbox, both short.
      if (clock.now().getTime() >= deadline) throw new LockBusy(`heartbeat ${heartbeatId} is locked by ${acquired.error.holder.owner}`);
      await sleep.sleep(HOLD_POLL_MS + Math.floor(Math.random() * HOLD_POLL_MS));
    }
  };

  const loadState = async (store: ReturnType<typeof createRedisStateStore>): Promise<FleetStateDocument> => {
    const loaded = await store.load();
    if (loaded.isErr()) throw new Error(loaded.error.message);
    return decodeFleetState(loaded.value.document).state;
  };

  const stateStoreFor = (heartbeatId: string) =>
    createRedisStateStore({ redis, key: keys.state(heartbeatId), lockFenceKey: `${keys.lock(heartbeatId)}:fence` });

  const receiptStoreFor = (heartbeatId: string) =>
    createRedisReceiptStore({ redis, key: keys.receipts(heartbeatId), bounds: receiptBounds, clock });

  /** Records a slot whose setup failed (under the lock); a failed append is retried by failing the job. */
  const recordConfigError = async (heartbeatId: string, dueMs: number, detail: string) => {
    const appended = await receiptStoreFor(heartbeatId).append(
      skippedReceipt('config-error', { slotMs: dueMs, atMs: clock.now().getTime(), source: 'fleet', detail }),
    );
    if (appended.isErr()) throw new Error(appended.error.message);
  };

  /** The slot a cycle lock owner runs (its purpose is `cycle-<slot>`). */
  const slotOfOwner = (owner: string): number => Number(/:cycle-(\d+):/.exec(owner)?.[1] ?? Number.NaN);

  /**
   * Records a slot skipped because `holder` (an earlier slot's cycle) runs. False when the holder
   * let go meanwhile: decide again.
   */
  const recordOverlap = async (heartbeatId: string, dueMs: number, holder: string): Promise<boolean> => {
    const receipt = skippedReceipt('overlapping', {
      slotMs: dueMs,
      atMs: clock.now().getTime(),
      source: 'fleet',
      detail: 'an earlier slot of this heartbeat was still running',
    });
    return appendReceiptWhileHeld(
      redis,
      { receipts: keys.receipts(heartbeatId), lock: keys.lock(heartbeatId) },
      holder,
      receipt,
      receiptBounds,
    );
  };

  const processTick = async (job: Job<TickJobData>): Promise<void> => {
    const heartbeat = await registration(job.data.heartbeatId);
    if (heartbeat === undefined) return;
    const dueMs = tickDueMs(job);
    const slot = slotOf(dueMs, heartbeat.intervalMs);
    await cycles.add(
      'cycle',
      { heartbeatId: heartbeat.id, slot, dueMs },
      {
        jobId: cycleJobId(heartbeat.id, slot),
        attempts: 50,
        backoff: { type: 'fixed', delay: 500 },
        // Kept for a day so a re-added id stays a no-op; the state's lastSlot guards beyond that.
        removeOnComplete: { age: 24 * 3600, count: 100_000 },
        removeOnFail: { age: 7 * 24 * 3600 },
      },
    );
  };

  const processCycle = async (job: Job<CycleJobData>): Promise<void> => {
    const { heartbeatId, slot, dueMs } = job.data;
    const heartbeat = await registration(heartbeatId);
    if (heartbeat === undefined) {
      await emit({ type: 'skip', heartbeatId, slot, reason: 'unregistered', worker: id });
      return;
    }
    let held = await holdLock(heartbeatId, `cycle-${slot}`, true);
    while (held.skippedFor !== undefined) {
      // A late or retried job of a slot at or before the running one waits for the lock instead:
      // then it sees whether its slot ran or has a record, and closes it if neither.
      if (!(slotOfOwner(held.skippedFor) < slot)) {
        held = await holdLock(heartbeatId, `cycle-${slot}`);
        break;
      }
      if (await recordOverlap(heartbeatId, dueMs, held.skippedFor)) {
        await emit({ type: 'skip', heartbeatId, slot, reason: 'overlap', worker: id });
        return;
      }
      held = await holdLock(heartbeatId, `cycle-${slot}`, true);
    }
    if (held.skippedFor !== undefined) throw new LockBusy(`heartbeat ${heartbeatId} is locked by ${held.skippedFor}`);
    const startedAtMs = clock.now().getTime();
    try {
      const store = stateStoreFor(heartbeatId);
      const state = await loadState(store);
      if (decideSlot(state.fleet, slot) === 'already-ran') {
        const lastSlot = state.fleet.lastSlot;
        if (lastSlot !== undefined && slot < lastSlot) {
          // A late or retried job overtaken by a later slot whose commit could not see it (no
          // earlier commit to measure a gap from): close it now, and every slot after it up to
          // that commit that has no record either — they were due and nothing ran them. (Slots
          // after the first commit all have records already: each commit closes its gap.)
          const listed = await receiptStoreFor(heartbeatId).list();
          if (listed.isErr()) throw new Error(listed.error.message);
          const missing = fleetGapReceipts(listed.value.receipts, {
            lastSlot: slot - 1,
            slot: lastSlot,
            dueMs: dueMs + (lastSlot - slot) * heartbeat.intervalMs,
            intervalMs: heartbeat.intervalMs,
            atMs: clock.now().getTime(),
          });
          for (const receipt of missing) {
            const appended = await receiptStoreFor(heartbeatId).append(receipt);
            if (appended.isErr()) throw new Error(appended.error.message);
          }
        }
        await emit({ type: 'skip', heartbeatId, slot, reason: 'already-ran', worker: id });
        return;
      }
      const setup = await resolve(heartbeat, slot);
      if (setup.isErr()) {
        // A broken registration (bad HEARTBEAT.md, unknown scanner set) will not heal by retrying.
        await recordConfigError(heartbeatId, dueMs, setup.error);
        await emit({ type: 'failed', heartbeatId, slot, message: setup.error, worker: id });
        throw new UnrecoverableError(setup.error);
      }
      const { config, timeZone, scanners, operatorActivity, categories } = setup.value;
      const now = clock.now();
      // The same step as runCycle: breaker skips, operator activity (its failure kept), evaluate.
      // Findings still waiting in the outbox count as reported, so this slot does not repeat them.
      const evaluated = await scanAndEvaluate(
        { clock, sleep, scanners, ...(operatorActivity === undefined ? {} : { operatorActivity }) },
        {
          state: withPendingAsReported(state.heartbeat, state.fleet, now.getTime()),
          config,
          timeZone,
          now,
          ...(categories === undefined ? {} : { categories }),
        },
      );
      const { decision } = evaluated;
      const nextState = withoutPending(evaluated.nextState, state.heartbeat);
      const report = decision.message !== null || decision.costAlert !== null;
      let fleet: FleetMeta = {
        ...state.fleet,
        lastSlot: slot,
        lastCycle: decision.cycle,
        lastCycleStartedAtMs: startedAtMs,
        lastLagMs: startedAtMs - dueMs,
      };
      // A holder that already lost the lock must not enqueue: its successor owns this cycle.
      if (report && !held.lost() && (await held.current())) {
        let messageId = outboxJobId(heartbeatId, decision.cycle);
        // This cycle number's message went out in an attempt that crashed before saving, and the
        // outbox has already marked its findings: what is left to say is new and needs its own id.
        if (wasDelivered(state.fleet, messageId)) messageId = `${messageId}__${slot}`;
        await outbox.add(
          'deliver',
          {
            heartbeatId,
            cycle: decision.cycle,
            decision,
            breaker: { settings: config.breaker, timeZone, intervalMs: heartbeat.intervalMs },
          },
          {
            jobId: messageId,
            attempts: 1_000_000,
            backoff: { type: CAPPED_BACKOFF, delay: OUTBOX_RETRY_MS },
            removeOnComplete: { age: 7 * 24 * 3600 },
            removeOnFail: false,
          },
        );
        fleet = recordPending(
          fleet,
          messageId,
          now.getTime(),
          decision.reportable.map((finding) => finding.fingerprint),
        );
      }
      const endedAtMs = clock.now().getTime();
      const receipts: Receipt[] = [];
      if (state.fleet.lastSlot !== undefined && slot > state.fleet.lastSlot + 1) {
        // Slots since the last commit without a record of their own get one (collapsed, or died).
        const listed = await receiptStoreFor(heartbeatId).list();
        if (listed.isErr()) throw new Error(listed.error.message);
        receipts.push(
          ...fleetGapReceipts(listed.value.receipts, {
            lastSlot: state.fleet.lastSlot,
            slot,
            dueMs,
            intervalMs: heartbeat.intervalMs,
            atMs: endedAtMs,
          }),
        );
      }
      // An open sink breaker holds this report in the outbox: the receipt says so, as the loop's does.
      const heldBack =
        decision.message !== null && sinkDeliveryHeld(state.fleet.sinkBreaker?.breaker, decision.cycle, config.breaker) !== undefined;
      receipts.push(
        fleetRanReceipt(decision, evaluated.problems, {
          dueMs,
          atMs: endedAtMs,
          delivery: !report ? 'none' : heldBack ? 'held' : 'queued',
        }),
      );
      const saved = await commitCycle(
        redis,
        { state: keys.state(heartbeatId), lockFence: `${keys.lock(heartbeatId)}:fence`, receipts: keys.receipts(heartbeatId) },
        encodeFleetState({ heartbeat: nextState, fleet: { ...fleet, lastCycleEndedAtMs: endedAtMs } }),
        held.fence,
        receipts,
        receiptBounds,
      );
      if (!saved.written) {
        await emit({ type: 'stale-write', heartbeatId, slot, fence: held.fence, current: saved.current, worker: id });
        return;
      }
      await emit({
        type: 'cycle',
        heartbeatId,
        slot,
        cycle: decision.cycle,
        fence: held.fence,
        worker: id,
        dueMs,
        startedAtMs,
        endedAtMs,
        report,
        ...(evaluated.warnings.length === 0 ? {} : { warnings: evaluated.warnings }),
      });
    } finally {
      await held.release();
    }
  };

  const sinkName = (options.sink.name ?? 'sink').slice(0, 60) || 'sink';

  /** The heartbeat's cycle a sink breaker counts in: the latest committed one (never older than the message's). */
  const currentCycle = (fleet: FleetMeta, messageCycle: number): number => Math.max(messageCycle, fleet.lastCycle ?? 0);

  /**
   * Runs the heartbeat's sink breaker on one delivery attempt: `state` becomes the state to save,
   * and the breaker's events are returned to emit after the save. A failure counts once per cycle
   * of the heartbeat (outbox retries within a cycle are the same try), as the loop's breaker counts.
   */
  const stepSinkBreaker = (
    fleet: FleetMeta,
    messageCycle: number,
    breaker: OutboxBreakerSettings,
    attempt: SinkAttempt,
  ): {
    readonly fleet: FleetMeta;
    readonly events: Omit<Extract<FleetEvent, { type: 'sink-breaker' }>, 'type' | 'heartbeatId' | 'id' | 'worker'>[];
  } => {
    const cycle = currentCycle(fleet, messageCycle);
    const previous = fleet.sinkBreaker;
    if (attempt.kind === 'failed' && previous !== undefined && previous.triedCycle >= cycle) return { fleet, events: [] };
    const report = updateSinkBreaker(previous?.breaker, sinkName, attempt, {
      cycle,
      now: clock.now(),
      timeZone: breaker.timeZone,
      settings: breaker.settings,
    });
    const { sinkBreaker: _dropped, ...rest } = fleet;
    void _dropped;
    const next: FleetMeta =
      report.breaker === undefined
        ? rest
        : {
            ...rest,
            sinkBreaker: { breaker: report.breaker, triedCycle: attempt.kind === 'failed' ? cycle : (previous?.triedCycle ?? cycle) },
          };
    const events = report.events.map((event) => ({
      kind: event.kind,
      cycle,
      line: event.line,
      ...(event.kind === 'tripped' && report.advisory !== undefined
        ? { advisory: { line: report.advisory.line, action: report.advisory.action } }
        : {}),
    }));
    return { fleet: next, events };
  };

  const processOutbox = async (job: Job<OutboxJobData>, token?: string): Promise<void> => {
    const { heartbeatId, cycle, decision, breaker } = job.data;
    const messageId = job.id ?? outboxJobId(heartbeatId, cycle);
    const markKey = keys.delivered(messageId);
    const breakerOn = breaker !== undefined && breaker.settings.after > 0 && decision.message !== null;
    let deliveredAtText = await redis.get(markKey);
    let attempt: SinkAttempt = { kind: 'not-tried' };
    if (deliveredAtText === null) {
      if (decision.message !== null) {
        if (breakerOn) {
          // An open breaker holds the message back (never drops it): looked at again next cycle.
          const state = await loadState(stateStoreFor(heartbeatId));
          const at = currentCycle(state.fleet, cycle);
          const held = sinkDeliveryHeld(state.fleet.sinkBreaker?.breaker, at, breaker.settings);
          if (held !== undefined) {
            await emit({ type: 'sink-breaker', kind: 'held', heartbeatId, cycle: at, id: messageId, line: held.line, worker: id });
            await job.moveToDelayed(clock.now().getTime() + Math.max(OUTBOX_RETRY_MS, breaker.intervalMs), token);
            throw new DelayedError();
          }
        }
        const sent = await options.sink.deliver({ id: messageId, heartbeatId, cycle, message: decision.message });
        if (sent.isErr()) {
          const message = redactSecrets(sent.error.message);
          if (breakerOn)
            await recordSinkFailure(heartbeatId, cycle, messageId, breaker, redactSecrets(sent.error.code ?? message), message);
          throw new Error(message);
        }
        attempt = { kind: 'delivered' };
      }
      deliveredAtText = String(clock.now().getTime());
      await redis.set(markKey, deliveredAtText, 'EX', DELIVERED_MARK_SECONDS);
      if (decision.costAlert !== null)
        await options.sink.deliver({ id: `${messageId}__cost`, heartbeatId, cycle, message: decision.costAlert });
    }
    const deliveredAt = new Date(Number(deliveredAtText));
    const held = await holdLock(heartbeatId, `outbox-${cycle}`);
    if (held.skippedFor !== undefined) throw new LockBusy(`heartbeat ${heartbeatId} is locked`);
    const breakerEvents: ReturnType<typeof stepSinkBreaker>['events'] = [];
    try {
      const store = stateStoreFor(heartbeatId);
      const state = await loadState(store);
      let next: FleetStateDocument = state;
      if (!wasDelivered(state.fleet, messageId)) {
        next = {
          heartbeat: markDelivered(state.heartbeat, decision, deliveredAt),
          fleet: recordDelivery(
            state.fleet,
            messageId,
            deliveredAt.getTime(),
            decision.message?.summary ?? decision.costAlert?.summary ?? '',
          ),
        };
      }
      // A delivery that worked closes an open breaker (one `recovered` line).
      if (breakerOn && attempt.kind === 'delivered' && next.fleet.sinkBreaker !== undefined) {
        const stepped = stepSinkBreaker(next.fleet, cycle, breaker, attempt);
        next = { ...next, fleet: stepped.fleet };
        breakerEvents.push(...stepped.events);
      }
      if (next !== state) {
        const saved = await store.save(encodeFleetState(next), { fence: held.fence });
        // A stale fence here means a newer holder appeared: retry under a fresh lock.
        if (saved.isErr()) throw new Error(saved.error.message);
      }
      await emit({ type: 'delivered', heartbeatId, cycle, id: messageId, fence: held.fence, worker: id });
    } finally {
      await held.release();
    }
    for (const event of breakerEvents) await emit({ type: 'sink-breaker', heartbeatId, id: messageId, worker: id, ...event });
  };

  /** Counts a failed delivery in the heartbeat's sink breaker (under its lock); says a trip once. */
  const recordSinkFailure = async (
    heartbeatId: string,
    cycle: number,
    messageId: string,
    breaker: OutboxBreakerSettings,
    code: string,
    message: string,
  ): Promise<void> => {
    const held = await holdLock(heartbeatId, `outbox-${cycle}`);
    if (held.skippedFor !== undefined) throw new LockBusy(`heartbeat ${heartbeatId} is locked`);
    let events: ReturnType<typeof stepSinkBreaker>['events'] = [];
    try {
      const store = stateStoreFor(heartbeatId);
      const state = await loadState(store);
      const stepped = stepSinkBreaker(state.fleet, cycle, breaker, { kind: 'failed', code, message });
      if (stepped.fleet !== state.fleet) {
        const saved = await store.save(encodeFleetState({ ...state, fleet: stepped.fleet }), { fence: held.fence });
        if (saved.isErr()) throw new Error(saved.error.message);
        events = stepped.events;
      }
    } finally {
      await held.release();
    }
    for (const event of events) await emit({ type: 'sink-breaker', heartbeatId, id: messageId, worker: id, ...event });
  };

  const workerOptions = {
    connection,
    prefix: keys.bullPrefix,
    concurrency,
    lockDuration: jobLockMs,
    stalledInterval: options.stalledIntervalMs ?? Math.max(500, Math.floor(jobLockMs / 2)),
    maxStalledCount: 100,
    settings: {
      backoffStrategy: (attemptsMade: number, type?: string, _error?: Error, job?: { readonly data?: unknown }): number => {
        if (type !== CAPPED_BACKOFF) return OUTBOX_RETRY_MS;
        const cap = Math.max(1000, (job?.data as OutboxJobData | undefined)?.breaker?.intervalMs ?? 60_000);
        return Math.min(cap, OUTBOX_RETRY_MS * 2 ** Math.min(30, Math.max(0, attemptsMade - 1)));
      },
    },
  };
  const workers = [
    new Worker<TickJobData>(keys.tickQueue, processTick, workerOptions),
    new Worker<CycleJobData>(keys.cycleQueue, processCycle, workerOptions),
    new Worker<OutboxJobData>(keys.outboxQueue, processOutbox, workerOptions),
  ];
  // Errors are retried by BullMQ (and ioredis reconnects); an unheard 'error' event would crash.
  for (const worker of workers) worker.on('error', () => undefined);
  cycles.on('error', () => undefined);
  outbox.on('error', () => undefined);
  redis.on('error', () => undefined);

  return {
    id,
    close: async () => {
      // See fleet-scheduler: never close a BullMQ connection that is still initialising.
      await Promise.all([...workers, cycles, outbox].map((q) => q.waitUntilReady().catch(() => undefined)));
      await Promise.all(workers.map((worker) => worker.close()));
      await Promise.all([cycles.close(), outbox.close()]);
      await closeRedisClient(redis);
    },
  };
}

/** Reads the journal a worker with `journal: true` appended to. */
export async function readFleetJournal(redis: Redis, prefix?: string): Promise<FleetEvent[]> {
  const keys: FleetKeys = fleetKeys(prefix);
  const entries = await redis.lrange(keys.journal, 0, -1);
  return entries.map((text) => JSON.parse(text) as FleetEvent);
}
