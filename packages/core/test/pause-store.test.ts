/**
 * The PauseStore contract over the file adapter and the memory fake, and the crash rule of
 * issue 27: a pause written while a cycle runs is fully in that cycle's decision or fully in the
 * next. A writer SIGKILLed at each step of a write (temp created, half written, complete but not
 * renamed, renamed) leaves a pause file a reader takes whole: the old pause, or the new one.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFilePauseStore, pausePathFor } from '../src/node/index.js';
import { decidePause } from '../src/operator/pause-decision.js';
import { createMemoryPauseStore } from '../src/testing/index.js';
import { bundleChild, type BundledChild } from './support/bundle-child.js';
import { pauseStoreContract } from '../src/testing/index.js';

const root = mkdtempSync(join(tmpdir(), 'hb-core-pause-'));
let counter = 0;
const fresh = (name: string): string => join(root, `case-${(counter += 1)}`, name);
let bundle: BundledChild;
beforeAll(async () => {
  bundle = await bundleChild(fileURLToPath(new URL('./children/pause-writer.ts', import.meta.url)));
});
afterAll(() => {
  bundle.dispose();
  rmSync(root, { recursive: true, force: true });
});

await pauseStoreContract('file', () => createFilePauseStore({ path: fresh('state.pause.json') }));
await pauseStoreContract('memory', () => createMemoryPauseStore());

describe('file pause store', () => {
  it('lives beside the state: state.json → state.pause.json', () => {
    expect(pausePathFor('/x/heartbeat-kit/state.json')).toBe('/x/heartbeat-kit/state.pause.json');
  });

  it('a damaged pause file is an invalid error naming the fix, and resume (clear) still removes it', async () => {
    const path = fresh('state.pause.json');
    const store = createFilePauseStore({ path });
    const { mkdir, writeFile } = await import('node:fs/promises');
    await mkdir(join(path, '..'), { recursive: true });
    await writeFile(path, '{"v":1,"note":"half');
    const read = (await store.read())._unsafeUnwrapErr();
    expect(read.kind).toBe('invalid');
    expect(read.message).toContain('resume');
    expect((await store.clear())._unsafeUnwrap()).toBeUndefined();
    expect((await store.read())._unsafeUnwrap()).toBeUndefined();
  });

  const killAt = (path: string, point: string): Promise<string> =>
    new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [bundle.file, path, point], { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.setEncoding('utf8');
      child.stdout.on('data', (chunk: string) => {
        out += chunk;
        if (out.includes('stopped ') || out.includes('error ')) child.kill('SIGKILL');
      });
      child.once('error', reject);
      child.once('close', () => resolve(out));
    });

  it.each([
    ['created', 'first'],
    ['half', 'first'],
    ['written', 'first'],
    ['renamed', 'second'],
  ])('a writer SIGKILLed with the temp file %s leaves the %s pause whole', async (point, expected) => {
    const path = fresh('state.pause.json');
    const out = await killAt(path, point);
    expect(out).toContain(`stopped ${point}`);
    const pause = (await createFilePauseStore({ path }).read())._unsafeUnwrap();
    expect(pause?.note).toBe(expected);
    // The cycle's decision takes that pause whole: "first" has no end, "second" ends at 11:05.
    const decision = decidePause(pause, Date.parse('2026-02-19T12:00:00Z'));
    expect(decision.kind).toBe(expected === 'first' ? 'skip' : 'run');
  });
});
