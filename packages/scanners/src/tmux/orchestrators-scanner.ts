import { createFinding, sanitizeForMessage, scanOk, type Finding, type ScanWarning, type Scanner } from '@heartbeat-kit/core';
import { escapeRegExp, guardScan, skipped, failed, type DurationMeter } from '../scanner-support.js';
import type { Bead } from '../beads/bead.js';
import type { BeadsSource } from '../beads/beads-source.js';
import { beadsFailureResult } from '../beads/beads-scanner.js';
import { createTmuxSessionsSource, type TmuxDeps, type TmuxSessionsSource } from './tmux-client.js';

/** Dependencies of {@link createOrchestratorsScanner}. */
export interface OrchestratorsScannerDeps extends TmuxDeps {
  readonly beads: BeadsSource;
  /** The cycle's shared session listing (default: one of its own). */
  readonly sessions?: TmuxSessionsSource;
}

const NAME = 'orchestrators';

/**
 * The session a bead's orchestrator runs in: the bead's assignee when it names a session with the
 * orchestrator prefix, else `<prefix><bead id>` (the engine's runner default).
 */
export function expectedSessionOf(bead: Bead, prefix: string): string {
  return bead.assignee?.startsWith(prefix) === true ? bead.assignee : `${prefix}${bead.id}`;
}

/**
 * True when the bead's orchestrator session is among `names` (exact comparison, never tmux's
 * prefix matching). Besides the expected name, the spawn tool's `<prefix><id>-<pid>` form counts
 * for beads mapped by id; an assignee-named session must exist under exactly that name.
 */
export function hasOrchestratorSession(bead: Bead, names: ReadonlySet<string>, prefix: string): boolean {
  const expected = expectedSessionOf(bead, prefix);
  if (names.has(expected)) return true;
  if (expected !== `${prefix}${bead.id}`) return false;
  const withPid = new RegExp(`^${escapeRegExp(expected)}-\\d+$`);
  for (const name of names) if (withPid.test(name)) return true;
  return false;
}

/** Decides ORCH_FAILURE findings from the session names and in-progress beads (pure). */
export function orchestratorFindings(input: {
  readonly sessionNames: readonly string[];
  readonly inProgress: readonly Bead[];
  readonly expected: readonly string[];
  readonly prefix: string;
}): readonly Finding[] {
  const names = new Set(input.sessionNames);
  const findings: Finding[] = [];
  const reported = new Set<string>();
  for (const bead of input.inProgress) {
    if (bead.status !== undefined && bead.status !== 'in_progress') continue;
    if (hasOrchestratorSession(bead, names, input.prefix)) continue;
    const session = expectedSessionOf(bead, input.prefix);
    if (reported.has(session)) continue;
    reported.add(session);
    const s = sanitizeForMessage(session, { maxLength: 80 });
    const id = sanitizeForMessage(bead.id, { maxLength: 80 });
    findings.push(
      createFinding({
        category: 'ORCH_FAILURE',
        subject: session,
        line: `CRASHED: ${s} (bead ${id} still in_progress)`,
        action: `Re-launch ${s} for ${id}`,
        short: `${s} crashed`,
        details: { session, beadId: bead.id, title: bead.title, reason: 'crashed' },
      }),
    );
  }
  for (const session of input.expected) {
    if (names.has(session) || reported.has(session)) continue;
    reported.add(session);
    const s = sanitizeForMessage(session, { maxLength: 80 });
    findings.push(
      createFinding({
        category: 'ORCH_FAILURE',
        subject: session,
        line: `MISSING: ${s} (expected in HEARTBEAT.md)`,
        action: `Launch ${s} (listed as expected in HEARTBEAT.md)`,
        short: `${s} missing`,
        details: { session, reason: 'missing' },
      }),
    );
  }
  return findings;
}

/**
 * Scan target 2: an in-progress bead whose orchestrator tmux session is gone, or an expected
 * session (HEARTBEAT.md `Expected:`) that is not running → ORCH_FAILURE.
 *
 * @example
 * ```ts
 * import { createBeadsSource, createOrchestratorsScanner } from '@heartbeat-kit/scanners';
 * import { createProcessRunner } from '@heartbeat-kit/core/node';
 *
 * const runner = createProcessRunner();
 * // ORCH_FAILURE for an in-progress bead whose tmux session is gone, or a missing Expected: session.
 * const scanner = createOrchestratorsScanner({ runner, tmuxArgs: ['-L', 'work'], beads: createBeadsSource({ runner, cwd: process.cwd() }) });
 * ```
 */
export function createOrchestratorsScanner(deps: OrchestratorsScannerDeps): Scanner {
  const source = deps.sessions ?? createTmuxSessionsSource(deps);
  return {
    name: NAME,
    runsOutsideActiveHours: true,
    scan: (ctx) => {
      const meter: DurationMeter = { ms: 0 };
      return guardScan(NAME, meter, async () => {
        const sessions = await source.list(ctx.now, ctx.signal, meter);
        const expected = ctx.config.expectedOrchestrators;
        if (sessions.isErr()) {
          if (sessions.error.kind !== 'tool-missing') return failed(NAME, sessions.error.message, meter);
          // An Expected: list is the user saying "these must run": not being able to check it is a warning.
          return { ...skipped(NAME, sessions.error.message, meter), ...(expected.length > 0 ? { configured: true, fix: `install tmux so the Expected: sessions (${expected.length}) can be checked` } : {}) };
        }
        const beads = await deps.beads.inProgress(ctx.now, ctx.signal, meter);
        const warnings: ScanWarning[] = [];
        let inProgress: readonly Bead[] = [];
        if (beads.isOk()) inProgress = beads.value;
        else if (expected.length === 0) return beadsFailureResult(NAME, beads.error, meter);
        // Expected sessions can still be checked without bd.
        else warnings.push({ code: 'BEADS_UNAVAILABLE', message: beads.error.message });
        const findings = orchestratorFindings({ sessionNames: sessions.value.map((s) => s.name), inProgress, expected, prefix: ctx.config.orchestratorPrefix });
        // The count feeds HEARTBEAT.md's "Alert if: in_progress count changed" (decided in core).
        const observations = beads.isOk() ? [{ kind: 'in-progress' as const, count: inProgress.length }] : [];
        return scanOk(NAME, { findings, observations, warnings, durationMs: meter.ms });
      });
    },
  };
}
