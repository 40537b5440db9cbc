import { err, ok, type Result } from 'neverthrow';

/** A time-zone name that `Intl` does not know. */
export interface InvalidTimeZoneError {
  /** Discriminant. */
  readonly kind: 'invalid-time-zone';
  /** The name as given. */
  readonly zone: string;
  /** One sentence for a human. */
  readonly message: string;
}

/**
 * The spelling of an IANA zone to store, or undefined when `Intl` rejects it. `Intl` is the
 * arbiter because it is what the decision uses later: a name it accepts here cannot fail at
 * cycle time. Only the letter case is corrected (`america/new_york` → `America/New_York`); an
 * alias is kept as written, because ICU may map a current name to an older one
 * (`Asia/Kolkata` → `Asia/Calcutta`) that would surprise the user.
 */
export function normalizeTimeZone(zone: string): string | undefined {
  const trimmed = zone.trim();
  if (trimmed === '') return undefined;
  // Intl answers `UTC` for any spelling of it; asking costs ~8 MiB of ICU data per process.
  if (trimmed.toLowerCase() === 'utc') return 'UTC';
  try {
    const resolved = new Intl.DateTimeFormat('en-US', { timeZone: trimmed }).resolvedOptions().timeZone;
    return resolved.toLowerCase() === trimmed.toLowerCase() ? resolved : trimmed;
  } catch {
    return undefined;
  }
}

/** True when `Intl.DateTimeFormat` accepts `zone` as a time zone. */
export function isValidTimeZone(zone: string): boolean {
  return normalizeTimeZone(zone) !== undefined;
}

/**
 * The zone active hours are evaluated in: the configured one when set, else the system's
 * (which the caller reads, e.g. `Intl.DateTimeFormat().resolvedOptions().timeZone`, so this
 * stays pure; a function is only called when no zone is configured, which spares a configured
 * `UTC` the ICU data). Either one that `Intl` rejects is an error rather than a silent UTC.
 */
export function resolveTimeZone(configured: string | undefined, systemZone: string | (() => string)): Result<string, InvalidTimeZoneError> {
  const chosen =
    configured !== undefined && configured.trim() !== '' ? configured : typeof systemZone === 'function' ? systemZone() : systemZone;
  const normalized = normalizeTimeZone(chosen);
  if (normalized === undefined) {
    return err({
      kind: 'invalid-time-zone',
      zone: chosen,
      message: `"${chosen}" is not an IANA time zone (such as Europe/Berlin or America/New_York).`,
    });
  }
  return ok(normalized);
}
