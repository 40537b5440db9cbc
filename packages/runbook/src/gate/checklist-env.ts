import type { GateMode } from './gate.js';

/** Default checklist interval: 30 minutes. */
export const DEFAULT_CHECKLIST_INTERVAL_MS = 1_800_000;
/** The seeded model gate that runs when a provider credential is set and no script is named. */
export const DEFAULT_GATE_SCRIPT = 'heartbeat-jev-gate';

/** An environment as a plain record (the CLI passes `process.env`; tests pass literals). */
export type Env = Readonly<Record<string, string | undefined>>;

/** Which gate runs before a checklist tick. */
export type GateSelection =
  | { readonly kind: 'none'; readonly why: 'off' | 'empty' | 'no-credentials' }
  | {
      readonly kind: 'default';
      readonly script: typeof DEFAULT_GATE_SCRIPT;
      readonly provider: 'jev' | 'clef';
      readonly credential: 'TYPESAFE_API_KEY' | 'OPENROUTER_API_KEY' | 'CLOUDFLARE';
    }
  | { readonly kind: 'script'; readonly script: string };

/** The checklist settings read from the environment, with warnings about values that were ignored. */
export interface ChecklistSettings {
  readonly intervalMs: number;
  readonly disabled: boolean;
  readonly gateMode: GateMode;
  readonly gate: GateSelection;
  readonly warnings: readonly string[];
}

function set(env: Env, key: string): boolean {
  const v = env[key];
  return v !== undefined && v !== '';
}

/**
 * The gate selection rules (spec 003): a named script wins; `off` or an empty value turns the gate
 * off; unset means the default gate when a provider credential is set. An OpenRouter key counts only
 * when no `OPENROUTER_BASE_URL` (of any value) routes it through a gateway. TypeSafe beats OpenRouter;
 * Cloudflare (Clef) is used only when it is the sole provider or `HEARTBEAT_JEV_GATE_PROVIDER=cloudflare`.
 */
export function selectGate(env: Env): GateSelection {
  const named = env.HEARTBEAT_CHECKLIST_GATE_SCRIPT;
  if (named !== undefined) {
    const trimmed = named.trim();
    if (trimmed === '') return { kind: 'none', why: 'empty' };
    if (trimmed.toLowerCase() === 'off') return { kind: 'none', why: 'off' };
    return { kind: 'script', script: trimmed };
  }
  const typesafe = set(env, 'TYPESAFE_API_KEY');
  const openrouter = set(env, 'OPENROUTER_API_KEY') && !set(env, 'OPENROUTER_BASE_URL');
  const cloudflare = (set(env, 'CLOUDFLARE_API_TOKEN') || set(env, 'CLOUDFLARE_API_KEY')) && set(env, 'CLOUDFLARE_ACCOUNT_ID');
  const jev = typesafe || openrouter;
  if (cloudflare && (!jev || env.HEARTBEAT_JEV_GATE_PROVIDER?.trim().toLowerCase() === 'cloudflare')) {
    return { kind: 'default', script: DEFAULT_GATE_SCRIPT, provider: 'clef', credential: 'CLOUDFLARE' };
  }
  if (typesafe) return { kind: 'default', script: DEFAULT_GATE_SCRIPT, provider: 'jev', credential: 'TYPESAFE_API_KEY' };
  if (openrouter) return { kind: 'default', script: DEFAULT_GATE_SCRIPT, provider: 'jev', credential: 'OPENROUTER_API_KEY' };
  return { kind: 'none', why: 'no-credentials' };
}

/**
 * Reads the checklist settings with the server's quirks: the interval is `Number(v) || default`
 * (and a negative value is refused too); any non-empty `HEARTBEAT_CHECKLIST_DISABLE` disables, even
 * `0` or `false`; an unknown gate mode falls back to shadow, the safe mode.
 */
export function readChecklistSettings(env: Env): ChecklistSettings {
  const warnings: string[] = [];
  const rawInterval = env.HEARTBEAT_CHECKLIST_INTERVAL_MS;
  const n = Number(rawInterval);
  let intervalMs = DEFAULT_CHECKLIST_INTERVAL_MS;
  if (rawInterval !== undefined && rawInterval !== '') {
    if (Number.isFinite(n) && n > 0) intervalMs = n;
    else
      warnings.push(
        `HEARTBEAT_CHECKLIST_INTERVAL_MS=${JSON.stringify(rawInterval)} is not a positive number of milliseconds; using ${DEFAULT_CHECKLIST_INTERVAL_MS}`,
      );
  }
  const rawMode = env.HEARTBEAT_CHECKLIST_GATE_MODE?.trim().toLowerCase();
  let gateMode: GateMode = 'shadow';
  if (rawMode === 'enforce') gateMode = 'enforce';
  else if (rawMode !== undefined && rawMode !== '' && rawMode !== 'shadow') {
    warnings.push(
      `HEARTBEAT_CHECKLIST_GATE_MODE=${JSON.stringify(env.HEARTBEAT_CHECKLIST_GATE_MODE)} is not shadow or enforce; using shadow`,
    );
  }
  return { intervalMs, disabled: set(env, 'HEARTBEAT_CHECKLIST_DISABLE'), gateMode, gate: selectGate(env), warnings };
}
