import { err, ok, type Result } from 'neverthrow';
import { isPrefetchId, PREFETCH_IDS, type PrefetchId } from './prefetch-requests.js';

/**
 * The plan a one-shot `cycle` leaves for the next one: which of the listings in
 * {@link PREFETCH_IDS} its scanners asked for first, so the next cycle can start them while Node is
 * still loading the command (docs/performance.md). It is data, never a command: it names listings
 * by id, and the bin builds each request in code from facts it found itself. A plan that is
 * missing, written by another version or for other flags is ignored; one that is not exactly this
 * shape is refused with a reason (a warning), and nothing in it runs.
 */
export interface PrefetchPlan {
  readonly version: typeof PLAN_VERSION;
  /** The heartbeat-kit version that wrote it (another version's ids may stand for other requests). */
  readonly kit: string;
  /** {@link prefetchKey} of the invocation that wrote it. */
  readonly key: string;
  /** {@link fileSignature} of the config file the cycle read (a changed config may turn scanners off). */
  readonly config: string;
  /** After this instant the plan is not used (the end of the active hours it was written in). */
  readonly validUntilMs: number;
  /**
   * The environment policy the scanners' runner had (HEARTBEAT.md Environment → Allow): variable
   * names, which can only keep variables of the user's own environment from the tools, never add one.
   */
  readonly envAllow: readonly string[] | null;
  /** The listings to start early, each once. */
  readonly ids: readonly PrefetchId[];
}

/** Why a plan file's text is not a plan (never quotes the file: it may hold anything). */
export type PlanVerdict = Result<PrefetchPlan, string>;

const PLAN_VERSION = 2;
const FIELDS: readonly string[] = ['version', 'kit', 'key', 'config', 'validUntilMs', 'envAllow', 'ids'];
/** Core's ENV_NAME_PATTERN (a test pins them equal; core's index would pull zod into the prefetch's chunk). */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*\*?$/;
// size:mtimeMs:ino as fileSignature prints them (a number may print with an exponent).
const SIGNATURE = /^(?:absent|\d{1,24}:[\d.e+-]{1,32}:\d{1,24})$/;
const MAX_ENV_ALLOW = 256;
const MAX_TEXT = 4096;

/** The flags of `cycle` that decide which commands its scanners run: one plan per combination. */
export interface PrefetchKeyParts {
  /** The directory the cycle looks at, symlinks resolved. */
  readonly cwd: string;
  readonly config: string | undefined;
  readonly state: string | undefined;
  readonly tmuxSocket: string | undefined;
}

/** The key a plan is written and looked up under. */
export function prefetchKey(parts: PrefetchKeyParts): string {
  return JSON.stringify([parts.cwd, parts.config ?? null, parts.state ?? null, parts.tmuxSocket ?? null]);
}

/**
 * The plan's file name (FNV-1a of the key; the file holds the whole key). Not core's `stableHash`:
 * this module loads while Node loads the command, and importing core's index here would put zod in
 * its chunk (see the bin's tsup config).
 */
export function prefetchPlanName(key: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i += 1) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `cycle-prefetch-${hash.toString(16).padStart(8, '0')}.json`;
}

/** How a file looks, to tell whether it changed: size, modification time and inode, or `absent`. */
export function fileSignature(stats: { size: number; mtimeMs: number; ino: number } | undefined): string {
  return stats === undefined ? 'absent' : `${stats.size}:${stats.mtimeMs}:${stats.ino}`;
}

/** Whether two environment policies are the same (both the user's environment, or the same names). */
export function sameEnvAllow(a: readonly string[] | null | undefined, b: readonly string[] | null | undefined): boolean {
  if (a === undefined || a === null || b === undefined || b === null) return (a ?? null) === (b ?? null);
  return a.length === b.length && a.every((name, i) => name === b[i]);
}

/** Whether `names` is an allow-list a plan may hold (what the config's Environment → Allow accepts). */
export function isEnvAllowList(names: readonly unknown[]): names is readonly string[] {
  return names.length <= MAX_ENV_ALLOW && names.every((name) => typeof name === 'string' && name.length <= 128 && ENV_NAME.test(name));
}

/**
 * Serialises a plan (stable: the same plan is the same text, so an unchanged plan is not
 * rewritten). Each id once, in the order given.
 */
export function formatPrefetchPlan(plan: Omit<PrefetchPlan, 'version'>): string {
  const ids = [...new Set(plan.ids)];
  return `${JSON.stringify({ version: PLAN_VERSION, kit: plan.kit, key: plan.key, config: plan.config, validUntilMs: plan.validUntilMs, envAllow: plan.envAllow, ids })}\n`;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isText = (value: unknown, max: number): value is string => typeof value === 'string' && value.length <= max;

/**
 * Reads a plan file's text. Anything that is not exactly a plan of this version (an unknown id, a
 * field more or less, a value of the wrong shape) is refused with a reason that names the field,
 * never its content: the file is read before anything else is checked, and may hold anything.
 */
export function parsePrefetchPlan(text: string): PlanVerdict {
  const no = (reason: string): PlanVerdict => err(reason);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return no('it is not JSON (cut short?)');
  }
  if (!isRecord(value)) return no('it is not a JSON object');
  if (value.version !== PLAN_VERSION)
    return no(
      `its format version is ${typeof value.version === 'number' && Number.isSafeInteger(value.version) ? value.version : 'not a number'}, not ${PLAN_VERSION}`,
    );
  const extra = Object.keys(value).filter((name) => !FIELDS.includes(name));
  if (extra.length > 0)
    return no(`it has ${extra.length === 1 ? 'a field' : `${extra.length} fields`} a plan never has${namedFields(extra)}`);
  const missing = FIELDS.filter((name) => !(name in value));
  if (missing.length > 0) return no(`it lacks ${missing.join(', ')}`);
  if (!isText(value.kit, 100)) return no('kit is not a version');
  if (!isText(value.key, MAX_TEXT)) return no('key is not a key');
  if (!isText(value.config, 100) || !SIGNATURE.test(value.config)) return no('config is not a file signature');
  if (typeof value.validUntilMs !== 'number' || !Number.isFinite(value.validUntilMs)) return no('validUntilMs is not a time');
  const envAllow = value.envAllow;
  if (envAllow !== null && !(Array.isArray(envAllow) && isEnvAllowList(envAllow as unknown[])))
    return no('envAllow is neither null nor a list of variable names');
  if (!Array.isArray(value.ids)) return no('ids is not a list');
  const ids: PrefetchId[] = [];
  for (const [i, id] of (value.ids as unknown[]).entries()) {
    if (!isPrefetchId(id)) return no(`ids[${i}] is not one of the listings heartbeat-kit starts early (${PREFETCH_IDS.join(', ')})`);
    if (ids.includes(id)) return no(`ids[${i}] repeats ${id}`);
    ids.push(id);
  }
  return ok({
    version: PLAN_VERSION,
    kit: value.kit,
    key: value.key,
    config: value.config,
    validUntilMs: value.validUntilMs,
    envAllow: envAllow === null ? null : [...(envAllow as string[])],
    ids,
  });
}

/** ` (name, …)` when every name is a plain word, else nothing: a field name is file content too. */
function namedFields(names: readonly string[]): string {
  return names.length <= 5 && names.every((name) => /^[A-Za-z][A-Za-z0-9_]{0,31}$/.test(name)) ? ` (${names.join(', ')})` : '';
}
