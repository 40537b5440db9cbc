import { sanitizeForMessage } from '@heartbeat-kit/core';
import { buildInbox, renderDryRun, type InboxEntry } from '../inbox/inbox.js';
import { closingSuggestions, elapsedSeconds, planQueueEnd } from './beat-plan.js';
import { finish, halt, type Beat, type BeatEnd } from './beat-session.js';
import { foldNotes, type BeatSummary } from './beat-summary.js';
import type { BeatDeps } from './beat-types.js';
import { decideNextStep } from './next-step.js';
import { isQuietTime } from './quiet-hours.js';
import { readInbox } from './read-inbox.js';
import type { StopReason } from './stop-reasons.js';
import { workIssue, type WorkingBeat } from './work-issue.js';

// A beat past its lock: quiet hours and the inbox pick its queue; then a dry run lists it, a real
// beat works it in order until it is empty or step 11 says stop (run-beat.ts chooses which).

const clean = (text: string, max = 300): string => sanitizeForMessage(text, { maxLength: max });

/** Step 3's pick, and what the closing suggestions and step 4 on read. */
export interface PickedQueue {
  readonly kind: 'picked';
  readonly summary: BeatSummary;
  readonly beat: WorkingBeat;
  readonly queue: readonly InboxEntry[];
  /** Todo work for any persona: the inbox without the triage-only and --persona filters. */
  readonly anyPersona: readonly InboxEntry[];
  readonly blocked: readonly number[];
}

/** Step 1's quiet hours, step 2's inbox, step 3's pick; or how the beat ended before it picked. */
export async function pickQueue(
  beat: Beat,
  summary: BeatSummary,
  personaFlag: string | undefined,
  pausedTriageOnly?: string,
): Promise<PickedQueue | ({ readonly kind: 'ended' } & BeatEnd)> {
  const { deps, config } = beat;
  const ended = async (end: Promise<BeatEnd>) => ({ kind: 'ended' as const, ...(await end) });
  const quiet = isQuietTime(deps.clock.now(), config.heartbeat.quiet_hours);
  if (quiet && config.heartbeat.quiet_hours.behavior === 'skip') return ended(finish(beat, summary, 'quiet_hours'));
  const quietTriage = quiet && config.heartbeat.quiet_hours.behavior === 'triage-only';
  const triageOnly = quietTriage || pausedTriageOnly !== undefined;
  const said = quietTriage
    ? ['Quiet hours (triage-only): only the default persona works.']
    : pausedTriageOnly !== undefined
      ? [`Operator pause (triage-only): ${pausedTriageOnly}; only the default persona works.`]
      : [];

  const inbox = await readInbox(beat);
  const read = foldNotes(summary, { messages: said }, inbox.notes);
  if (inbox.result.isErr()) return ended(halt(beat, read, interrupted(deps) ? { kind: 'interrupted' } : inbox.result.error));
  const { issues, unblockedByHuman, decomposed, login } = inbox.result.value;

  // Step 3: pick.
  const queue = buildInbox(issues, {
    config,
    ...(personaFlag === undefined ? {} : { persona: personaFlag }),
    triageOnly,
    unblockedByHuman,
    decomposed,
  });
  // Issues for worker personas that wait out triage-only quiet hours still count as work to come.
  const anyPersona = buildInbox(issues, { config, triageOnly: false, unblockedByHuman, decomposed });
  const blocked = issues.filter((i) => i.labels.includes(config.labels.blocked)).map((i) => i.number);
  return { kind: 'picked', summary: read, beat: { ...beat, login, decomposed }, queue, anyPersona, blocked };
}

/** A dry run's end: the pick and the queue, listed; nothing worked. */
export function listQueue(picked: PickedQueue): BeatEnd {
  const { summary } = picked;
  const listing = renderDryRun(picked.queue, (t) => clean(t, 120));
  return {
    summary,
    result: {
      exit: 'dry-run',
      messages: [...summary.messages, listing],
      warnings: summary.warnings,
      worked: summary.worked,
      suggestions: [],
      dryRun: listing,
    },
  };
}

/** Ctrl-C or SIGTERM arrived (a function, so a check after an `await` is never narrowed away). */
function interrupted(deps: BeatDeps): boolean {
  return deps.signal?.aborted === true;
}

/** Steps 4–11: work the queue in order until it is empty or step 11 says stop; the closing suggestions. */
export async function workQueue(picked: PickedQueue): Promise<BeatEnd> {
  const { beat } = picked;
  const { deps, config } = beat;
  const remaining = [...picked.queue];
  const blockedNow = new Set(picked.blocked);
  let summary = picked.summary;
  const stop = (reason: Exclude<StopReason, 'lock_conflict'>, extra: readonly string[] = []): Promise<BeatEnd> => {
    const suggestions = closingSuggestions({ anyPersona: picked.anyPersona, worked: summary.worked, blockedCount: blockedNow.size });
    return finish(beat, foldNotes(summary, { suggestions }), reason, extra);
  };
  for (;;) {
    if (interrupted(deps)) return halt(beat, summary, { kind: 'interrupted' });
    const entry = remaining.shift();
    if (entry === undefined) {
      const end = planQueueEnd(summary.worked.length);
      return stop(end.reason, end.extra);
    }
    const persona = beat.personas.get(entry.persona);
    if (persona === undefined) return finish(beat, summary, 'blocked_exit', [`persona ${entry.persona} is not loaded`]);
    const worked = await workIssue(beat, entry, persona);
    summary = foldNotes(summary, worked.notes);
    if (worked.result.isErr())
      return halt(beat, summary, interrupted(deps) ? { kind: 'interrupted', issue: entry.issue.number } : worked.result.error);
    summary = foldNotes(summary, { worked: [worked.result.value] });
    if (worked.result.value.status === 'blocked') blockedNow.add(entry.issue.number);
    else blockedNow.delete(entry.issue.number);
    // Step 11.
    const next = decideNextStep({
      elapsedSec: elapsedSeconds(beat.startedAtMs, deps.clock.now().getTime()),
      ceilingSec: config.heartbeat.time_ceiling_sec,
      worked: summary.worked.length,
      maxIssues: config.heartbeat.max_issues_per_heartbeat,
      remaining: remaining.length,
    });
    if (next.kind === 'stop') return stop(next.reason);
  }
}
