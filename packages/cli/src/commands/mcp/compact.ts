/** The parts of `plan --json` the tools read. */
export interface PlanJson {
  readonly from: string;
  readonly hours: number;
  readonly schedule: unknown;
  readonly pause?: unknown;
  readonly slots: readonly { readonly at: string; readonly verdict: string; readonly reason: string }[];
}

interface Brief {
  readonly subject: string;
  readonly category: string;
  readonly fingerprint: string;
}

/** The parts of `cycle --json` the tools read (its fields are documented in the CLI reference). */
export interface CycleJson {
  readonly status: string;
  readonly cycle: number;
  readonly at: string;
  readonly insideActiveHours: boolean;
  readonly operatorIdle: boolean;
  readonly findings: readonly Brief[];
  readonly suppressed: readonly (Brief & { readonly reason: string; readonly ack?: { readonly note: string; readonly until?: string } })[];
  readonly held: readonly Brief[];
  readonly inhibited: readonly (Brief & { readonly by: unknown })[];
  readonly unconfirmed: readonly (Brief & { readonly seenCycles: number; readonly neededCycles: number })[];
  readonly scanners: readonly { readonly name: string; readonly status: string; readonly note?: string }[];
  readonly problems: readonly { readonly scanner: string; readonly code: string; readonly message: string; readonly fix: string }[];
  readonly delivery: unknown;
  readonly message: string | null;
  readonly coverage?: unknown;
  readonly breaker?: unknown;
  readonly sinkBreaker?: unknown;
  readonly warnings?: readonly string[];
}

/** Runs of consecutive slots with the same verdict and reason as one row: 144 equal slots are one line. */
export function compactPlan(plan: PlanJson): Record<string, unknown> {
  const runs: { from: string; to: string; slots: number; verdict: string; reason: string }[] = [];
  for (const slot of plan.slots) {
    const last = runs.at(-1);
    if (last !== undefined && last.verdict === slot.verdict && last.reason === slot.reason) {
      last.to = slot.at;
      last.slots += 1;
    } else runs.push({ from: slot.at, to: slot.at, slots: 1, verdict: slot.verdict, reason: slot.reason });
  }
  return { from: plan.from, hours: plan.hours, schedule: plan.schedule, ...(plan.pause === undefined ? {} : { pause: plan.pause }), runs };
}

/** A cycle's outcome without per-scanner timings: what was decided, said, and not looked at. */
export function compactCycle(cycle: CycleJson): Record<string, unknown> {
  return {
    status: cycle.status,
    cycle: cycle.cycle,
    at: cycle.at,
    delivery: cycle.delivery,
    findings: cycle.findings.map((f) => `${f.category} ${f.subject}`),
    held: cycle.suppressed.length + cycle.held.length + cycle.inhibited.length + cycle.unconfirmed.length,
    problems: cycle.problems.map((p) => `${p.scanner}: ${p.message} (fix: ${p.fix})`),
    coverage: cycle.coverage,
    ...(cycle.warnings === undefined || cycle.warnings.length === 0 ? {} : { warnings: cycle.warnings }),
    ...(cycle.breaker === undefined ? {} : { breaker: cycle.breaker }),
    ...(cycle.sinkBreaker === undefined ? {} : { sinkBreaker: cycle.sinkBreaker }),
    message: cycle.message,
  };
}

const SUPPRESSED_WHY: Readonly<Record<string, string>> = {
  dedup: 'dedup: reported before, unchanged, and its repeat is not due yet',
  'outside-active-hours': 'outside active hours: only critical findings are reported now',
  ack: 'acked by the operator',
};

/**
 * Why each finding of a dry-run cycle fires or is held, from what the cycle decided (its
 * suppressed reasons, held, inhibited and unconfirmed lists) and when it was last reported.
 */
export function explainRows(
  cycle: CycleJson,
  reported: Readonly<Record<string, number>>,
  match: string | undefined,
): Record<string, unknown> {
  const wanted = (f: Brief) =>
    match === undefined || [f.subject, f.category, f.fingerprint].some((text) => text.toLowerCase().includes(match.toLowerCase()));
  const before = (f: Brief) =>
    reported[f.fingerprint] === undefined ? {} : { lastReported: new Date(reported[f.fingerprint] ?? 0).toISOString() };
  const row = (f: Brief, verdict: 'fires' | 'held', why: string, extra: Record<string, unknown> = {}) => ({
    category: f.category,
    subject: f.subject,
    fingerprint: f.fingerprint,
    verdict,
    why,
    ...before(f),
    ...extra,
  });
  const rows = [
    ...cycle.findings
      .filter(wanted)
      .map((f) =>
        row(
          f,
          'fires',
          reported[f.fingerprint] === undefined ? 'new: never reported' : 'changed since its last report, or its repeat is due',
        ),
      ),
    ...cycle.suppressed
      .filter(wanted)
      .map((s) =>
        row(
          s,
          'held',
          SUPPRESSED_WHY[s.reason] ?? s.reason,
          s.ack === undefined ? {} : { ack: { note: s.ack.note, until: s.ack.until ?? null } },
        ),
      ),
    ...cycle.held.filter(wanted).map((f) => row(f, 'held', 'operator busy: Advisory/Normal findings wait until the operator is idle')),
    ...cycle.inhibited.filter(wanted).map((i) => row(i, 'held', 'inhibited: a source it depends on failed', { by: i.by })),
    ...cycle.unconfirmed
      .filter(wanted)
      .map((u) => row(u, 'held', `hysteresis: seen ${u.seenCycles} of the ${u.neededCycles} cycles in a row it needs`)),
  ];
  const broken = cycle.scanners
    .filter((s) => s.status !== 'ok' && s.status !== 'skipped')
    .map((s) => `${s.name}: ${s.status}${s.note === undefined ? '' : ` (${s.note})`}`);
  return {
    at: cycle.at,
    insideActiveHours: cycle.insideActiveHours,
    operatorIdle: cycle.operatorIdle,
    findings: rows,
    ...(broken.length === 0 ? {} : { scannersNotOk: broken }),
    ...(cycle.sinkBreaker === undefined ? {} : { sinkBreaker: cycle.sinkBreaker }),
  };
}
