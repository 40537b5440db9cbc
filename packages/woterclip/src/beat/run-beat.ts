import type { Receipt, ReceiptStore } from '@heartbeat-kit/core';
import { type BreakerSettings, type SettledSlot, settleSlot } from '@heartbeat-kit/core/host';
import { BEAT_RECEIPT_SOURCE } from './beat-detail.js';
import { beatSlotMs, priorBeatState } from './beat-receipts.js';
import { planBeatRecord, type BeatRecordPlan } from './beat-record.js';
import { releaseLock, type BeatEnd } from './beat-session.js';
import { walkBeat } from './beat-walk.js';
import type { BeatDeps, BeatOptions, BeatResult } from './beat-types.js';
import { dispatchHeldBack } from './dispatch-breaker.js';
import { rehearsal, rehearsedResult } from './dry-run-ports.js';

/**
 * Runs one WoterClip beat: lock and config, inbox, pick, then for each issue tools, pickup, context,
 * dispatch, report and labels until the queue is empty or a limit stops it (spec 002, steps 1–11). Every exit after taking the lock applies the
 * ownership rule; every GitHub mutation and the report are preceded by a check that the lock
 * still carries this beat's id, and a superseded beat exits silently: no comment, no beat line,
 * no lock deletion.
 *
 * @example
 * ```ts
 * import { createMemoryLockStore, createFakeClock } from '@heartbeat-kit/core/testing';
 * import { runBeat } from '@heartbeat-kit/woterclip';
 * import { createFakeToolProbe, createMemoryBeatLog, createMemoryIssueTracker, createMemoryWorkspace, createScriptedDispatcher } from '@heartbeat-kit/woterclip/testing';
 *
 * // With the real adapters instead: createGhIssueTracker, createCommandDispatcher, createFileLockStore
 * // (woterclipLockCodec), createFileBeatLog and createDirectoryWorkspace — see `heartbeat-kit woterclip beat`.
 * const result = await runBeat({
 *   tracker: createMemoryIssueTracker({ issues: [] }),
 *   dispatcher: createScriptedDispatcher([]),
 *   lock: createMemoryLockStore(),
 *   log: createMemoryBeatLog(),
 *   files: createMemoryWorkspace({ 'config.yaml': 'version: 2\ngithub: { board_user: octocat, repo: o/r }\npersonas:\n  dev: { path: personas/dev, is_default: true }\n', 'personas/dev/config.yaml': 'name: dev\n' }),
 *   tools: createFakeToolProbe(['gh']),
 *   clock: createFakeClock(new Date('2026-02-19T10:00:00Z')),
 *   pid: 4242,
 * });
 * console.log(result.exit, result.stopReason); // 'queue-empty' 'queue_empty'
 * ```
 */
export async function runBeat(deps: BeatDeps, options: BeatOptions = {}): Promise<BeatResult> {
  const startMs = deps.clock.now().getTime();
  // A dry run is this same beat on read-only ports, chosen here once (dry-run-ports.ts).
  const dryRun = options.dryRun === true;
  const rehearsed = dryRun ? rehearsal(deps) : undefined;
  const ports = rehearsed?.deps ?? deps;
  // Core's one ending step: the beat's body gives its ending (planBeatRecord: none for a dry run
  // or a superseded beat) and core's slotReceipt turns it into the beat's own receipt, as for
  // every runner; the beat writes it after the abandoned slot of a lock it took over.
  const settled = await settleSlot<FinishedBeat, BeatResult | undefined>({
    body: async () => {
      const finished = await beatBody(deps, ports, options, { startMs, rehearsed });
      return { end: finished.plan?.end, value: finished };
    },
    stamp: (_end, finished) =>
      finished?.plan?.stamp ?? { slotMs: beatSlotMs(startMs), atMs: deps.clock.now().getTime(), source: BEAT_RECEIPT_SOURCE },
    record: (ended) => recordBeat(ports, ended),
  });
  // Only a slot the lifecycle itself ended has no beat result, and that ending is not returned.
  if (settled.recorded === undefined) throw new Error('runBeat: the beat ended without a result');
  return settled.recorded;
}

/** What a beat's body hands to {@link recordBeat}: its result, its lock summary and, with a receipt store, what to record. */
interface FinishedBeat {
  readonly result: BeatResult;
  readonly summary: BeatEnd['summary'];
  readonly plan?: BeatRecordPlan;
  readonly beat: number;
}

/** The beat itself: prior receipts, its steps, and the plan of what it records. */
async function beatBody(
  deps: BeatDeps,
  ports: BeatDeps,
  options: BeatOptions,
  run: { readonly startMs: number; readonly rehearsed: ReturnType<typeof rehearsal> | undefined },
): Promise<FinishedBeat> {
  const { startMs, rehearsed } = run;
  const dryRun = rehearsed !== undefined;
  const kept = await listBeatReceipts(ports.receipts);
  const prior = priorBeatState(kept.receipts);
  const beat = prior.n + 1;
  // Without a receipt store there is nowhere to keep the breaker, so it never holds a beat back;
  // nor does it hold back a dry run, which shows what a beat would pick.
  const heldBack = (settings: BreakerSettings): string | undefined =>
    dryRun || ports.receipts === undefined ? undefined : dispatchHeldBack(prior.breaker, beat, settings);
  const { result: stepsResult, summary, settings, end } = await walkBeat({ deps: ports, options, beat, heldBack });
  const steps = rehearsed === undefined ? stepsResult : rehearsedResult(stepsResult, rehearsed.said);
  const result: BeatResult = {
    ...steps,
    ...(summary.reportNotPosted === undefined ? {} : { reportNotPosted: summary.reportNotPosted }),
    warnings: [...kept.warnings, ...steps.warnings],
  };
  if (ports.receipts === undefined) return { result, summary, beat };
  const plan = planBeatRecord({
    result,
    end,
    prior,
    beat,
    verdicts: summary.verdicts,
    settings,
    dryRun,
    startMs,
    now: deps.clock.now(),
    ...(summary.tookOverFrom === undefined ? {} : { tookOverFrom: summary.tookOverFrom }),
    existing: kept.receipts,
  });
  return { result, summary, plan, beat };
}

/**
 * Writes what a beat records (the abandoned slot of a lock taken over, then the slot's own receipt
 * from core), then lets go of its lock: the lock goes only after the receipt is durable, so a kill
 * at any instant leaves the receipt or the lock, and the beat that takes a stale lock over records
 * the slot as abandoned. An ending of the lifecycle itself (no beat) is its one receipt, appended.
 */
async function recordBeat(ports: BeatDeps, ended: SettledSlot<FinishedBeat>): Promise<BeatResult | undefined> {
  const { value, receipt: own } = ended;
  if (value === undefined) {
    if (own !== undefined) await ports.receipts?.append(own);
    return undefined;
  }
  const { result, summary, plan, beat } = value;
  if (plan === undefined || ports.receipts === undefined) {
    const released = await releaseLock(ports, summary, result.beatId);
    return released.length === 0 ? result : { ...result, warnings: [...result.warnings, ...released] };
  }
  const receiptWarnings: string[] = [];
  let written: Receipt | undefined;
  for (const receipt of [...(plan.gap === undefined ? [] : [plan.gap]), ...(own === undefined ? [] : [own])]) {
    const appended = await ports.receipts.append(receipt);
    if (appended.isErr())
      receiptWarnings.push(`receipts: the receipt of slot ${receipt.slot} was not written (${appended.error.message}).`);
    else if (receipt === own) written = receipt;
  }
  const released = await releaseLock(ports, summary, result.beatId);
  return {
    ...plan.result,
    warnings: [...plan.result.warnings, ...receiptWarnings, ...released],
    ...(plan.counted ? { beatNumber: beat } : {}),
    ...(plan.breakerLine === undefined ? {} : { breakerLine: plan.breakerLine }),
    ...(written === undefined ? {} : { receipt: written }),
  };
}

/** The WoterClip receipts kept so far; a store that cannot be read is a warning (the beat runs as the first). */
async function listBeatReceipts(
  store: ReceiptStore | undefined,
): Promise<{ readonly receipts: readonly Receipt[]; readonly warnings: readonly string[] }> {
  if (store === undefined) return { receipts: [], warnings: [] };
  const listed = await store.list();
  if (listed.isErr()) return { receipts: [], warnings: [`receipts: ${listed.error.message}`] };
  return { receipts: listed.value.receipts.filter((r) => r.source === 'woterclip'), warnings: listed.value.warnings };
}
