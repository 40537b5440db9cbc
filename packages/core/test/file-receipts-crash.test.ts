/**
 * Receipts survive crashes: a process appending receipts is SIGKILLed at random moments; every
 * receipt it was told was appended is still listed afterwards, in order, and a torn line costs
 * nothing but itself. (The long version of this loop belongs in the stress harness.)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileReceiptStore } from '../src/node/index.js';
import { bundleChild, type BundledChild } from './support/bundle-child.js';

const KILLS = 12;
let bundle: BundledChild;
let root: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'hb-receipts-crash-'));
  bundle = await bundleChild(fileURLToPath(new URL('./children/receipt-writer.ts', import.meta.url)));
});
afterAll(() => {
  bundle.dispose();
  rmSync(root, { recursive: true, force: true });
});

function runAndKill(directory: string, start: number, killAfterMs: number): Promise<readonly string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bundle.file, directory, String(start)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let buffered = '';
    let armed = false;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buffered += chunk;
      if (!armed && buffered.includes('ready')) {
        armed = true;
        setTimeout(() => child.kill('SIGKILL'), killAfterMs);
      }
    });
    child.once('error', reject);
    child.once('close', () => resolve(buffered.split('\n').filter((line) => line !== '')));
  });
}

describe('file receipt store under SIGKILL', () => {
  it(`${KILLS} kills at random moments never lose an acknowledged receipt`, async () => {
    const directory = join(root, 'receipts');
    const acknowledged: number[] = [];
    for (let kill = 0; kill < KILLS; kill += 1) {
      // Each writer numbers from its own range, so a half-written receipt is never reused.
      const lines = await runAndKill(directory, kill * 1_000_000, (kill * 7) % 30);
      expect(lines.filter((line) => line.startsWith('error'))).toEqual([]);
      for (const line of lines) if (line.startsWith('appended ')) acknowledged.push(Number(line.slice(9)));
    }
    const store = createFileReceiptStore({
      directory,
      bounds: { maxCount: 100_000, maxAgeMs: 10 ** 13 },
      clock: { now: () => new Date(Date.UTC(2026, 1, 19)) },
    });
    const listed = (await store.list())._unsafeUnwrap();
    const cycles = listed.receipts.map((r) => (r.kind === 'ran' ? r.cycle : -1));
    expect(cycles.filter((c) => acknowledged.includes(c))).toEqual(acknowledged);
    // At most one unacknowledged (possibly torn) receipt per kill.
    expect(cycles.length - acknowledged.length + listed.warnings.length).toBeLessThanOrEqual(KILLS);
  });
});
