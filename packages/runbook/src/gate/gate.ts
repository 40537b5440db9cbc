import { err, ok, type Result, type ResultAsync } from 'neverthrow';
import { z } from 'zod';

/** How long a gate may take before its verdict is an error (the gate then fails open: the task is created; spec 003). */
export const DEFAULT_GATE_TIMEOUT_MS = 60_000;

/** A due or past tracked item as the gate sees it. */
export interface GateDueItem {
  readonly line: number;
  readonly section: string;
  readonly text: string;
  readonly reason: 'check-today' | 'delete-past';
}

/** A failed, stalled or reboot-interrupted task the previous checklist did not name. */
export interface GateFailure {
  readonly id: string;
  readonly task: string;
  readonly kind: 'failed' | 'stalled' | 'reboot-interrupted';
  readonly reason: string;
}

/**
 * The compact state a gate decides on: new failures, tracked items due or past their date, the
 * previous checklist result, task and agent counts (what spec 003 gives the gate). Strings are sanitised before they get here.
 */
export interface GateState {
  readonly version: 1;
  readonly now: string;
  readonly timeZone: string;
  readonly dryRun: boolean;
  readonly newFailures: readonly GateFailure[];
  readonly dueItems: readonly GateDueItem[];
  readonly previousChecklist: { readonly taskId: string; readonly completedAt: string; readonly output: string } | null;
  readonly unansweredMentions: number;
  /** Reboot-interrupted failures whose retry is missing and the previous checklist did not name. */
  readonly untriagedRebootFailures: readonly string[];
  readonly counts: {
    readonly tasks: Readonly<Record<string, number>>;
    readonly agents: { readonly online: number; readonly offline: number; readonly idle: number };
  };
}

/** What a gate answers. */
export interface GateResult {
  readonly quiet: boolean;
  readonly reason: string;
  readonly summary: string;
}

/** Why a gate gave no usable answer. Every kind fails open. */
export type GateError =
  | { readonly kind: 'timeout'; readonly timeoutMs: number; readonly message: string }
  | { readonly kind: 'crashed'; readonly message: string }
  | { readonly kind: 'exit-code'; readonly exitCode: number; readonly message: string }
  | { readonly kind: 'malformed'; readonly message: string }
  | { readonly kind: 'unavailable'; readonly message: string };

/** Options of one gate call. */
export interface GateCall {
  readonly signal?: AbortSignal;
}

/** Decides whether a checklist tick needs the lead. */
export interface Gate {
  readonly name: string;
  readonly decide: (state: GateState, call?: GateCall) => ResultAsync<GateResult, GateError>;
}

/** The gate's output contract: `quiet` must be a boolean, `reason` and `summary` strings. */
export const gateResultSchema = z.object({ quiet: z.boolean(), reason: z.string(), summary: z.string() });

/**
 * Reads a gate's stdout. The last non-empty line must be the JSON object (scripts often log before
 * it); anything else is `malformed`.
 */
export function parseGateOutput(stdout: string): Result<GateResult, GateError> {
  const lines = stdout
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const candidates = [stdout.trim(), lines[lines.length - 1] ?? ''];
  for (const candidate of candidates) {
    if (candidate === '') continue;
    let json: unknown;
    try {
      json = JSON.parse(candidate);
    } catch {
      continue;
    }
    const parsed = gateResultSchema.safeParse(json);
    if (parsed.success) return ok(parsed.data);
    return err({
      kind: 'malformed',
      message: `gate result must be {quiet: boolean, reason: string, summary: string}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'} ${i.message}`).join('; ')}`,
    });
  }
  return err({ kind: 'malformed', message: stdout.trim() === '' ? 'gate printed nothing' : 'gate output is not JSON' });
}

/** The three verdicts and their tags. */
export type GateVerdictKind = 'quiet' | 'wake' | 'error';

/** A verdict: the gate's answer, or an error that fails open. */
export type GateVerdict =
  | { readonly kind: 'quiet' | 'wake'; readonly reason: string; readonly summary: string }
  | { readonly kind: 'error'; readonly error: GateError };

/** The tag of each verdict. */
export const GATE_TAGS = {
  quiet: 'heartbeat-gate:quiet',
  wake: 'heartbeat-gate:wake',
  error: 'heartbeat-gate:error',
} as const satisfies Record<GateVerdictKind, string>;

/** Turns a gate's outcome into a verdict; every error becomes the `error` verdict. */
export function toVerdict(outcome: Result<GateResult, GateError>): GateVerdict {
  return outcome.match(
    (value): GateVerdict => ({ kind: value.quiet ? 'quiet' : 'wake', reason: value.reason, summary: value.summary }),
    (error): GateVerdict => ({ kind: 'error', error }),
  );
}

/**
 * Runs a gate and never fails: errors and rejections become the `error` verdict (fail open).
 *
 * @example
 * ```ts
 * import { gateEffect, runGate, type Gate, type GateState } from '@heartbeat-kit/runbook';
 *
 * declare const gate: Gate; // createRulesGate(), or createCommandGate({ file }) from ./node
 * declare const state: GateState;
 * const verdict = await runGate(gate, state, { signal: AbortSignal.timeout(60_000) }); // never rejects: errors fail open
 * console.log(gateEffect('shadow', verdict)); // { createTask: true, tag: 'heartbeat-gate:…' }
 * ```
 */
export async function runGate(gate: Gate, state: GateState, call: GateCall = {}): Promise<GateVerdict> {
  try {
    const result = await gate.decide(state, call);
    return toVerdict(result);
  } catch (cause) {
    return { kind: 'error', error: { kind: 'crashed', message: cause instanceof Error ? cause.message : String(cause) } };
  }
}

/** Gate modes: shadow tags every task; enforce lets a quiet verdict skip it. */
export type GateMode = 'shadow' | 'enforce';

/** What a verdict does to the tick in a mode. */
export interface GateEffect {
  readonly createTask: boolean;
  readonly tag: string;
  /** Set in enforce mode on wake: the "Gate Findings" section of the prompt. */
  readonly gateFindings?: string;
}

/**
 * The spec's verdict table. Only enforce + quiet skips the task; an error verdict always creates it
 * (fail open); the prompt changes only in enforce mode on wake. Tags are kept in enforce mode too so
 * agreement can still be measured.
 */
export function gateEffect(mode: GateMode, verdict: GateVerdict): GateEffect {
  switch (verdict.kind) {
    case 'error':
      return { createTask: true, tag: GATE_TAGS.error };
    case 'quiet':
      return { createTask: mode !== 'enforce', tag: GATE_TAGS.quiet };
    case 'wake':
      return mode === 'enforce'
        ? { createTask: true, tag: GATE_TAGS.wake, gateFindings: verdict.summary }
        : { createTask: true, tag: GATE_TAGS.wake };
  }
}
