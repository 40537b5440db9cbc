import type { LockRecord, Receipt } from '@heartbeat-kit/core';
import { type BreakerSettings, type SlotEnd, type SlotStamp, slotReceipt } from '@heartbeat-kit/core/host';
import { abandonedReceipt, beatSlotMs, beatStamp, type PriorBeatState } from './beat-receipts.js';
import { updateDispatchBreaker, type DispatchVerdict } from './dispatch-breaker.js';
import type { BeatResult } from './beat-types.js';

/** What a finished beat hands to {@link planBeatRecord}. */
export interface BeatRecordInput {
  /** The beat's result as its steps left it. */
  readonly result: BeatResult;
  /** How its slot ended, as core's slot planner decided from its steps (undefined: superseded). */
  readonly end: SlotEnd | undefined;
  /** The beat count and breaker of the newest counted receipt. */
  readonly prior: PriorBeatState;
  /** This beat's number if it counts (`prior.n + 1`). */
  readonly beat: number;
  readonly verdicts: readonly DispatchVerdict[];
  readonly settings: BreakerSettings;
  readonly dryRun: boolean;
  /** When the beat started (its slot, when it took no lock). */
  readonly startMs: number;
  /** Now, at the end of the beat: the breaker's clock and the receipts' `at`. */
  readonly now: Date;
  /** The holder of the stale lock this beat took over, if it did. */
  readonly tookOverFrom?: LockRecord;
  /** The WoterClip receipts already kept (an abandoned slot that has one is not recorded twice). */
  readonly existing: readonly Receipt[];
}

/** What to record for a beat, in the order to append it, and its result with the breaker's line. */
export interface BeatRecordPlan {
  /** The result with the breaker's recovery line (messages) or advisory (warnings) added. */
  readonly result: BeatResult;
  /** Whether the beat counts (it ran, or was held back by the breaker): it then carries `beatNumber`. */
  readonly counted: boolean;
  readonly breakerLine?: string;
  /** The receipts to append, in order: the abandoned slot of a lock taken over, then this beat's own. */
  readonly receipts: readonly Receipt[];
  /** This beat's own receipt (absent for a superseded beat): `slotReceipt(end, stamp)`. */
  readonly own?: Receipt;
  /** The receipt of the abandoned slot of a lock taken over, written before the own one. */
  readonly gap?: Receipt;
  /** How the beat's slot ended, and its stamp: what the runner hands to core's `settleSlot` (absent when `own` is). */
  readonly end?: SlotEnd;
  readonly stamp?: SlotStamp;
}

/**
 * The receipt decision of one beat (issue 15 items 3 and 5): whether it counts, how the dispatch
 * breaker moves and what it says, and the receipts it leaves. A beat held back by the breaker
 * repeats its held-back line; a beat that ran updates the breaker from its dispatches; a beat
 * that did neither (skipped, dry run, superseded) leaves the breaker as it was. Pure.
 */
export function planBeatRecord(input: BeatRecordInput): BeatRecordPlan {
  const { prior } = input;
  let result = input.result;
  // A beat counts when it worked (a rehearsal never does) or the breaker held it back.
  const kind = input.dryRun ? undefined : input.end?.kind;
  const counted = kind === 'breaker-open' || kind === 'ran-work';
  let breakerState = prior.breaker;
  let breakerLine: string | undefined;
  if (kind === 'breaker-open') breakerLine = result.messages[0];
  // An interrupted beat's cut-off dispatch says nothing about the agent: the breaker stays as it was.
  else if (counted && result.exit !== 'interrupted') {
    const blocked = input.verdicts.flatMap((v) => (v.ok ? [] : [v.issue]));
    const update = updateDispatchBreaker(prior.breaker, input.verdicts, {
      beat: input.beat,
      now: input.now,
      settings: input.settings,
      blocked,
    });
    breakerState = update.breaker;
    breakerLine = update.line;
    if (update.line !== undefined) {
      if (update.event === 'recovered') result = { ...result, messages: [...result.messages, update.line] };
      else result = { ...result, warnings: [...result.warnings, update.line] };
    }
  }
  const atMs = input.now.getTime();
  const gap = input.tookOverFrom === undefined ? undefined : abandonedReceipt(input.tookOverFrom, atMs, input.existing);
  // A dry run is a rehearsal: it leaves no receipt, so nothing a real beat (or a liveness check) reads changes.
  const slot = {
    slotMs: beatSlotMs(input.startMs, result.beatId),
    atMs,
    ...(counted ? { beat: { n: input.beat, breaker: breakerState, line: breakerLine } } : {}),
  };
  const end = input.dryRun ? undefined : input.end;
  const stamp = end === undefined ? undefined : beatStamp(slot, result);
  const own = end === undefined || stamp === undefined ? undefined : slotReceipt(end, stamp);
  return {
    result,
    counted,
    ...(breakerLine === undefined ? {} : { breakerLine }),
    receipts: [...(gap === undefined ? [] : [gap]), ...(own === undefined ? [] : [own])],
    ...(own === undefined ? {} : { own }),
    ...(gap === undefined ? {} : { gap }),
    ...(end === undefined || stamp === undefined ? {} : { end, stamp }),
  };
}
