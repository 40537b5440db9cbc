import { type Finding, sanitizeForMessage, type Scanner, scanOk, type ScanWarning } from '@heartbeat-kit/core';
import { readConfigSection } from '@heartbeat-kit/core/host';
import type { Bead } from '../beads/bead.js';
import type { BeadsSource } from '../beads/beads-source.js';
import { beadsFailureResult } from '../beads/beads-scanner.js';
import { escapeRegExp, formatAge, guardScan, mapConcurrent, PER_SCANNER_CONCURRENCY, type DurationMeter } from '../scanner-support.js';
import { branchTipEpochs, commitsSince, describeGitError, type GitDeps } from './git-client.js';
import { scannableWorktrees, type Worktree } from './parse-worktrees.js';
import { createWorktreeSource, type WorktreeSource } from './worktree-source.js';
import { createCoBuilderFinding } from '../categories/cobuilder-categories.js';
import { STALE_TASKS_CONFIG } from './stale-tasks-config.js';

/** Dependencies of {@link createStaleTasksScanner}. */
export interface StaleTasksScannerDeps extends GitDeps {
  readonly cwd: string;
  readonly beads: BeadsSource;
  /** Branch of a bead when no worktree branch names it (e.g. a team's `feature/<id>` convention). */
  readonly branchForBead?: (bead: Bead) => string | undefined;
  /** The cycle's shared worktree listing (default: one of its own). */
  readonly worktrees?: WorktreeSource;
}

/**
 * The worktree whose branch names the bead: the id must stand alone (`feat/bd-a3f8-login`
 * matches `bd-a3f8`, but neither `bd-a3f8.1` nor `xbd-a3f8` does).
 */
export function worktreeForBead(beadId: string, worktrees: readonly Worktree[]): Worktree | undefined {
  const pattern = new RegExp(`(?:^|[^a-z0-9])${escapeRegExp(beadId)}(?![a-z0-9]|\\.\\d)`);
  return worktrees.find((w) => w.branch !== undefined && pattern.test(w.branch));
}

/** When a bead went in progress: `started_at`, else `updated_at` (epoch ms), or undefined when neither parses. */
export function inProgressSince(bead: Bead): number | undefined {
  for (const text of [bead.startedAt, bead.updatedAt]) {
    if (text === undefined) continue;
    const ms = Date.parse(text);
    if (!Number.isNaN(ms)) return ms;
  }
  return undefined;
}

/** The STALE_TASK finding of one bead (subject = bead id). */
export function staleTaskFinding(bead: Bead, ageMs: number, windowMs: number, branch: string | undefined): Finding {
  const id = sanitizeForMessage(bead.id, { maxLength: 80 });
  const title = sanitizeForMessage(bead.title, { maxLength: 120 });
  const evidence =
    branch === undefined
      ? 'no branch found'
      : `no commits on ${sanitizeForMessage(branch, { maxLength: 120 })} in the last ${formatAge(windowMs)}`;
  return createCoBuilderFinding({
    category: 'STALE_TASK',
    subject: bead.id,
    line: `STALE TASK: ${id} '${title}' (in_progress ${formatAge(ageMs)}, ${evidence})`,
    action: `Check on ${id}: unblock it, re-assign it or move it out of in_progress`,
    short: `${id} stale`,
    details: { id: bead.id, title: bead.title, ageMs, ...(branch === undefined ? {} : { branch }) },
    // The age grows every cycle; a renamed bead or another branch is a change worth telling.
    content: { title: bead.title, ...(branch === undefined ? {} : { branch }) },
  });
}

const NAME = 'stale-tasks';

/**
 * Scan target 4: in-progress beads older than `staleTaskMs` with no commits on their branch in
 * that window (spec: `git log --since="4 hours ago"`) → STALE_TASK. The branch is a worktree
 * branch naming the bead id, else `branchForBead`; with no branch at all the task is judged by
 * time alone, because nothing shows it is being worked on.
 *
 * @example
 * ```ts
 * import { createBeadsSource, createStaleTasksScanner } from '@heartbeat-kit/scanners';
 * import { createProcessRunner } from '@heartbeat-kit/core/node';
 *
 * const runner = createProcessRunner();
 * const cwd = process.cwd();
 * const scanner = createStaleTasksScanner({
 *   runner,
 *   cwd,
 *   beads: createBeadsSource({ runner, cwd }),
 *   branchForBead: (bead) => `feature/${bead.id}`, // when no worktree branch names the bead id
 * });
 * ```
 */
export function createStaleTasksScanner(deps: StaleTasksScannerDeps): Scanner {
  const source = deps.worktrees ?? createWorktreeSource(deps);
  return {
    name: NAME,
    runsOutsideActiveHours: false,
    scan: (ctx) => {
      const meter: DurationMeter = { ms: 0 };
      return guardScan(NAME, meter, async () => {
        const beads = await deps.beads.inProgress(ctx.now, ctx.signal, meter);
        if (beads.isErr()) return beadsFailureResult(NAME, beads.error, meter);
        const nowMs = ctx.now.getTime();
        const windowMs = readConfigSection(STALE_TASKS_CONFIG, ctx.config).staleTaskMs;
        const warnings: ScanWarning[] = [];
        const old = beads.value.flatMap((bead) => {
          if (bead.status !== undefined && bead.status !== 'in_progress') return [];
          const since = inProgressSince(bead);
          if (since === undefined) {
            warnings.push({
              code: 'BEAD_NO_START_TIME',
              message: `${sanitizeForMessage(bead.id, { maxLength: 80 })}: no started_at/updated_at`,
            });
            return [];
          }
          return nowMs - since > windowMs ? [{ bead, ageMs: nowMs - since }] : [];
        });
        if (old.length === 0) return scanOk(NAME, { warnings, durationMs: meter.ms });
        let worktrees: readonly Worktree[] = [];
        const listed = await source.list(ctx.now, ctx.signal, meter);
        if (listed.isOk()) worktrees = scannableWorktrees(listed.value);
        else warnings.push({ code: 'GIT_UNAVAILABLE', message: `branches unknown: ${describeGitError(listed.error)}` });
        const findings: Finding[] = [];
        const sinceEpoch = Math.floor((nowMs - windowMs) / 1000);
        // Every branch tip's date in one call; a branch it does not answer for is asked alone below.
        const tips = (await branchTipEpochs(deps, deps.cwd, ctx.signal, meter)).unwrapOr(undefined);
        const judged = await mapConcurrent(
          old,
          PER_SCANNER_CONCURRENCY,
          async ({ bead, ageMs }): Promise<{ finding?: Finding; warning?: ScanWarning }> => {
            const worktree = worktreeForBead(bead.id, worktrees);
            const branch = worktree?.branch ?? deps.branchForBead?.(bead);
            if (branch === undefined) return { finding: staleTaskFinding(bead, ageMs, windowMs, undefined) };
            const tip = tips?.get(branch);
            if (tip !== undefined) return tip < sinceEpoch ? { finding: staleTaskFinding(bead, ageMs, windowMs, branch) } : {};
            const count = await commitsSince(deps, worktree?.path ?? deps.cwd, branch, (nowMs - windowMs) / 1000, ctx.signal, meter);
            if (count.isErr()) {
              // A branch that no longer exists shows no work either: judge by time alone.
              if (count.error.kind === 'unknown-revision') return { finding: staleTaskFinding(bead, ageMs, windowMs, undefined) };
              return {
                warning: {
                  code: 'GIT_LOG_FAILED',
                  message: `${sanitizeForMessage(bead.id, { maxLength: 80 })}: ${describeGitError(count.error)}`,
                },
              };
            }
            return count.value === 0 ? { finding: staleTaskFinding(bead, ageMs, windowMs, branch) } : {};
          },
        );
        for (const { finding, warning } of judged) {
          if (finding) findings.push(finding);
          if (warning) warnings.push(warning);
        }
        return scanOk(NAME, { findings, warnings, durationMs: meter.ms });
      });
    },
  };
}
