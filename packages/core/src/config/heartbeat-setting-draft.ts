import type { Weekday } from '../time/calendar.js';

/** What is wrong with a value and what to write instead (the end of the error sentence). */
export interface Problem {
  readonly message: string;
  readonly fix: string;
}

/**
 * The settings read so far, in the shape of the config schema's input (the schema fills the rest).
 * A type, not an interface, so it is also a {@link SectionDraft} the config sections' setters write into.
 */
export type Draft = {
  activeHours: { start?: string; end?: string; weekend?: boolean; days?: Weekday[]; timeZone?: string };
  intervalMs?: number;
  catchUp?: { policy?: 'skip' | 'latest-once' | 'all'; cap?: number };
  breaker?: { after?: number; backoffCap?: number };
  operatorIdleMs?: number;
  dedupWindowMs?: number;
  repeat?: { all?: number[]; immediate?: number[]; advisory?: number[]; normal?: number[] };
  costAlertTokens?: number;
  actionableBudgetTokens?: number;
  envAllow?: string[];
  /** `## Checks`, one entry per `- name:` line, filled by the keys after it. */
  checks?: CheckDraft[];
  delivery?: { immediate?: string; advisory?: string; normal?: string; default?: string };
  /** `## Delivery` → `Ping:`: the off-host monitor's URL. */
  ping?: string;
};

/** What a section's setters write into: the draft, keyed by config key. */
export type SectionDraft = Record<string, unknown>;

/** One check as its lines set it, before the schema checks the whole. */
export interface CheckDraft {
  name: string;
  run?: string[] | string;
  shell?: boolean;
  every?: { cycles: number } | { ms: number };
  timeoutMs?: number;
  priority?: 'Immediate' | 'Advisory' | 'Normal';
  category?: string;
  outsideHours?: 'run' | 'skip';
  cwd?: string;
  env?: { allow?: string[]; deny?: string[] };
  confirm?: number;
  repeat?: number[];
}

/** What a setter may touch besides its value. */
export interface SetterContext<D extends object = Draft> {
  readonly draft: D;
  readonly warn: (message: string) => void;
  /** The value before markdown marks are trimmed (a trailing `*` can be meaningful). */
  readonly raw: string;
  /** The key as a warning names it: `Section → Key` as written (`Orchestrators → Expected`). */
  readonly key: string;
}

/** Sets a field and names it (for duplicate warnings), accepts a no-op (undefined), or rejects. */
export type Setter<D extends object = Draft> = (value: string, context: SetterContext<D>) => string | Problem | undefined;
