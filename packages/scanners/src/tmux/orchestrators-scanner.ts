import {
  createFinding,
  defineStatefulScanner,
  type Finding,
  sanitizeForMessage,
  type Scanner,
  type ScannerSliceSpec,
  scanOk,
  type ScanWarning,
} from '@heartbeat-kit/core';
import { readConfigSection } from '@heartbeat-kit/core/host';
import { z } from 'zod';
import { escapeRegExp, guardScan, skipped, failed, type DurationMeter } from '../scanner-support.js';
import type { Bead } from '../beads/bead.js';
import type { BeadsSource } from '../beads/beads-source.js';
import { beadsFailureResult } from '../beads/beads-scanner.js';
import type { PipelineBeadNode, PipelineOwners } from '../pipelines/pipeline-owners.js';
import { createTmuxSessionsSource, type TmuxDeps, type TmuxSessionsSource } from './tmux-client.js';
import { createCoBuilderFinding } from '../categories/cobuilder-categories.js';
import { ORCHESTRATORS_CONFIG } from './orchestrators-config.js';
import { BEADS_CONFIG } from '../beads/beads-config.js';

/** Dependencies of {@link createOrchestratorsScanner}. */
export interface OrchestratorsScannerDeps extends TmuxDeps {
  readonly beads: BeadsSource;
  /** The cycle's shared session listing (default: one of its own). */
  readonly sessions?: TmuxSessionsSource;
  /** Active pipeline nodes carrying a bead (`readPipelineOwners`); without it no bead is owned through a pipeline. */
  readonly pipelineOwners?: (now: Date) => Promise<PipelineOwners>;
}

const NAME = 'orchestrators';

/** The orchestrators scanner's slice: the in-progress bead count at its last run with bd. */
export const inProgressSliceSchema = z.object({ inProgressCount: z.number().int().nonnegative().optional() });

/** What the orchestrators scanner remembers across cycles. */
export type InProgressSlice = z.infer<typeof inProgressSliceSchema>;

/** The slice spec of the orchestrators scanner (version 1 is state version 2's `inProgressCount`, migrated by core). */
export const IN_PROGRESS_SLICE: ScannerSliceSpec<InProgressSlice> = {
  version: 1,
  schema: inProgressSliceSchema,
  initial: () => ({}),
  maxBytes: 1024,
};

/**
 * HEARTBEAT.md's Beads "Alert if: in_progress count changed since last check" (opt-in). Spec 000
 * gives it no category; it is reported as IN_PROGRESS_CHANGED with Normal priority, so it waits
 * for an idle operator like WORK_READY. The count is remembered whether or not the alert is on.
 */
export function deriveInProgressChange(previous: number | undefined, current: number, enabled: boolean): Finding[] {
  if (!enabled || previous === undefined || previous === current) return [];
  return [
    createFinding({
      category: 'IN_PROGRESS_CHANGED',
      priority: 'Normal',
      subject: `${previous}->${current}`,
      line: `IN PROGRESS: ${previous} → ${current} beads in progress since the last check`,
      action: 'Review which beads started or stopped since the last check',
      short: `in-progress ${previous}→${current}`,
      details: { previous, current },
    }),
  ];
}

/** A session that would show a bead's orchestrator alive; `withPid` also accepts `<name>-<pid>` (engine spawns). */
export interface OwnerSession {
  readonly name: string;
  readonly withPid: boolean;
}

/** What tells the scanner which beads an orchestrator owns. */
export interface OwnershipInput {
  readonly prefix: string;
  /** HEARTBEAT.md `Expected:` sessions. */
  readonly expected: readonly string[];
  /** Active pipeline nodes carrying a `bead_id`. */
  readonly pipelineNodes: readonly PipelineBeadNode[];
}

/**
 * The sessions that could run a bead's orchestrator, first the one a report names; empty when no
 * orchestrator owns the bead (assigned to a person, to nobody), which is then never ORCH_FAILURE.
 * Owned: an assignee with the orchestrator prefix or listed in `Expected:` (exact name);
 * `<prefix><bead id>` listed in `Expected:`; an active pipeline node whose `bead_id` is the bead
 * (`<prefix><node id>`, or the engine's `<prefix><node id>-<pid>`).
 */
export function ownerSessionsOf(bead: Bead, input: OwnershipInput): readonly OwnerSession[] {
  const sessions: OwnerSession[] = [];
  const add = (name: string, withPid: boolean): void => {
    const at = sessions.findIndex((s) => s.name === name);
    if (at === -1) sessions.push({ name, withPid });
    else if (withPid) sessions[at] = { name, withPid };
  };
  const assignee = bead.assignee;
  if (assignee !== undefined && (assignee.startsWith(input.prefix) || input.expected.includes(assignee))) add(assignee, false);
  const byId = `${input.prefix}${bead.id}`;
  if (input.expected.includes(byId)) add(byId, true);
  for (const node of input.pipelineNodes) if (node.beadId === bead.id) add(`${input.prefix}${node.nodeId}`, true);
  return sessions;
}

/**
 * True when one of the bead's owner sessions is among `names` (exact comparison, never tmux's
 * prefix matching; the `-<pid>` form only where the engine names sessions so).
 */
export function hasOrchestratorSession(owners: readonly OwnerSession[], names: ReadonlySet<string>): boolean {
  for (const owner of owners) {
    if (names.has(owner.name)) return true;
    if (!owner.withPid) continue;
    const withPid = new RegExp(`^${escapeRegExp(owner.name)}-\\d+$`);
    for (const name of names) if (withPid.test(name)) return true;
  }
  return false;
}

/** Decides ORCH_FAILURE findings from the session names and in-progress beads (pure). */
export function orchestratorFindings(input: {
  readonly sessionNames: readonly string[];
  readonly inProgress: readonly Bead[];
  readonly expected: readonly string[];
  readonly prefix: string;
  readonly pipelineNodes?: readonly PipelineBeadNode[];
}): readonly Finding[] {
  const names = new Set(input.sessionNames);
  const findings: Finding[] = [];
  const reported = new Set<string>();
  for (const bead of input.inProgress) {
    if (bead.status !== undefined && bead.status !== 'in_progress') continue;
    const owners = ownerSessionsOf(bead, { prefix: input.prefix, expected: input.expected, pipelineNodes: input.pipelineNodes ?? [] });
    const session = owners[0]?.name;
    if (session === undefined || hasOrchestratorSession(owners, names)) continue;
    if (reported.has(session)) continue;
    reported.add(session);
    const s = sanitizeForMessage(session, { maxLength: 80 });
    const id = sanitizeForMessage(bead.id, { maxLength: 80 });
    findings.push(
      createCoBuilderFinding({
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
      createCoBuilderFinding({
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
 * One TMUX_DOWN finding when no tmux session runs at all while two or more orchestrators should
 * (the server exits with its last session, or was killed): the category table's `inhibitedBy` then hides the
 * ORCH_FAILURE of every session, so the operator reads one cause, not one line per session.
 */
export function tmuxDownFinding(sessionCount: number, failures: readonly Finding[]): Finding[] {
  // One failure says more on its own (CRASHED names the bead); the cause replaces two or more.
  if (sessionCount > 0 || failures.length < 2) return [];
  const names = failures.map((f) => sanitizeForMessage(f.subject, { maxLength: 80 }));
  const shown = names.slice(0, 3).join(', ') + (names.length > 3 ? ` +${names.length - 3} more` : '');
  return [
    createCoBuilderFinding({
      category: 'TMUX_DOWN',
      subject: 'tmux',
      line: `TMUX DOWN: no tmux server (or session) is running; ${names.length} orchestrator session${names.length === 1 ? '' : 's'} should be: ${shown}`,
      action: 'Start the tmux server and re-launch the orchestrator sessions (tmux new-session -d -s NAME …)',
      short: 'tmux down',
      details: { sessions: failures.map((f) => f.subject) },
      // One cause: a changing list of sessions is not a new finding.
      content: { down: true },
    }),
  ];
}

/**
 * Scan target 2: an in-progress bead an orchestrator owns ({@link ownerSessionsOf}) whose tmux
 * session is gone, or an expected session (HEARTBEAT.md `Expected:`) that is not running → ORCH_FAILURE.
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
  return defineStatefulScanner({
    name: NAME,
    runsOutsideActiveHours: true,
    slice: IN_PROGRESS_SLICE,
    scan: async (ctx, previous) => {
      const meter: DurationMeter = { ms: 0 };
      let next: InProgressSlice | undefined;
      const result = await guardScan(NAME, meter, async () => {
        const sessions = await source.list(ctx.now, ctx.signal, meter);
        const { expectedOrchestrators: expected, orchestratorPrefix } = readConfigSection(ORCHESTRATORS_CONFIG, ctx.config);
        if (sessions.isErr()) {
          if (sessions.error.kind !== 'tool-missing') return failed(NAME, sessions.error.message, meter);
          // An Expected: list is the user saying "these must run": not being able to check it is a warning.
          return {
            ...skipped(NAME, sessions.error.message, meter),
            ...(expected.length > 0
              ? { configured: true, fix: `install tmux so the Expected: sessions (${expected.length}) can be checked` }
              : {}),
          };
        }
        const beads = await deps.beads.inProgress(ctx.now, ctx.signal, meter);
        const warnings: ScanWarning[] = [];
        let inProgress: readonly Bead[] = [];
        if (beads.isOk()) inProgress = beads.value;
        else if (expected.length === 0) return beadsFailureResult(NAME, beads.error, meter);
        // Expected sessions can still be checked without bd.
        else warnings.push({ code: 'BEADS_UNAVAILABLE', message: beads.error.message });
        let pipelineNodes: readonly PipelineBeadNode[] = [];
        if (deps.pipelineOwners !== undefined && inProgress.length > 0) {
          const owners = await deps.pipelineOwners(ctx.now);
          pipelineNodes = owners.nodes;
          // A pipeline that cannot be read may own a bead whose crash then goes unseen: say so.
          for (const problem of owners.problems) warnings.push({ code: 'PIPELINE_OWNERS_UNREADABLE', message: problem });
        }
        const failures = orchestratorFindings({
          sessionNames: sessions.value.map((s) => s.name),
          inProgress,
          expected,
          prefix: orchestratorPrefix,
          pipelineNodes,
        });
        const findings: Finding[] = [...tmuxDownFinding(sessions.value.length, failures), ...failures];
        // Without bd the count is unknown: the last one known stays (no next slice).
        if (beads.isOk()) {
          next = { inProgressCount: inProgress.length };
          findings.push(
            ...deriveInProgressChange(
              previous.inProgressCount,
              inProgress.length,
              readConfigSection(BEADS_CONFIG, ctx.config).alertInProgressChanged,
            ),
          );
        }
        return scanOk(NAME, { findings, warnings, durationMs: meter.ms });
      });
      return next === undefined ? { result } : { result, next };
    },
  });
}
