import { type Finding, sanitizeForMessage, type Scanner, scanOk, type ScanResult } from '@heartbeat-kit/core';
import { guardScan, skipped, failed, type DurationMeter } from '../scanner-support.js';
import type { Bead } from './bead.js';
import type { BeadsSource, BeadsSourceError } from './beads-source.js';
import { createCoBuilderFinding } from '../categories/cobuilder-categories.js';

/** Dependencies of {@link createBeadsScanner}. */
export interface BeadsScannerDeps {
  readonly source: BeadsSource;
}

const NAME = 'beads';

/** Turns a bd failure into the scan result every bd-backed scanner uses. */
export function beadsFailureResult(name: string, error: BeadsSourceError, meter: DurationMeter): ScanResult {
  if (error.kind === 'failed') {
    if (error.cause === undefined) return failed(name, error.message, meter);
    // The cause groups every bd-backed scanner's failure into one SCANNER_FAILING advisory.
    return { scanner: name, status: 'error', error: error.message, cause: error.cause, durationMs: meter.ms };
  }
  const result = skipped(name, error.message, meter);
  return error.kind === 'not-configured'
    ? {
        ...result,
        fix: "run 'bd init' in the project, or point BEADS_DIR at its .beads directory; ignore this if the project uses no beads",
      }
    : result;
}

/** Category of a ready bead by priority: P0, P1, else WORK_READY (an unknown priority counts as P2+). */
export function readyCategory(bead: Bead): 'P0_WORK_READY' | 'P1_WORK_READY' | 'WORK_READY' {
  if (bead.priority === 0) return 'P0_WORK_READY';
  if (bead.priority === 1) return 'P1_WORK_READY';
  return 'WORK_READY';
}

/** Builds the finding for one ready bead (subject = bead id). */
export function readyBeadFinding(bead: Bead): Finding {
  const id = sanitizeForMessage(bead.id, { maxLength: 80 });
  const title = sanitizeForMessage(bead.title, { maxLength: 120 });
  const prio = bead.priority === undefined ? 'P?' : `P${bead.priority}`;
  return createCoBuilderFinding({
    category: readyCategory(bead),
    subject: bead.id,
    line: `${prio} READY: ${id} '${title}'`,
    action: `Assign ${id} to existing or new orchestrator`,
    short: `${sanitizeForMessage(bead.title, { maxLength: 60 })} ready`,
    details: {
      id: bead.id,
      title: bead.title,
      ...(bead.priority === undefined ? {} : { priority: bead.priority }),
      ...(bead.assignee === undefined ? {} : { assignee: bead.assignee }),
      ...(bead.labels === undefined ? {} : { labels: [...bead.labels] }),
      ...(bead.issueType === undefined ? {} : { issueType: bead.issueType }),
    },
  });
}

/**
 * Decides which ready beads are findings: one per bead, P2+ only inside active hours. Beads a
 * build of `bd ready` lists while already in progress or closed (the behaviour flipped between
 * releases) are not "ready work".
 */
export function readyBeadFindings(beads: readonly Bead[], insideActiveHours: boolean): readonly Finding[] {
  return beads
    .filter((bead) => bead.status === undefined || bead.status === 'open')
    .map(readyBeadFinding)
    .filter((finding) => insideActiveHours || finding.category !== 'WORK_READY');
}

/**
 * Scan target 1: ready beads (`bd ready --json`) → P0_WORK_READY / P1_WORK_READY / WORK_READY.
 *
 * @example
 * ```ts
 * import { DEFAULT_HEARTBEAT_CONFIG } from '@heartbeat-kit/core';
 * import { createBeadsScanner, createBeadsSource } from '@heartbeat-kit/scanners';
 * import { createProcessRunner } from '@heartbeat-kit/core/node';
 *
 * const scanner = createBeadsScanner({ source: createBeadsSource({ runner: createProcessRunner(), cwd: process.cwd() }) });
 * const result = await scanner.scan({ now: new Date(), config: DEFAULT_HEARTBEAT_CONFIG, insideActiveHours: true, signal: new AbortController().signal });
 * if (result.status === 'ok') console.log(result.findings.map((f) => f.line)); // ["P1 READY: beads-f7k2 'Implement JWT validation'"]
 * ```
 */
export function createBeadsScanner(deps: BeadsScannerDeps): Scanner {
  return {
    name: NAME,
    runsOutsideActiveHours: true,
    scan: (ctx) => {
      const meter: DurationMeter = { ms: 0 };
      return guardScan(NAME, meter, async () => {
        const ready = await deps.source.ready(ctx.signal, meter);
        if (ready.isErr()) return beadsFailureResult(NAME, ready.error, meter);
        return scanOk(NAME, { findings: readyBeadFindings(ready.value, ctx.insideActiveHours), durationMs: meter.ms });
      });
    },
  };
}
