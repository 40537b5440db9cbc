import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { CliIo } from '../io.js';
import { isLoopbackHost, parseListenFlag, parseMetricsFlags, writeMetricsTextfile } from './metrics-export.js';
import { startMetricsServer } from './metrics-server.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'hk-metrics-unit-'));
  dirs.push(dir);
  return dir;
}

describe('parseListenFlag', () => {
  it('takes loopback HOST:PORT and [::1]:PORT; refuses other hosts unless public; names the flag and the fix', () => {
    expect(parseListenFlag('127.0.0.1:9464', false)._unsafeUnwrap()).toEqual({ host: '127.0.0.1', port: 9464 });
    expect(parseListenFlag('[::1]:0', false)._unsafeUnwrap()).toEqual({ host: '::1', port: 0 });
    expect(parseListenFlag('localhost:80', false)._unsafeUnwrap()).toEqual({ host: 'localhost', port: 80 });
    expect(parseListenFlag('0.0.0.0:9464', true)._unsafeUnwrap()).toEqual({ host: '0.0.0.0', port: 9464 });
    const refused = parseListenFlag('0.0.0.0:9464', false);
    expect(refused._unsafeUnwrapErr()).toMatch(/not a loopback address.*Fix:/);
    for (const bad of ['9464', ':9464', '127.0.0.1:65536', '[::1]9464', '[nothost]:1', 'a b:1', '127.0.0.1:-1']) {
      const parsed = parseListenFlag(bad, true);
      expect(parsed.isErr() ? parsed.error : '', bad).toMatch(/^--metrics-listen ".*" is not HOST:PORT\. Fix: /);
    }
  });

  it('property: never throws; whatever it accepts without --metrics-listen-public is a loopback host and a port 0–65535', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), fc.boolean(), (text, allowPublic) => {
        const parsed = parseListenFlag(text, allowPublic);
        if (parsed.isErr()) return;
        expect(parsed.value.port).toBeGreaterThanOrEqual(0);
        expect(parsed.value.port).toBeLessThanOrEqual(65_535);
        if (!allowPublic) expect(isLoopbackHost(parsed.value.host)).toBe(true);
      }),
    );
  });
});

describe('parseMetricsFlags', () => {
  it('resolves the textfile against the cwd and wants .prom', () => {
    expect(parseMetricsFlags({ 'metrics-textfile': 'out/hk.prom' }, '/srv')._unsafeUnwrap()).toEqual({ textfile: '/srv/out/hk.prom' });
    const txt = parseMetricsFlags({ 'metrics-textfile': 'hk.txt' }, '/srv');
    expect(txt._unsafeUnwrapErr()).toMatch(/\.prom.*Fix: /);
    expect(parseMetricsFlags({ 'metrics-textfile': '.prom' }, '/srv').isErr()).toBe(true);
    expect(parseMetricsFlags({}, '/srv')._unsafeUnwrap()).toEqual({});
  });
});

describe('writeMetricsTextfile', () => {
  it('replaces the file whole and leaves no temp; a directory it cannot write to is one stderr line and false', async () => {
    const dir = tempDir();
    const path = join(dir, 'hk.prom');
    writeFileSync(path, 'old\n');
    let stderr = '';
    const io = { stderr: (t: string) => void (stderr += t) } as unknown as CliIo;
    expect(await writeMetricsTextfile(path, { receipts: [] }, io, 'cycle')).toBe(true);
    expect(readFileSync(path, 'utf8')).toMatch(/^# HELP heartbeat_kit_/);
    expect(readdirSync(dir)).toEqual(['hk.prom']);
    writeFileSync(join(dir, 'file'), '');
    expect(await writeMetricsTextfile(join(dir, 'file', 'hk.prom'), { receipts: [] }, io, 'cycle')).toBe(false);
    expect(stderr).toMatch(
      /^heartbeat-kit cycle: cannot write the metrics textfile .*file\/hk\.prom: .*Fix: check that its directory exists and is writable\.\n$/,
    );
  });
});

describe('startMetricsServer', () => {
  it('serves GET and HEAD /metrics with figures computed per scrape; 404 elsewhere, 405 for other methods', async () => {
    let scrapes = 0;
    const server = await startMetricsServer({ host: '127.0.0.1', port: 0 }, () => {
      scrapes += 1;
      return Promise.resolve({ receipts: [] });
    });
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      const got = await fetch(server.url);
      expect(got.status).toBe(200);
      expect(got.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(await got.text()).toContain('heartbeat_kit_cycles_total{status="ok"} 0');
      expect((await fetch(server.url, { method: 'HEAD' })).status).toBe(200);
      expect(scrapes).toBe(2);
      expect((await fetch(`${server.url}?x=1`)).status).toBe(200);
      expect((await fetch(server.url.replace('/metrics', '/other'))).status).toBe(404);
      expect((await fetch(server.url, { method: 'POST' })).status).toBe(405);
    } finally {
      await server.close();
    }
  });

  it('rejects an address in use', async () => {
    const first = await startMetricsServer({ host: '127.0.0.1', port: 0 }, () => Promise.resolve({ receipts: [] }));
    try {
      const port = Number(new URL(first.url).port);
      await expect(startMetricsServer({ host: '127.0.0.1', port }, () => Promise.resolve({ receipts: [] }))).rejects.toThrow(/EADDRINUSE/);
    } finally {
      await first.close();
    }
  });
});
