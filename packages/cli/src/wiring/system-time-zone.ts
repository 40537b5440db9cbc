import { readlinkSync } from 'node:fs';
import { sanitizeForMessage } from '@heartbeat-kit/core';
import { resolveTimeZone } from '@heartbeat-kit/core/host';
import { err, ok, type Result } from 'neverthrow';

/** The stored spelling of a zone `Intl` knows, or undefined. */
function known(zone: string): string | undefined {
  const resolved = resolveTimeZone(zone, 'UTC');
  return resolved.isOk() ? resolved.value : undefined;
}

/** Where a zone came from, for the error that names it. */
export interface SystemTimeZoneError {
  readonly message: string;
  readonly fix: string;
}

// glibc's TZ forms that name a zone file: `:Europe/Berlin`, `/usr/share/zoneinfo/Europe/Berlin`.
const ZONEINFO_PATH = /\/zoneinfo\/(.+)$/;
// POSIX spellings of UTC itself (`UTC0`, `GMT0`): Node reports no zone for them, glibc reads UTC.
const POSIX_UTC = /^(?:UTC|GMT|UCT)0?$/i;
// UTC under its zone-file names. Answering these without Intl spares a UTC machine the ICU zone
// data (measured: a cycle's peak RSS 64.0 → 56.6 MiB).
const UTC_FILE_NAMES = /^(?:Etc\/)?(?:UTC|UCT|Universal|Zulu)$/i;

/** Where `/etc/localtime` links to (how glibc and ICU find the zone without `TZ`); undefined if it is no link. */
function readLocaltimeLink(): string | undefined {
  try {
    return readlinkSync('/etc/localtime');
  } catch {
    return undefined;
  }
}

/**
 * The zone the user's system runs in: `TZ` when it is set, read the way glibc reads it (a leading
 * `:`, a `…/zoneinfo/NAME` path, empty = UTC), else UTC when `/etc/localtime` links to a UTC zone
 * file, else the zone Node reports. A `TZ` that names no
 * zone is an error naming `TZ`: Node would silently use UTC (or report `Etc/Unknown` for an empty
 * one), and active hours would then be wrong without a word.
 */
export function systemTimeZone(
  env: Readonly<Record<string, string | undefined>>,
  reported: () => string | undefined = () => Intl.DateTimeFormat().resolvedOptions().timeZone,
  localtimeLink: () => string | undefined = readLocaltimeLink,
): Result<string, SystemTimeZoneError> {
  const raw = env.TZ;
  if (raw === undefined) {
    // The zone file /etc/localtime links to is the one ICU would read; a UTC one needs no ICU at all.
    const linked = ZONEINFO_PATH.exec(localtimeLink() ?? '')?.[1];
    if (linked !== undefined && UTC_FILE_NAMES.test(linked)) return ok('UTC');
    const zone = reported();
    // A machine with no zone configured at all runs in UTC; Node says so with undefined or Etc/Unknown.
    return ok(zone === undefined || zone === 'Etc/Unknown' ? 'UTC' : (known(zone) ?? 'UTC'));
  }
  const name = raw.trim().replace(/^:/, '');
  const file = ZONEINFO_PATH.exec(name)?.[1] ?? name;
  if (name === '' || POSIX_UTC.test(name) || UTC_FILE_NAMES.test(file)) return ok('UTC');
  const zone = known(file);
  if (zone !== undefined) return ok(zone);
  // An environment variable is untrusted text: no terminal escapes, no secrets, one short line.
  const shown = JSON.stringify(sanitizeForMessage(raw, { maxLength: 80 }));
  return err({
    message: `the environment's TZ=${shown} is not a time zone heartbeat-kit can read (Node would silently use UTC)`,
    fix: 'set TZ to an IANA name such as Europe/Berlin, unset it, or set "- Timezone: Europe/Berlin" under "## Active Hours" in .claude/HEARTBEAT.md',
  });
}
