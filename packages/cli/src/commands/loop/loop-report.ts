import type { CycleOutcome, CycleSettings } from '@heartbeat-kit/core';
import { DEFAULT_CATEGORIES } from '@heartbeat-kit/scanners';
import type { Result } from 'neverthrow';
import { ackedLines, cycleJson, outsideActiveHoursLine, problemLines, sinkAdvisoryText } from '../../format/cycle-json.js';
import type { CliIo } from '../../io.js';
import type { LoadedHeartbeatSettings } from '../../wiring/heartbeat-settings.js';
import { pausePartialLine } from '../../wiring/pause-file.js';
import type { LoopSession } from './loop-session.js';

/**
 * The config file's own warnings (unknown keys, ignored lines), as `cycle` prints them: at start,
 * then again only when an edit changes them.
 */
export function configWarningsPrinter(io: CliIo): (warnings: readonly string[]) => void {
  let printed = '';
  return (warnings) => {
    const text = warnings.map((warning) => `heartbeat-kit loop: warning: ${warning}\n`).join('');
    if (text !== printed) io.stderr(text);
    printed = text;
  };
}

/**
 * HEARTBEAT.md re-read before every cycle. An edit that breaks it keeps the last good settings
 * rather than stopping the loop. A check's lines apply at once (its scanner reads them each
 * cycle); its scanner exists from the start, so a changed list of checks asks for a restart.
 */
export function settingsReloader(
  session: LoopSession,
  reload: () => Promise<Result<LoadedHeartbeatSettings, string>>,
  printConfigWarnings: (warnings: readonly string[]) => void,
): () => Promise<CycleSettings> {
  const { io, live } = session;
  const wiredChecks = live.current.config.checks.map((c) => c.name).join(', ');
  let warnedChecks = wiredChecks;
  return async () => {
    const next = await reload();
    if (next.isOk()) {
      live.current = next.value;
      printConfigWarnings(live.current.warnings);
      const names = live.current.config.checks.map((c) => c.name).join(', ');
      if (names !== wiredChecks && names !== warnedChecks) {
        warnedChecks = names;
        io.stderr(
          `heartbeat-kit loop: warning: the checks of HEARTBEAT.md are now [${names}], this loop runs [${wiredChecks}]. Fix: restart the loop to add or remove checks (changed lines of a running check apply at once).\n`,
        );
      }
    } else io.stderr(`heartbeat-kit loop: warning: ${next.error} (keeping the previous settings)\n`);
    return { config: live.current.config, timeZone: live.current.timeZone, categories: DEFAULT_CATEGORIES };
  };
}

/** After each cycle (its receipt is already written by the guard's runSlot): what is left is to say it. */
export function loopOnCycle(session: LoopSession): (outcome: CycleOutcome) => Promise<void> {
  const { io, json, live } = session;
  return async (outcome) => {
    const paused = live.paused;
    const pause = paused.kind === 'partial' ? paused.pause : undefined;
    if (outcome.refused === undefined) live.lastOutcome = outcome;
    await session.exportTextfile();
    if (paused.kind === 'partial' && !json) io.stderr(pausePartialLine(paused, 'loop'));
    for (const warning of outcome.warnings) io.stderr(`heartbeat-kit loop: warning: ${warning}\n`);
    const lines = json ? '' : problemLines(outcome) + ackedLines(outcome) + outsideActiveHoursLine(outcome, live.current);
    if (lines !== '') io.stderr(lines);
    // The SINK_FAILING advisory goes to the loop's own stdout (its log), as `cycle` prints it.
    const advisory = json ? '' : sinkAdvisoryText(outcome);
    if (advisory !== '') (session.sinkKind === 'stdout' ? io.stderr : io.stdout)(advisory);
    if (json) io.stdout(`${JSON.stringify({ type: 'cycle', ...cycleJson(outcome), ...(pause === undefined ? {} : { pause }) })}\n`);
  };
}
