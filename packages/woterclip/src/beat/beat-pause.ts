import { decidePause, type Pause } from '@heartbeat-kit/core/host';

/**
 * What an operator pause means for a WoterClip beat, beside its quiet hours: `skip` (no lock, no
 * GitHub call, a `paused` receipt) or, with `--except-critical`, `triage-only` (as quiet hours with
 * behavior triage-only: only the default persona works). Pure; an ended pause always runs.
 */
export type BeatPauseDecision =
  | { readonly kind: 'run' }
  | { readonly kind: 'skip'; readonly pause: Pause; readonly line: string }
  | { readonly kind: 'triage-only'; readonly pause: Pause; readonly line: string };

/** The pause decision for the beat at `nowMs` (WoterClip has no scanners: a pause is whole or triage-only). */
export function decideBeatPause(pause: Pause | undefined, nowMs: number): BeatPauseDecision {
  const decided = decidePause(pause, nowMs);
  if (decided.kind === 'run') return decided;
  if (decided.kind === 'partial' && decided.criticalOnly) return { kind: 'triage-only', pause: decided.pause, line: decided.line };
  return { kind: 'skip', pause: decided.pause, line: decided.line };
}
