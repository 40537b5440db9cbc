/**
 * Child process for the pause crash test: writes pause "first" with the real file pause store,
 * then pause "second", stopping inside that second write at a named point, saying
 * `stopped <point>` and blocking until the parent's SIGKILL:
 *   created  the temp file exists, empty        half     half the pause is in the temp file
 *   written  the temp file is complete, synced   renamed  renamed over the pause file, directory not synced
 * The stop wraps the real `node:fs/promises` functions the store calls; the store itself is unchanged.
 */
import { promises as fsp } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { createFilePauseStore } from '../../src/node/index.js';

const [path, point] = process.argv.slice(2);
if (path === undefined || point === undefined) throw new Error('usage: pause-writer <path> created|half|written|renamed');

const say = (line: string): void => void process.stdout.write(`${line}\n`);
let armed = false;
const stopHere = (at: string): void => {
  if (!armed || point !== at) return;
  say(`stopped ${at}`);
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
};

const realOpen = fsp.open;
const realRename = fsp.rename;
fsp.open = async (file: Parameters<typeof realOpen>[0], flags?: Parameters<typeof realOpen>[1], mode?: Parameters<typeof realOpen>[2]) => {
  const handle = await realOpen(file, flags, mode);
  if (flags !== 'wx') return handle;
  stopHere('created');
  const realWriteFile = handle.writeFile.bind(handle);
  handle.writeFile = async (data: string, options: Parameters<typeof realWriteFile>[1]) => {
    if (armed && point === 'half') {
      const bytes = Buffer.from(data, 'utf8');
      await handle.write(bytes, 0, Math.floor(bytes.length / 2), 0);
      await handle.sync();
      stopHere('half');
    }
    await realWriteFile(data, options);
    await handle.sync();
    stopHere('written');
  };
  return handle;
};
fsp.rename = (async (from: string, to: string) => {
  await realRename(from, to);
  stopHere('renamed');
}) as typeof fsp.rename;
syncBuiltinESMExports();

const store = createFilePauseStore({ path });
const first = await store.write({ v: 1, note: 'first', since: '2026-02-19T10:00:00.000Z' });
if (first.isErr()) say(`error ${first.error.message}`);
say('wrote first');
armed = true;
const second = await store.write({ v: 1, note: 'second', since: '2026-02-19T10:05:00.000Z', until: '2026-02-19T11:05:00.000Z' });
say(second.isErr() ? `error ${second.error.message}` : 'wrote second');
