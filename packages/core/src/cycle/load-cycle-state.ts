import type { StateStore } from '../ports/state-store.js';
import { HEARTBEAT_STATE_VERSION, decodeHeartbeatState, type HeartbeatState } from './heartbeat-state.js';

/** Why a cycle refused to run on its stored state. */
export interface StateRefusal {
  readonly reason: 'newer-version' | 'cannot-keep-copy';
  /** One line for the operator, with the fix. */
  readonly message: string;
  /** The stored version, for `newer-version`. */
  readonly version?: number;
}

/** The state a cycle starts from, or why it must not run on it; with the warnings loading it gave. */
export type LoadedCycleState =
  | { readonly kind: 'loaded'; readonly state: HeartbeatState; readonly warnings: readonly string[] }
  | { readonly kind: 'refused'; readonly refused: StateRefusal; readonly state: HeartbeatState; readonly warnings: readonly string[] };

/**
 * Loads and decodes the stored state. A newer version's state is refused (never downgraded); a
 * damaged one is copied aside before the cycle may save over it (refused when no copy could be
 * kept); an unreadable store starts afresh with a warning.
 */
export async function loadCycleState(stateStore: StateStore, options: { readonly dryRun: boolean }): Promise<LoadedCycleState> {
  const loaded = await stateStore.load();
  if (loaded.isErr()) {
    const warning = `could not load state: ${loaded.error.message}; starting with fresh state`;
    return { kind: 'loaded', state: decodeHeartbeatState(undefined).state, warnings: [warning] };
  }
  const warnings = [...loaded.value.warnings];
  const decoded = decodeHeartbeatState(loaded.value.document);
  if (decoded.newerVersion !== undefined) {
    const message = `the state was written by a newer heartbeat-kit (state version ${decoded.newerVersion}; this one reads version ${HEARTBEAT_STATE_VERSION}), so this cycle did not run rather than downgrade it. Fix: upgrade heartbeat-kit (or run the newer one); to start afresh instead, move the state file away`;
    return {
      kind: 'refused',
      refused: { reason: 'newer-version', message, version: decoded.newerVersion },
      state: decoded.state,
      warnings,
    };
  }
  if (decoded.damage === undefined || options.dryRun)
    return { kind: 'loaded', state: decoded.state, warnings: [...warnings, ...decoded.warnings] };
  // The next save replaces the stored document with what was salvaged: keep the original first.
  const kept = stateStore.setAside === undefined ? undefined : await stateStore.setAside(decoded.damage.join('; '));
  if (kept !== undefined && kept.isErr()) {
    const message = `the state did not fit and no copy of it could be kept (${kept.error.message}), so this cycle did not run rather than overwrite it. Fix: free space or fix permissions where the state lives`;
    return {
      kind: 'refused',
      refused: { reason: 'cannot-keep-copy', message },
      state: decoded.state,
      warnings: [...warnings, ...decoded.warnings],
    };
  }
  const where = kept === undefined ? 'this state store keeps no copy of the original' : `the original is kept at ${kept.value}`;
  return { kind: 'loaded', state: decoded.state, warnings: [...warnings, ...decoded.warnings.map((w) => `${w}; ${where}`)] };
}
