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
  | { readonly kind: 'unix'; readonly path: string; readonly db?: number; readonly password?: string; readonly username?: string };

/**
 * A Redis URL as it may be printed: the password of `scheme://user:password@host` becomes `***`.
 * URLs come from `--redis` or `HEARTBEAT_KIT_REDIS` and often carry a password; error messages
 * and logs echo them through here.
 */
export function redactRedisUrl(text: string): string {
  return text.replace(/^([A-Za-z][A-Za-z0-9+.-]*:\/\/[^/@:]*):[^/]*@/, '$1:***@').replace(/([?&]password=)[^&#]*/gi, '$1***');
}

/**
 * Parses `redis://[user:pass@]host[:port][/db]`, `unix:///path/redis.sock` or
 * `redis+unix:///path/redis.sock[?db=N][&password=P][&username=U]` (a socket URL has no host
 * to carry credentials, so they go in the query, as redis-py reads them). The error says which
 * forms are accepted.
 */
export function parseRedisUrl(text: string): Result<RedisTarget, string> {
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
