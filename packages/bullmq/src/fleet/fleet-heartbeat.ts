import { err, ok, type Result } from 'neverthrow';
import { z } from 'zod';

// `__` separates heartbeat and slot in job ids, and `:` is BullMQ's key separator, so neither
// may appear in an id; the rest keeps ids readable in redis-cli and safe in file names.
const HEARTBEAT_ID = /^(?!.*__)[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** Shortest interval a fleet heartbeat may have: below it scheduling overhead dominates. */
export const MIN_FLEET_INTERVAL_MS = 250;

/** Longest interval a fleet heartbeat may have (7 days). */
export const MAX_FLEET_INTERVAL_MS = 7 * 24 * 3_600_000;

/** Longest scan the fake scanner set may be asked to take (10 minutes). */
export const MAX_FAKE_SCAN_MS = 600_000;

/** Where a fleet heartbeat's findings come from. */
export const fleetSourceSchema = z.discriminatedUnion('kind', [
  z
    .object({
      /** The real scanners over a project directory (as `heartbeat-kit cycle --cwd DIR`). */
      kind: z.literal('project'),
      cwd: z.string().min(1),
    })
    .strict(),
  z
    .object({
      /** A named scanner set the worker knows, e.g. `fake` (in-memory, for tests and benchmarks). */
      kind: z.literal('scanners'),
      set: z.string().min(1).max(100),
      /** How long each fake scan takes. */
      scanMs: z.number().int().nonnegative().max(MAX_FAKE_SCAN_MS).default(0),
      /** A fake finding changes every this many slots (0 = never finds anything). */
      reportEvery: z.number().int().nonnegative().default(5),
    })
    .strict(),
]);

/** A heartbeat registered with the fleet: an id, what to scan and how often. */
export const fleetHeartbeatSchema = z
  .object({
    id: z.string().regex(HEARTBEAT_ID, 'letters, digits, ".", "_" or "-" (no "__"), at most 100, starting with a letter or digit'),
    intervalMs: z.number().int().min(MIN_FLEET_INTERVAL_MS).max(MAX_FLEET_INTERVAL_MS),
    source: fleetSourceSchema,
  })
  .strict();

/** A validated fleet heartbeat registration. */
export type FleetHeartbeat = z.infer<typeof fleetHeartbeatSchema>;

/** What a registration may leave out (the fake source's defaults). */
export type FleetHeartbeatInput = z.input<typeof fleetHeartbeatSchema>;

/** True when `id` can name a fleet heartbeat. */
export function isFleetHeartbeatId(id: string): boolean {
  return HEARTBEAT_ID.test(id);
}

/** Validates a registration (from the CLI or from Redis); the error names the bad field. */
export function parseFleetHeartbeat(value: unknown): Result<FleetHeartbeat, string> {
  const parsed = fleetHeartbeatSchema.safeParse(value);
  if (parsed.success) return ok(parsed.data);
  const issue = parsed.error.issues[0];
  return err(issue === undefined ? 'invalid heartbeat' : `${issue.path.join('.') || '(root)'}: ${issue.message}`);
}

/**
 * Reads a registry entry as stored in Redis: text that may have been edited by hand, so text that
 * is not JSON is an error like any bad field, never a throw (one bad entry must not stop the others).
 */
export function parseRegistryEntry(text: string): Result<FleetHeartbeat, string> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return err(`not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  return parseFleetHeartbeat(value);
}
