import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type TestRedis } from '../../test/support/redis-server.js';
import { parseRedisUrl } from '../fleet/redis-url.js';
import { pingRedis, waitForRedis } from './redis-connection.js';

let redis: TestRedis;
let root: string;
beforeAll(async () => {
  redis = await startRedis({ password: 'right-pass' });
  root = mkdtempSync(join(tmpdir(), 'hb-redis-conn-'));
});
afterAll(async () => {
  await redis.stop();
  rmSync(root, { recursive: true, force: true });
});

const target = (url: string) => parseRedisUrl(url)._unsafeUnwrap();

describe('pingRedis against a real redis-server with requirepass', () => {
  it('tells a wrong or missing password (auth) apart from a server that is not there (unreachable)', async () => {
    expect((await pingRedis(target(redis.url))).isOk()).toBe(true);
    const wrong = (await pingRedis(target(`unix://${redis.socket}?password=not-it`)))._unsafeUnwrapErr();
    expect(wrong.kind).toBe('auth');
    expect(wrong.message).toMatch(/^WRONGPASS/);
    const missing = (await pingRedis(target(`unix://${redis.socket}`)))._unsafeUnwrapErr();
    expect(missing.kind).toBe('auth');
    expect(missing.message).toMatch(/^NOAUTH/);
    expect((await pingRedis(target(`unix://${join(root, 'none.sock')}`)))._unsafeUnwrapErr().kind).toBe('unreachable');
  });
});

describe('waitForRedis', () => {
  it('backs off (doubling, capped) for a bounded total, telling each retry, then returns the failure', async () => {
    const retries: [number, number][] = [];
    const result = await waitForRedis(target(`unix://${join(root, 'none.sock')}`), {
      signal: new AbortController().signal,
      initialDelayMs: 5,
      maxDelayMs: 20,
      maxWaitMs: 50,
      onRetry: (_failure, attempt, delayMs) => retries.push([attempt, delayMs]),
    });
    expect(result._unsafeUnwrapErr().kind).toBe('unreachable');
    expect(retries).toEqual([
      [1, 5],
      [2, 10],
      [3, 20],
      [4, 15],
    ]);
  });

  it('never retries a refused password, and an abort ends the wait without another pause', async () => {
    const retries: number[] = [];
    const auth = await waitForRedis(target(`unix://${redis.socket}?password=not-it`), {
      signal: new AbortController().signal,
      onRetry: (_f, attempt) => retries.push(attempt),
    });
    expect(auth._unsafeUnwrapErr().kind).toBe('auth');
    expect(retries).toEqual([]);
    const stop = new AbortController();
    const waiting = waitForRedis(target(`unix://${join(root, 'none.sock')}`), {
      signal: stop.signal,
      initialDelayMs: 3_600_000,
      onRetry: () => stop.abort(),
    });
    expect((await waiting)._unsafeUnwrapErr().kind).toBe('unreachable');
  });
});
