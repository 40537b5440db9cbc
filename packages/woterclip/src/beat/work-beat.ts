import { sanitizeForMessage } from '@heartbeat-kit/core';
import { buildInbox, renderDryRun, type InboxEntry } from '../inbox/inbox.js';
import { closingSuggestions, elapsedSeconds, planQueueEnd } from './beat-plan.js';
import { finish, halt, type Beat } from './beat-session.js';
import type { BeatDeps, BeatResult } from './beat-types.js';
import { decideNextStep } from './next-step.js';
import { isQuietTime } from './quiet-hours.js';
import { readInbox } from './read-inbox.js';
import type { StopReason } from './stop-reasons.js';
import { workIssue, type WorkingBeat } from './work-issue.js';

// A beat past its lock: quiet hours, the inbox, then the dry-run listing or the queue worked in
// order until it is empty or step 11 says stop.

const clean = (text: string, max = 300): string => sanitizeForMessage(text, { maxLength: max });

/** Step 1's quiet hours, step 2's inbox, then the dry-run listing or the queue. */
export async function workBeat(beat: Beat, personaFlag: string | undefined, pausedTriageOnly?: string): Promise<BeatResult> {
  const { deps, config, tally } = beat;
  const quiet = isQuietTime(deps.clock.now(), config.heartbeat.quiet_hours);
  if (quiet && config.heartbeat.quiet_hours.behavior === 'skip') return finish(beat, 'quiet_hours');
  const quietTriage = quiet && config.heartbeat.quiet_hours.behavior === 'triage-only';
  const triageOnly = quietTriage || pausedTriageOnly !== undefined;
  if (quietTriage) tally.messages.push('Quiet hours (triage-only): only the default persona works.');
  else if (pausedTriageOnly !== undefined)
    tally.messages.push(`Operator pause (triage-only): ${pausedTriageOnly}; only the default persona works.`);

  const inbox = await readInbox(beat);
  if (inbox.isErr()) return halt(beat, interrupted(deps) ? { kind: 'interrupted' } : inbox.error);
  const { issues, unblockedByHuman, decomposed } = inbox.value;

  // Step 3: pick.
  const queue = buildInbox(issues, {
    config,
    ...(personaFlag === undefined ? {} : { persona: personaFlag }),
    triageOnly,
    unblockedByHuman,
    decomposed,
  });
  if (beat.dryRun) {
    const listing = renderDryRun(queue, (t) => clean(t, 120));
    return {
      exit: 'dry-run',
      messages: [...tally.messages, listing],
      warnings: tally.warnings,
      worked: tally.worked,
      suggestions: [],
      dryRun: listing,
    };
  }
  // Todo work for any persona: the inbox without the triage-only and --persona filters. Issues
  // for worker personas that wait out triage-only quiet hours still count as work to come.
  const anyPersona = buildInbox(issues, { config, triageOnly: false, unblockedByHuman, decomposed });
  const blocked = issues.filter((i) => i.labels.includes(config.labels.blocked)).map((i) => i.number);
  return workQueue({ ...beat, login: inbox.value.login, decomposed }, queue, { anyPersona, blocked });
}

/** Ctrl-C or SIGTERM arrived (a function, so a check after an `await` is never narrowed away). */
function interrupted(deps: BeatDeps): boolean {
  return deps.signal?.aborted === true;
}

/** Steps 4–11: work the queue in order until it is empty or step 11 says stop; the closing suggestions. */
async function workQueue(
  beat: WorkingBeat,
  queue: readonly InboxEntry[],
  closing: { readonly anyPersona: readonly InboxEntry[]; readonly blocked: readonly number[] },
): Promise<BeatResult> {
  const { deps, config, tally } = beat;
  const remaining = [...queue];
  const blockedNow = new Set(closing.blocked);
  const stop = (reason: Exclude<StopReason, 'lock_conflict'>, extra: readonly string[] = []): Promise<BeatResult> => {
    tally.suggestions.push(...closingSuggestions({ anyPersona: closing.anyPersona, worked: tally.worked, blockedCount: blockedNow.size }));
    return finish(beat, reason, extra);
  };
  for (;;) {
    if (interrupted(deps)) return halt(beat, { kind: 'interrupted' });
    const entry = remaining.shift();
    if (entry === undefined) {
      const end = planQueueEnd(tally.worked.length);
      return stop(end.reason, end.extra);
    }
    const persona = beat.personas.get(entry.persona);
    if (persona === undefined) return finish(beat, 'blocked_exit', [`persona ${entry.persona} is not loaded`]);
    const result = await workIssue(beat, entry, persona);
    if (result.isErr()) return halt(beat, interrupted(deps) ? { kind: 'interrupted', issue: entry.issue.number } : result.error);
    tally.worked.push(result.value);
    if (result.value.status === 'blocked') blockedNow.add(entry.issue.number);
    else blockedNow.delete(entry.issue.number);
    // Step 11.
    const next = decideNextStep({
      elapsedSec: elapsedSeconds(beat.startedAtMs, deps.clock.now().getTime()),
      ceilingSec: config.heartbeat.time_ceiling_sec,
      worked: tally.worked.length,
      maxIssues: config.heartbeat.max_issues_per_heartbeat,
      remaining: remaining.length,
    });
    if (next.kind === 'stop') return stop(next.reason);
  }
}
