import { err, ok, type Result } from 'neverthrow';

/** Where Redis listens: a TCP host and port, or a unix socket path. */
export type RedisTarget =
  | {
      readonly kind: 'tcp';
      readonly host: string;
      readonly port: number;
      readonly db?: number;
      readonly password?: string;
      readonly username?: string;
    }
  | { readonly kind: 'unix'; readonly path: string; readonly db?: number; readonly password?: string; readonly username?: string }
  | {
      readonly kind: 'cluster';
      /** Seed nodes: the client asks them for the slot map and then talks to every master. */
      readonly nodes: readonly { readonly host: string; readonly port: number }[];
      readonly password?: string;
      readonly username?: string;
    };

/** Options of {@link parseRedisUrl}. */
export interface ParseRedisUrlOptions {
  /** Treat the URL (or each of several, comma-separated) as a seed node of a Redis Cluster. */
  readonly cluster?: boolean;
}

/**
 * A Redis URL as it may be printed: the password of `scheme://user:password@host` becomes `***`.
 * URLs come from `--redis` or `HEARTBEAT_KIT_REDIS` and often carry a password; error messages
 * and logs echo them through here. Each URL of a comma-separated cluster list is masked.
 */
export function redactRedisUrl(text: string): string {
  return text.split(',').map(redactOne).join(',');
}

function redactOne(text: string): string {
  return text.replace(/^([A-Za-z][A-Za-z0-9+.-]*:\/\/[^/@:]*):[^/]*@/, '$1:***@').replace(/([?&]password=)[^&#]*/gi, '$1***');
}

/**
 * Parses a comma-separated list of `redis://` URLs (or one with `options.cluster`) as the seed
 * nodes of a Redis Cluster, else one of `redis://[user:pass@]host[:port][/db]`, `unix:///path/redis.sock` or
 * `redis+unix:///path/redis.sock[?db=N][&password=P][&username=U]` (a socket URL has no host
 * to carry credentials, so they go in the query, as redis-py reads them). The error says which
 * forms are accepted.
 */
export function parseRedisUrl(text: string, options: ParseRedisUrlOptions = {}): Result<RedisTarget, string> {
  const parts = text.split(',').map((part) => part.trim());
  if (options.cluster !== true && parts.length === 1) return parseOne(text);
  return parseCluster(parts);
}

/**
 * Several `redis://host:port` URLs (comma-separated, or one with `--redis-cluster`) name the seed
 * nodes of a Redis Cluster. A cluster has one database and speaks TCP, so a `/db` or a socket is an
 * error; credentials may be given on any node and must agree.
 */
function parseCluster(parts: readonly string[]): Result<RedisTarget, string> {
  const fix = 'name the cluster nodes as redis://HOST:PORT,redis://HOST:PORT (a cluster has no database number and no unix socket)';
  const nodes: { host: string; port: number }[] = [];
  let password: string | undefined;
  let username: string | undefined;
  for (const part of parts) {
    if (part === '') return err(`an empty node in the list of cluster nodes; ${fix}`);
    const parsed = parseOne(part);
    if (parsed.isErr()) return parsed;
    const node = parsed.value;
    if (node.kind !== 'tcp') return err(`"${redactRedisUrl(part)}" is not a TCP node; ${fix}`);
    if (node.db !== undefined && node.db !== 0) return err(`"${redactRedisUrl(part)}" names database ${node.db}; ${fix}`);
    if (node.password !== undefined && password !== undefined && node.password !== password)
      return err(`the cluster nodes carry different passwords; ${fix}`);
    if (node.username !== undefined && username !== undefined && node.username !== username)
      return err(`the cluster nodes carry different user names; ${fix}`);
    password = node.password ?? password;
    username = node.username ?? username;
    nodes.push({ host: node.host, port: node.port });
  }
  return ok({
    kind: 'cluster',
    nodes,
    ...(password === undefined ? {} : { password }),
    ...(username === undefined ? {} : { username }),
  });
}

function parseOne(text: string): Result<RedisTarget, string> {
  const fix = 'use redis://127.0.0.1:6379, unix:///path/redis.sock or redis+unix:///path/redis.sock';
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return err(`"${redactRedisUrl(text)}" is not a Redis URL; ${fix}`);
  }
  const db = url.searchParams.get('db') ?? undefined;
  const dbNumber = db === undefined ? undefined : Number(db);
  if (dbNumber !== undefined && (!Number.isInteger(dbNumber) || dbNumber < 0)) return err(`db "${db}" is not a database number; ${fix}`);
  if (url.protocol === 'unix:' || url.protocol === 'redis+unix:') {
    const path = decodeURIComponent(url.pathname);
    if (url.host !== '' || !path.startsWith('/'))
      return err(`"${redactRedisUrl(text)}" needs an absolute socket path after three slashes; ${fix}`);
    const password = url.searchParams.get('password') ?? undefined;
    const username = url.searchParams.get('username') ?? undefined;
    return ok({
      kind: 'unix',
      path,
      ...(dbNumber === undefined ? {} : { db: dbNumber }),
      ...(password === undefined || password === '' ? {} : { password }),
      ...(username === undefined || username === '' ? {} : { username }),
    });
  }
  if (url.protocol !== 'redis:') return err(`unsupported scheme "${url.protocol}"; ${fix}`);
  const port = url.port === '' ? 6379 : Number(url.port);
  const pathDb = url.pathname.replace(/^\//, '');
  const fromPath = pathDb === '' ? dbNumber : Number(pathDb);
  if (fromPath !== undefined && (!Number.isInteger(fromPath) || fromPath < 0)) return err(`"/${pathDb}" is not a database number; ${fix}`);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (host === '') return err(`"${redactRedisUrl(text)}" has no host; ${fix}`);
  return ok({
    kind: 'tcp',
    host,
    port,
    ...(fromPath === undefined ? {} : { db: fromPath }),
    ...(url.password === '' ? {} : { password: decodeURIComponent(url.password) }),
    ...(url.username === '' ? {} : { username: decodeURIComponent(url.username) }),
  });
}
