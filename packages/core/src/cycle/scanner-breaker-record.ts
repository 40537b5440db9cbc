import { z } from 'zod';
import type { Finding } from '../domain/finding.js';
import type { ScannerName } from '../domain/scan-result.js';
import type { BreakerSettings } from './breaker-decision.js';

// A scanner's circuit breaker as the state keeps it, and what one cycle's update of the breakers
// returns; the decisions are in scanner-breaker.ts, the words in breaker-wording.ts.

/** Code of a scanner the circuit breaker did not run this cycle (its skip is a `warning` problem). */
export const BREAKER_SKIP_CODE = 'SCANNER_BREAKER_OPEN';

/** Category of the one Advisory finding a tripped breaker raises. */
export const SCANNER_FAILING = 'SCANNER_FAILING';

/** At most this many breakers are kept (one per scanner that is failing). */
export const MAX_BREAKERS = 64;

const MAX_FAILURES = 1_000_000_000;

/**
 * Schema of one scanner's breaker in the state. It exists only while the scanner fails the same
 * way (`code`); a clean run removes it.
 */
export const scannerBreakerSchema = z.object({
  /** The failure's code(s), `+`-joined: the same code is "failing the same way". */
  code: z.string().min(1).max(200),
  /** The latest failure's message and fix (already sanitised by `scanProblems`). */
  message: z.string().max(400),
  fix: z.string().max(400),
  /** When the streak began (epoch ms). */
  sinceMs: z.number().int().nonnegative(),
  /** Consecutive cycles the scanner ran and failed this way (cycles it was not run do not count). */
  failures: z.number().int().positive().max(MAX_FAILURES),
  /** It looked at nothing (skipped, failed, timed out), so its runs may be backed off; a degraded one never is. */
  skippable: z.boolean(),
  /** Cycles between runs while tripped (2, 4, … up to the cap); 0 while not tripped. */
  backoff: z.number().int().nonnegative().max(100),
  /** The first cycle it runs again while tripped. */
  nextRunCycle: z.number().int().nonnegative(),
  /** Its SCANNER_FAILING advisory was delivered: it is not raised again for this streak. */
  advised: z.boolean(),
  /**
   * The failure without the details of this scanner's call (`bd: Error: …`); absent = `message`.
   * Scanners failing with the same code, cause and fix share one advisory.
   */
  cause: z.string().max(400).optional(),
  /**
   * The subject of the SCANNER_FAILING advisory this scanner shares with every scanner failing for
   * the same cause (its fingerprint is `SCANNER_FAILING:<group>`); set once tripped, kept for the
   * streak. Absent in states written before grouping: the scanner's own `scanner:code:since`.
   */
  group: z.string().min(1).max(700).optional(),
});

/** One scanner's circuit breaker, as kept in the state. */
export type ScannerBreaker = z.infer<typeof scannerBreakerSchema>;

/** A change of a breaker that is said once, on stderr in text mode and under `breaker` in JSON. */
export interface BreakerEvent {
  /** `tripped`: N failing cycles in a row; `recovered`: it ran cleanly; `changed`: the streak ended without a clean run. */
  readonly kind: 'tripped' | 'recovered' | 'changed';
  /** The first of {@link BreakerEvent.scanners}. */
  readonly scanner: ScannerName;
  /** Every scanner this happened to this cycle that shares one advisory (one cause): one line for all. */
  readonly scanners: readonly ScannerName[];
  readonly code: string;
  readonly failures: number;
  readonly since: string;
  /** One line for the operator. */
  readonly line: string;
}

/** What {@link updateBreakers} decided for one cycle. */
export interface BreakerUpdate {
  readonly breakers: Record<string, ScannerBreaker>;
  /** SCANNER_FAILING advisories, one per cause, of tripped breakers whose advisory was not delivered yet. */
  readonly findings: Finding[];
  readonly events: BreakerEvent[];
}

/** What the cycle needs besides the results to update the breakers. */
export interface BreakerContext {
  /** The number of the cycle being evaluated. */
  readonly cycle: number;
  readonly now: Date;
  readonly timeZone: string;
  readonly settings: BreakerSettings;
}
