import { type LockRecord, sanitizeForMessage } from '@heartbeat-kit/core';
import { decideAcquire, type HolderLiveness, type InspectedLock } from '@heartbeat-kit/core/host';

// What a beat and `woterclip status` say about `.woterclip/.heartbeat-lock`'s holder. The spec's
// own lines ("Previous heartbeat still active. Skipping.", "Cleaned stale lockfile.") stay
// verbatim; these are the line after them, saying why (every skip says why).

const HOUR_MS = 3_600_000;
const LOCK = '.woterclip/.heartbeat-lock';

/** The lock as `woterclip status` shows it (`--json`: the `lock` key). */
export type LockView =
  | { readonly held: false }
  | {
      readonly held: true;
      readonly beatId: string;
      /** When the holder took it (`started_epoch`), ISO. */
      readonly since: string;
      readonly pid?: number;
      readonly host?: string;
      /** What this host knows of the holder's process: `unknown` on another host or for a lock without pid. */
      readonly holder: HolderLiveness;
      /** The next beat takes it over: its holder is dead on this host, or it is older than `stale_lock_hours`. */
      readonly takeOver: boolean;
      /** When its age makes it stale (only when `holder` is `unknown`: the age decides). */
      readonly staleAt?: string;
      /** The config's `stale_lock_hours`. */
      readonly staleLockHours: number;
    };

const iso = (ms: number): string => (Number.isFinite(ms) ? new Date(ms).toISOString().replace(/\.000Z$/, 'Z') : 'an unknown time');
const clean = (text: string): string => sanitizeForMessage(text, { maxLength: 80 });
const hours = (staleHours: number): string => `stale_lock_hours (${staleHours} h)`;

/** "beat X (pid N on host H)": who a record names, its fields sanitised (the file is untrusted). */
function holderName(record: LockRecord): string {
  const where = record.host === undefined ? '' : ` on host ${clean(record.host)}`;
  return `beat ${clean(record.owner)}${record.pid === undefined ? '' : ` (pid ${record.pid}${where})`}`;
}

/** The lock as status shows it: who holds it and whether the next beat would take it over. */
export function lockView(inspected: InspectedLock | undefined, nowMs: number, staleHours: number): LockView {
  if (inspected === undefined) return { held: false };
  const { holder, liveness } = inspected;
  const staleAfterMs = staleHours * HOUR_MS;
  const takeOver = decideAcquire(holder, { owner: '', nowMs, staleAfterMs }, liveness) === 'take-over';
  return {
    held: true,
    beatId: holder.owner,
    since: iso(holder.acquiredAtMs),
    ...(holder.pid === undefined ? {} : { pid: holder.pid }),
    ...(holder.host === undefined ? {} : { host: holder.host }),
    holder: liveness,
    takeOver,
    ...(liveness === 'unknown' ? { staleAt: iso(holder.acquiredAtMs + staleAfterMs) } : {}),
    staleLockHours: staleHours,
  };
}

/** One line for `woterclip status`. */
export function renderLockView(view: LockView): string {
  if (!view.held) return 'Lock: free.';
  const who = holderName({
    owner: view.beatId,
    acquiredAtMs: 0,
    ...(view.pid === undefined ? {} : { pid: view.pid }),
    ...(view.host === undefined ? {} : { host: view.host }),
  });
  const head = `Lock: ${who} since ${view.since}`;
  if (view.holder === 'alive') return `${head}; running on this host.`;
  if (view.holder === 'dead') return `${head}; no longer running on this host: the next beat takes it over at once.`;
  return view.takeOver
    ? `${head}; older than ${hours(view.staleLockHours)}: the next beat takes it over.`
    : `${head}; ${unknownWhy(view.pid, view.host)}, so its age decides: stale at ${view.staleAt ?? 'an unknown time'} (${hours(view.staleLockHours)}).`;
}

function unknownWhy(pid: number | undefined, host: string | undefined): string {
  if (pid !== undefined && host !== undefined) return 'its process is on another host';
  return 'the lock names no host and pid (written by an older version or by hand)';
}

/** The line after "Previous heartbeat still active. Skipping.": who holds the lock and until when. */
export function heldReason(holder: LockRecord, liveness: HolderLiveness, staleHours: number): string {
  const head = `${LOCK} is held by ${holderName(holder)} since ${iso(holder.acquiredAtMs)}`;
  if (liveness === 'alive') return `${head}, still running on this host.`;
  return `${head}; ${unknownWhy(holder.pid, holder.host)}, so it counts as stale at ${iso(holder.acquiredAtMs + staleHours * HOUR_MS)} (${hours(staleHours)}).`;
}

/**
 * The line after "Cleaned stale lockfile.": why the lock was stale. A lock taken over before its
 * age made it stale was taken because its holder no longer runs on this host.
 */
export function takeOverReason(replaced: LockRecord, nowMs: number, staleHours: number): string {
  const old = decideAcquire(replaced, { owner: '', nowMs, staleAfterMs: staleHours * HOUR_MS }) === 'take-over';
  return old
    ? `It was left by ${holderName(replaced)} at ${iso(replaced.acquiredAtMs)}, older than ${hours(staleHours)}.`
    : `It was left by ${holderName(replaced)} at ${iso(replaced.acquiredAtMs)}, which no longer runs on this host: taken over at once.`;
}
