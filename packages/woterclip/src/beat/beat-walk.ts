import { sanitizeForMessage } from '@heartbeat-kit/core';
import {
  type BreakerSettings,
  type ConfigFact,
  nextSlotStep,
  type RunFact,
  type SlotEnd,
  type SlotFacts,
  type SlotShape,
} from '@heartbeat-kit/core/host';
import { ok } from 'neverthrow';
import { DEFAULT_DISPATCH_BREAKER, dispatchBreakerSettings } from '../config/woterclip-config.js';
import { earlyStop, skipDetail, takeLock, type Beat, type BeatEnd } from './beat-session.js';
import { EMPTY_SUMMARY, foldNotes } from './beat-summary.js';
import type { BeatDeps, BeatOptions, BeatResult, LoadedWoterclipConfig } from './beat-types.js';
import { loadWoterclipConfig } from './load-woterclip-config.js';
import { listQueue, pickQueue, workQueue } from './work-beat.js';

// A beat's slot, walked in core's one order (nextSlotStep): config, the dispatch breaker (the gate
// before the lock), the lock, then the work, whose quiet hours are read under the lock. The planner
// decides the slot's ending from what each step found; the beat only does the steps.

const clean = (text: string, max = 300): string => sanitizeForMessage(text, { maxLength: max });

/** The steps of a beat's slot: no cron grid to close and no operator pause read here (the CLI reads it). */
const BEAT_SHAPE: SlotShape = { config: true, gate: true, lock: true, grid: false, pause: false };

/** A walked beat: how its steps ended, the breaker settings it used, and its slot's ending (none: superseded). */
export interface WalkedBeat extends BeatEnd {
  readonly settings: BreakerSettings;
  readonly end: SlotEnd | undefined;
}

/** What the walk has found so far besides the planner's facts: the step that ended it, the config, the lock. */
interface Walk {
  readonly facts: SlotFacts;
  readonly ended?: BeatEnd;
  readonly loaded?: LoadedWoterclipConfig;
  readonly settings: BreakerSettings;
  readonly locked?: Beat;
  readonly lockNotes?: Parameters<typeof foldNotes>[1];
}

/** What one beat's walk reads: its ports, its flags, its number if it counts, and the dispatch breaker's say. */
export interface BeatWalkInput {
  readonly deps: BeatDeps;
  readonly options: BeatOptions;
  /** This beat's number if it counts: the `ran` receipt's count. */
  readonly beat: number;
  /** The dispatch breaker's held-back line with these settings, or undefined: it lets the beat run. */
  readonly heldBack: (settings: BreakerSettings) => string | undefined;
}

/**
 * Step 1 (config, the dispatch breaker, the lock), then the beat's work, each asked of core's slot
 * planner in its order; the step that ends the beat gives its result, the planner its ending.
 */
export async function walkBeat(input: BeatWalkInput): Promise<WalkedBeat> {
  let walk: Walk = { facts: {}, settings: input.deps.dispatchBreaker ?? DEFAULT_DISPATCH_BREAKER };
  for (;;) {
    const step = nextSlotStep(BEAT_SHAPE, walk.facts);
    if (step.kind === 'end' || step.kind === 'recorded') {
      // The planner ends a slot only after a step that ended it, so `ended` is set.
      if (walk.ended === undefined) throw new Error(`walkBeat: the slot ended (${step.kind}) with no step's result`);
      return { ...walk.ended, settings: walk.settings, end: step.kind === 'end' ? step.end : undefined };
    }
    if (step.kind === 'read-config') walk = await readConfig(input, walk);
    else if (step.kind === 'check-gate') walk = checkGate(input, walk);
    else if (step.kind === 'take-lock') walk = await lockBeat(input, walk);
    else if (step.kind === 'run') walk = await runWork(input, walk);
    // The shape asks only the steps a beat has: another is a bug in this file.
    else throw new Error(`walkBeat: no ${step.kind} step in a beat`);
  }
}

/**
 * The config (as the caller loaded it, else read here) and the --persona flag. A missing or invalid
 * config records config-error; an unreadable one has always recorded lock-unavailable (the file is
 * where the lock lives), so its fact carries that ending.
 */
async function readConfig(input: BeatWalkInput, walk: Walk): Promise<Walk> {
  const { deps, options } = input;
  const loaded = options.loaded === undefined ? await loadWoterclipConfig(deps.files) : ok(options.loaded);
  if (loaded.isErr()) {
    const { kind, message } = loaded.error;
    const ended = earlyStop(EMPTY_SUMMARY, kind === 'io' ? 'lock-error' : kind, message);
    const detail = skipDetail(ended.result);
    const fact: ConfigFact = kind === 'io' ? { ok: false, detail, end: { kind: 'lock-unavailable', detail } } : { ok: false, detail };
    return { ...walk, facts: { ...walk.facts, config: fact }, ended };
  }
  const { personas } = loaded.value;
  if (options.persona !== undefined && !personas.has(options.persona)) {
    const message = `--persona ${clean(options.persona, 60)}: no such persona in .woterclip/config.yaml; use one of: ${[...personas.keys()].join(', ')}.`;
    const ended = earlyStop(EMPTY_SUMMARY, 'usage', message);
    return { ...walk, facts: { ...walk.facts, config: { ok: false, detail: skipDetail(ended.result) } }, ended };
  }
  const settings = deps.dispatchBreaker ?? dispatchBreakerSettings(loaded.value.config);
  return { ...walk, facts: { ...walk.facts, config: { ok: true } }, loaded: loaded.value, settings };
}

/** The dispatch breaker is open and this is not a retry beat: no lock, no GitHub call, no dispatch. */
function checkGate(input: BeatWalkInput, walk: Walk): Walk {
  const held = input.heldBack(walk.settings);
  if (held === undefined) return { ...walk, facts: { ...walk.facts, gate: { kind: 'open' } } };
  const ended = earlyStop(EMPTY_SUMMARY, 'breaker-open', held);
  return {
    ...walk,
    facts: { ...walk.facts, gate: { kind: 'closed', end: { kind: 'breaker-open', detail: skipDetail(ended.result) } } },
    ended,
  };
}

/** Step 1's lock: exclusive create; a stale lock is taken over by the store. */
async function lockBeat(input: BeatWalkInput, walk: Walk): Promise<Walk> {
  const { deps, options } = input;
  const { config, personas } = configOf(walk);
  const startMs = deps.clock.now().getTime();
  const beatId = `${Math.floor(startMs / 1000)}-${deps.pid}`;
  const locked = await takeLock(deps, { beatId, startMs, staleHours: config.heartbeat.stale_lock_hours }, EMPTY_SUMMARY);
  if (locked.isErr()) {
    const { fact, ...ended } = locked.error;
    return { ...walk, facts: { ...walk.facts, lock: fact }, ended };
  }
  // A dry run leaves stale working labels as they are and lists the queue instead of working it.
  const cleansStaleLabels = options.dryRun !== true;
  const beat: Beat = { deps, config, personas, beatId, startedAtMs: locked.value.startedAtMs, cleansStaleLabels };
  return { ...walk, facts: { ...walk.facts, lock: { kind: 'taken' } }, locked: beat, lockNotes: locked.value.notes };
}

/** The work under the lock: quiet hours and the pick, then a dry run lists the queue, a real beat works it. */
async function runWork(input: BeatWalkInput, walk: Walk): Promise<Walk> {
  const { options } = input;
  const beat = walk.locked;
  if (beat === undefined) throw new Error('walkBeat: the work step came before the lock');
  const summary = foldNotes(EMPTY_SUMMARY, walk.lockNotes ?? {});
  const picked = await pickQueue(beat, summary, options.persona, options.triageOnly);
  const ended = picked.kind === 'ended' ? picked : options.dryRun === true ? listQueue(picked) : await workQueue(picked);
  return { ...walk, facts: { ...walk.facts, run: workFact(ended, input.beat, options.dryRun === true) }, ended };
}

/** The config a step past the config read works with. */
function configOf(walk: Walk): LoadedWoterclipConfig {
  if (walk.loaded === undefined) throw new Error('walkBeat: a step came before the config was read');
  return walk.loaded;
}

/**
 * How the work ended, as the planner's run fact: a beat its successor superseded has its slot
 * recorded (as abandoned, by the successor); a rehearsal, quiet hours (skip) are the beat's own
 * endings; anything else ran, with its count, whether it reported and whether the report was posted.
 */
export function workFact(ended: BeatEnd, count: number, dryRun: boolean): RunFact {
  const { result, summary } = ended;
  if (result.exit === 'superseded') return { kind: 'recorded' };
  if (dryRun) return { kind: 'own', end: { kind: 'dry-run', detail: `would have ended ${result.stopReason ?? result.exit}` } };
  if (result.exit === 'quiet-hours') return { kind: 'own', end: { kind: 'quiet-hours', detail: skipDetail(result) } };
  return { kind: 'ran', end: ranWork(result, summary.reportNotPosted ?? result.reportNotPosted, count) };
}

/** A beat that worked: `ran`, with the issues it worked, and cut off when a signal stopped it. */
function ranWork(result: BeatResult, reportNotPosted: number | undefined, count: number): Extract<SlotEnd, { kind: 'ran-work' }> {
  return {
    kind: 'ran-work',
    count,
    status: result.worked.length === 0 ? 'ok' : 'report',
    delivery: reportNotPosted !== undefined ? 'failed' : result.worked.length > 0 ? 'delivered' : 'none',
    ...(result.exit === 'interrupted'
      ? { cutOff: [result.interruptedIssue === undefined ? 'the beat' : `#${result.interruptedIssue}`] }
      : {}),
  };
}
