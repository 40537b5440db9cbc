import type { CommandRequest, ToolProfile } from '@heartbeat-kit/core';

/**
 * The plan a one-shot `cycle` leaves for the next one: the read-only listing commands its
 * scanners asked for first (`CommandRequest.speculative`), so the next cycle can start them while
 * Node is still loading the command, on a core that is otherwise idle (docs/performance.md).
 * It is a cache: a plan that is missing, damaged, written by another version or for other flags
 * is ignored, and a prefetched run is only ever handed to a request equal to it in every field.
 */
export interface PrefetchPlan {
  readonly version: typeof PLAN_VERSION;
  /** The heartbeat-kit version that wrote it. */
  readonly kit: string;
  /** {@link prefetchKey} of the invocation that wrote it. */
  readonly key: string;
  /** The config file the cycle read, and how it looked then (a changed config may turn scanners off). */
  readonly config: { readonly path: string; readonly signature: string };
  /** After this instant the plan is not used (the end of the active hours it was written in). */
  readonly validUntilMs: number;
  /** The environment policy the scanners' runner had (HEARTBEAT.md Environment → Allow). */
  readonly envAllow: readonly string[] | null;
  readonly requests: readonly PlannedRequest[];
}

/** A speculative request as the plan keeps it (no input, no spool: those are never speculative). */
export type PlannedRequest = Required<Pick<CommandRequest, 'file' | 'args'>> &
  Pick<CommandRequest, 'cwd' | 'env' | 'profile' | 'timeoutMs' | 'maxOutputBytes'>;

const PLAN_VERSION = 1;
/** More than the built-in scanners ask for first (bd ready, bd list, tmux, git: 4, plus bd's fallbacks). */
export const MAX_PLANNED_REQUESTS = 16;
const PROFILES: ReadonlySet<string> = new Set<ToolProfile>(['bd', 'git', 'tmux', 'gh', 'gchat', 'agent', 'gate', 'command']);

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
 * The plan's file name in the heartbeat's directory of the git common dir (FNV-1a of the key; the
 * file holds the whole key). Not core's `stableHash`: this module loads while Node loads the command,
 * and importing core's index here would put zod in its chunk (see the bin's tsup config).
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

/** The request a plan entry stands for, as the scanners build it. */
export function plannedRequest(request: CommandRequest): PlannedRequest | undefined {
  if (request.input !== undefined || request.stdoutTo !== undefined) return undefined;
  return {
    file: request.file,
    args: [...request.args],
    ...(request.cwd === undefined ? {} : { cwd: request.cwd }),
    ...(request.env === undefined ? {} : { env: { ...request.env } }),
    ...(request.profile === undefined ? {} : { profile: request.profile }),
    ...(request.timeoutMs === undefined ? {} : { timeoutMs: request.timeoutMs }),
    ...(request.maxOutputBytes === undefined ? {} : { maxOutputBytes: request.maxOutputBytes }),
  };
}

/** Whether `request` asks for exactly the run `planned` started (every field equal, nothing more). */
export function sameRequest(planned: PlannedRequest, request: CommandRequest): boolean {
  const asked = plannedRequest(request);
  return asked !== undefined && canonical(asked) === canonical(planned);
}

function canonical(request: PlannedRequest): string {
  const env = request.env === undefined ? null : Object.entries(request.env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([
    request.file,
    request.args,
    request.cwd ?? null,
    env,
    request.profile ?? null,
    request.timeoutMs ?? null,
    request.maxOutputBytes ?? null,
  ]);
}

/** Whether two environment policies are the same (both the user's environment, or the same names). */
export function sameEnvAllow(a: readonly string[] | null | undefined, b: readonly string[] | null | undefined): boolean {
  if (a === undefined || a === null || b === undefined || b === null) return (a ?? null) === (b ?? null);
  return a.length === b.length && a.every((name, i) => name === b[i]);
}

/** Serialises a plan (stable: the same plan is the same text, so an unchanged plan is not rewritten). */
export function formatPrefetchPlan(plan: Omit<PrefetchPlan, 'version'>): string {
  const deduped = [...new Map(plan.requests.map((r) => [canonical(r), r])).values()].slice(0, MAX_PLANNED_REQUESTS);
  return `${JSON.stringify({ version: PLAN_VERSION, ...plan, requests: deduped })}\n`;
}

const isString = (value: unknown): value is string => typeof value === 'string';
const isStringArray = (value: unknown): value is string[] => Array.isArray(value) && value.every(isString);
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value > 0;

function readRequest(value: unknown): PlannedRequest | undefined {
  if (!isRecord(value) || !isString(value.file) || value.file === '' || !isStringArray(value.args)) return undefined;
  if (value.cwd !== undefined && !isString(value.cwd)) return undefined;
  if (value.env !== undefined && !(isRecord(value.env) && Object.values(value.env).every(isString))) return undefined;
  if (value.profile !== undefined && !(isString(value.profile) && PROFILES.has(value.profile))) return undefined;
  if (value.timeoutMs !== undefined && !isCount(value.timeoutMs)) return undefined;
  if (value.maxOutputBytes !== undefined && !isCount(value.maxOutputBytes)) return undefined;
  const known = new Set(['file', 'args', 'cwd', 'env', 'profile', 'timeoutMs', 'maxOutputBytes']);
  if (Object.keys(value).some((k) => !known.has(k))) return undefined;
  return value as PlannedRequest;
}

/**
 * Reads a plan file's text; anything that is not a whole, well-formed plan of this version is
 * `undefined` (the file is the heartbeat's own, but it is read before anything else is checked,
 * so it is treated as untrusted: a request in it is only run when every field is a plain value).
 */
export function parsePrefetchPlan(text: string): PrefetchPlan | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(value) || value.version !== PLAN_VERSION || !isString(value.kit) || !isString(value.key)) return undefined;
  const config = value.config;
  if (!isRecord(config) || !isString(config.path) || !isString(config.signature)) return undefined;
  if (typeof value.validUntilMs !== 'number' || !Number.isFinite(value.validUntilMs)) return undefined;
  if (value.envAllow !== null && !isStringArray(value.envAllow)) return undefined;
  if (!Array.isArray(value.requests) || value.requests.length > MAX_PLANNED_REQUESTS) return undefined;
  const requests = value.requests.map(readRequest);
  if (requests.some((r) => r === undefined)) return undefined;
  return {
    version: PLAN_VERSION,
    kit: value.kit,
    key: value.key,
    config: { path: config.path, signature: config.signature },
    validUntilMs: value.validUntilMs,
    envAllow: value.envAllow,
    requests: requests as PlannedRequest[],
  };
}
