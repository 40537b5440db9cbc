import { z } from 'zod';

/**
 * One line of a gate log: a shadow verdict, a checklist outcome, or both, joined by `taskId`.
 * `outcome` is the lead's own call; without it a completed `output` starting with `Quiet.` counts
 * as quiet and any other output as work.
 */
export const gateLogRecordSchema = z
  .object({
    taskId: z.string().min(1),
    at: z.string().optional(),
    verdict: z.enum(['quiet', 'wake', 'error']).optional(),
    outcome: z.enum(['quiet', 'work']).optional(),
    output: z.string().optional(),
  })
  .refine((r) => r.verdict !== undefined || r.outcome !== undefined || r.output !== undefined, {
    message: 'needs verdict, outcome or output',
  });

/** A validated gate log line. */
export type GateLogRecord = z.infer<typeof gateLogRecordSchema>;

/** Agreement of the gate's quiet calls with the lead's outcomes. */
export interface GateAgreement {
  /** Tasks with both a quiet/wake verdict and an outcome. */
  readonly compared: number;
  /** Tasks whose verdict was `error` (excluded from the ratios). */
  readonly errors: number;
  /** Tasks with a verdict but no outcome yet, or an outcome but no verdict. */
  readonly unpaired: number;
  readonly truePositives: number;
  readonly falsePositives: number;
  readonly falseNegatives: number;
  readonly trueNegatives: number;
  /** Share of compared tasks where verdict and outcome agree; null when nothing was compared. */
  readonly agreement: number | null;
  /** Of the gate's quiet calls, the share the lead also found quiet (a miss here skips needed work). */
  readonly quietPrecision: number | null;
  /** Of the lead's quiet outcomes, the share the gate called quiet (the tokens enforce would save). */
  readonly quietRecall: number | null;
  readonly enforceAdvisable: boolean;
  readonly advice: string;
}

/** Thresholds of the enforce advice. */
export interface AgreementOptions {
  /** Minimum quiet precision and agreement. Default 0.95. */
  readonly threshold?: number;
  /** Minimum compared tasks. Default 20. */
  readonly minSamples?: number;
}

function outcomeOf(r: { outcome?: 'quiet' | 'work' | undefined; output?: string | undefined }): 'quiet' | 'work' | undefined {
  if (r.outcome !== undefined) return r.outcome;
  if (r.output !== undefined) return r.output.trimStart().startsWith('Quiet.') ? 'quiet' : 'work';
  return undefined;
}

/**
 * Agreement, precision and recall of "quiet" over a shadow log, and whether switching to enforce is
 * advisable: enough samples, and both quiet precision and agreement at or above the threshold. The
 * last verdict and outcome per task win.
 */
export function computeGateAgreement(records: readonly GateLogRecord[], options: AgreementOptions = {}): GateAgreement {
  const threshold = options.threshold ?? 0.95;
  const minSamples = options.minSamples ?? 20;
  const byTask = new Map<string, { verdict?: 'quiet' | 'wake' | 'error'; outcome?: 'quiet' | 'work' }>();
  for (const r of records) {
    const entry = byTask.get(r.taskId) ?? {};
    if (r.verdict !== undefined) entry.verdict = r.verdict;
    const o = outcomeOf(r);
    if (o !== undefined) entry.outcome = o;
    byTask.set(r.taskId, entry);
  }
  let tp = 0,
    fp = 0,
    fn = 0,
    tn = 0,
    errors = 0,
    unpaired = 0;
  for (const { verdict, outcome } of byTask.values()) {
    if (verdict === 'error') {
      errors += 1;
      continue;
    }
    if (verdict === undefined || outcome === undefined) {
      unpaired += 1;
      continue;
    }
    if (verdict === 'quiet' && outcome === 'quiet') tp += 1;
    else if (verdict === 'quiet') fp += 1;
    else if (outcome === 'quiet') fn += 1;
    else tn += 1;
  }
  const compared = tp + fp + fn + tn;
  const ratio = (a: number, b: number): number | null => (b === 0 ? null : a / b);
  const agreement = ratio(tp + tn, compared);
  const quietPrecision = ratio(tp, tp + fp);
  const quietRecall = ratio(tp, tp + fn);
  let advice: string;
  let enforceAdvisable = false;
  if (compared < minSamples) advice = `keep shadow: ${compared} compared task(s), need at least ${minSamples}`;
  else if (quietPrecision === null) advice = 'keep shadow: the gate has not called quiet yet';
  else if (quietPrecision < threshold) advice = `keep shadow: quiet precision ${quietPrecision.toFixed(3)} is below ${threshold}`;
  else if (agreement !== null && agreement < threshold) advice = `keep shadow: agreement ${agreement.toFixed(3)} is below ${threshold}`;
  else {
    enforceAdvisable = true;
    advice = `enforce is advisable: quiet precision ${quietPrecision.toFixed(3)} and agreement ${(agreement ?? 0).toFixed(3)} over ${compared} task(s)`;
  }
  return {
    compared,
    errors,
    unpaired,
    truePositives: tp,
    falsePositives: fp,
    falseNegatives: fn,
    trueNegatives: tn,
    agreement,
    quietPrecision,
    quietRecall,
    enforceAdvisable,
    advice,
  };
}

/** Parses a JSONL gate log; bad lines are reported with their 1-based number, never thrown. */
export function parseGateLog(
  text: string,
  source: string,
): { readonly records: readonly GateLogRecord[]; readonly problems: readonly string[] } {
  const records: GateLogRecord[] = [];
  const problems: string[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line === '') return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      problems.push(`${source}:${i + 1}: not JSON; each line must be one JSON object`);
      return;
    }
    const parsed = gateLogRecordSchema.safeParse(json);
    if (parsed.success) records.push(parsed.data);
    else problems.push(`${source}:${i + 1}: ${parsed.error.issues.map((x) => `${x.path.join('.') || '(root)'}: ${x.message}`).join('; ')}`);
  });
  return { records, problems };
}
