/**
 * Starts a private redis-server (the Debian package) on a unix socket in a temp directory, with
 * append-only persistence fsynced on every write, and stops it again. Tests never touch a
 * shared Redis or the network.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import type { RedisTarget } from '../../src/index.js';

/** A running private Redis. */
export interface TestRedis {
  readonly dir: string;
  readonly socket: string;
  /** `unix://…` URL of the socket. */
  readonly url: string;
  /** A new client on the socket (closed by `stop`). */
  readonly client: () => Redis;
  /** SIGKILLs the server (no shutdown save) — the append-only file is all that survives. */
  readonly kill: () => Promise<void>;
  /** Starts the server again on the same directory and socket. */
  readonly restart: () => Promise<void>;
  /** Stops the server and removes its directory. */
  readonly stop: () => Promise<void>;
}

/** Where redis-server is: PATH first, then the Debian/Homebrew locations a PATH may lack. */
function findRedisServer(): string {
  const dirs = [...(process.env.PATH ?? '').split(':').filter(Boolean), '/usr/bin', '/usr/sbin', '/usr/local/bin', '/opt/homebrew/bin'];
  const found = dirs.map((dir) => join(dir, 'redis-server')).find((file) => existsSync(file));
  if (found === undefined)
    throw new Error(
      `redis-server not found on PATH or in /usr/bin, /usr/sbin, /usr/local/bin. Fix: apt-get install redis-server (.ci/run does).`,
    );
  return found;
}

/** Waits until the server answers PING — however long a loaded machine takes — or fails if it exits. */
async function waitForSocket(
  socket: string,
  process: ChildProcess,
  failed: () => Error | undefined,
  password: string | undefined,
): Promise<void> {
  for (;;) {
    const failure = failed();
    if (failure !== undefined) throw failure;
    if (process.exitCode !== null) throw new Error(`redis-server exited with ${process.exitCode}`);
    if (existsSync(socket)) {
      const probe = new Redis({
        path: socket,
        lazyConnect: true,
        maxRetriesPerRequest: 0,
        retryStrategy: () => null,
        ...(password === undefined ? {} : { password }),
      });
      probe.on('error', () => undefined);
      try {
        await probe.connect();
        if ((await probe.ping()) === 'PONG') return;
      } catch {
        // not ready yet (still loading the append-only file)
      } finally {
        probe.disconnect();
      }
    }
    await delay(25);
  }
}

/** Options of {@link startRedis}. */
export interface StartRedisOptions {
  /** `requirepass`: clients must authenticate (the URL then carries `?password=`). */
  readonly password?: string;
  /** An existing directory to use (its `redis.sock` can be known before the server starts). */
  readonly dir?: string;
}

/** Starts redis-server on a unix socket in a fresh temp directory (or `options.dir`). */
export async function startRedis(options: StartRedisOptions = {}): Promise<TestRedis> {
  const { password } = options;
  const executable = findRedisServer();
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'hb-redis-'));
  const socket = join(dir, 'redis.sock');
  const clients: Redis[] = [];
  let server: ChildProcess | undefined;

  const launch = async (): Promise<void> => {
    const child = spawn(
      executable,
      [
        '--port',
        '0',
        '--unixsocket',
        socket,
        '--unixsocketperm',
        '700',
        '--dir',
        dir,
        '--appendonly',
        'yes',
        '--appendfsync',
        'always',
        '--save',
        '',
        '--daemonize',
        'no',
        '--loglevel',
        'warning',
        ...(password === undefined ? [] : ['--requirepass', password]),
      ],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
    server = child;
    let spawnError: Error | undefined;
    child.once(
      'error',
      (error) => (spawnError = new Error(`redis-server (${executable}) could not start: ${error.message}`, { cause: error })),
    );
    await waitForSocket(socket, child, () => spawnError, password);
  };

  const waitExit = async (child: ChildProcess): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => child.once('exit', () => resolve()));
  };

  await launch();
  return {
    dir,
    socket,
    url: password === undefined ? `unix://${socket}` : `unix://${socket}?password=${encodeURIComponent(password)}`,
    client: () => {
      const client = new Redis({ path: socket, maxRetriesPerRequest: null, ...(password === undefined ? {} : { password }) });
      // While the server is killed and restarted the client reconnects by design; without a
      // listener ioredis prints each refused attempt as an "Unhandled error event" stack trace.
      client.on('error', () => undefined);
      clients.push(client);
      return client;
    },
    kill: async () => {
      if (server === undefined) return;
      const child = server;
      child.kill('SIGKILL');
      await waitExit(child);
      rmSync(socket, { force: true });
    },
    restart: launch,
    stop: async () => {
      for (const client of clients) client.disconnect();
      if (server !== undefined) {
        const child = server;
        child.kill('SIGKILL');
        await waitExit(child);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The private Redis of one test file (see {@link useRedis}); read it in tests and hooks, not at import time. */
export interface FileRedis {
  /** The server (its socket, url, kill and restart). */
  readonly server: TestRedis;
  /** One client on its socket, shared by the file's tests (closed when the server stops). */
  readonly client: Redis;
  /** Its socket as a fleet {@link RedisTarget}. */
  readonly target: RedisTarget;
}

/**
 * Call at the top of a test file: starts a private redis-server before its tests and stops it
 * (removing its directory) after the last. Before this, each file kept its own `redis`/`client`/
 * `target` variables and hooks.
 */
export function useRedis(options: StartRedisOptions = {}): FileRedis {
  let started: { readonly server: TestRedis; readonly client: Redis } | undefined;
  beforeAll(async () => {
    const server = await startRedis(options);
    started = { server, client: server.client() };
  });
  afterAll(async () => {
    await started?.server.stop();
  });
  const ready = () => {
    if (started === undefined) throw new Error('the Redis of a test file starts in beforeAll: call useRedis() at the top of the file');
    return started;
  };
  return {
    get server() {
      return ready().server;
    },
    get client() {
      return ready().client;
    },
    get target(): RedisTarget {
      return { kind: 'unix', path: ready().server.socket };
    },
  };
}
