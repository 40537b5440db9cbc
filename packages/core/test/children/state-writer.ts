/**
 * Child process for the crash test: loads the state file with the real file store, then saves
 * counter documents in a loop until it is killed. Progress goes to stdout, which is a pipe and
 * therefore written synchronously: a line the parent reads was written before the kill.
 *
 * `state-writer <path> <point> <save>` stops at a named point inside save number `save` (1-based,
 * counted from this process's start), says `paused <point> <counter>` and blocks until killed, so
 * the parent's SIGKILL lands at a known step of the write, whatever the machine's speed:
 *   created   the temp file exists, empty          half    half the document is in the temp file
 *   written   the temp file is complete and synced  renamed the rename is done, the directory not yet synced
 * The pause wraps the real `node:fs/promises` functions the store calls; the store itself is unchanged.
 */
import { promises as fsp } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { createFileStateStore } from '../../src/node/index.js';

const [path, point, saveArg] = process.argv.slice(2);
if (path === undefined) throw new Error('usage: state-writer <path> [created|half|written|renamed <save>]');
const pauseAtSave = saveArg === undefined ? 0 : Number(saveArg);

const say = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

let savesStarted = 0;
let counter = 0;
const pauseHere = (at: string): void => {
  if (point !== at || savesStarted !== pauseAtSave) return;
  say(`paused ${at} ${counter}`);
  // Blocks the whole process (no timer, no event loop) until the parent's SIGKILL.
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
};

if (point !== undefined) {
  const realOpen = fsp.open;
  const realRename = fsp.rename;
  fsp.open = async (
    file: Parameters<typeof realOpen>[0],
    flags?: Parameters<typeof realOpen>[1],
    mode?: Parameters<typeof realOpen>[2],
  ) => {
    const handle = await realOpen(file, flags, mode);
    if (flags !== 'wx') return handle;
    pauseHere('created');
    const realWriteFile = handle.writeFile.bind(handle);
    handle.writeFile = async (data: string, options: Parameters<typeof realWriteFile>[1]) => {
      if (point === 'half' && savesStarted === pauseAtSave) {
        const bytes = Buffer.from(data, 'utf8');
        await handle.write(bytes, 0, Math.floor(bytes.length / 2), 0);
        await handle.sync();
        pauseHere('half');
      }
      await realWriteFile(data, options);
      await handle.sync();
      pauseHere('written');
    };
    return handle;
  };
  fsp.rename = (async (from: string, to: string) => {
    await realRename(from, to);
    pauseHere('renamed');
  }) as typeof fsp.rename;
  // The store's `import { open, rename } from 'node:fs/promises'` bindings follow the patched object.
  syncBuiltinESMExports();
}

const store = createFileStateStore({ path });
const loaded = await store.load();
if (loaded.isErr()) {
  say(`error ${loaded.error.message}`);
  process.exit(2);
}
const document = loaded.value.document as { counter?: number } | undefined;
if (loaded.value.warnings.length > 0) say(`warning ${loaded.value.warnings.join(' | ')}`);
counter = document?.counter ?? 0;
say(`loaded ${counter}`);
// Padding makes each write span several pages, so a torn write would be visible.
const padding = 'x'.repeat(20_000);
for (;;) {
  counter += 1;
  savesStarted += 1;
  say(`saving ${counter}`);
  const saved = await store.save({ counter, padding, checksum: counter * 7 });
  if (saved.isErr()) {
    say(`error ${saved.error.message}`);
    process.exit(2);
  }
  say(`saved ${counter}`);
}
