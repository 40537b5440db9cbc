import { execFileSync, spawn } from 'node:child_process';
import {
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { eventually, isAlive } from '../../test/support/processes.js';
import { createFileOutputSpool, gchatSpoolPrefixFor } from './file-output-spool.js';
import { createProcessRunner, DEFAULT_MAX_OUTPUT_BYTES } from './process-runner.js';
import { processStartMark } from './process-liveness.js';

const root = mkdtempSync(join(tmpdir(), 'hb-spool-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const clock = { now: () => new Date('2026-02-19T10:00:00Z') };
const runner = createProcessRunner();
const print = (text: string) => ({ file: process.execPath, args: ['-e', `process.stdout.write(${JSON.stringify(text)})`] });
const NONE = { spools: [], refused: [], stillWritten: 0 };
const whole = (text: string) => ({ text, size: Buffer.byteLength(text), readBytes: Buffer.byteLength(text) });
/** A process of its own group that runs until killed (what a spool's writer is: the runner's child). */
const startIdle = async () => {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], { detached: true, stdio: 'ignore' });
  await new Promise((resolve) => child.once('spawn', resolve));
  const pid = child.pid ?? 0;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return { pid, stop: async () => (process.kill(-pid, 'SIGKILL'), await exited) };
};

describe('file output spool', () => {
  it('is named after the state file, beside it', () => {
    expect(gchatSpoolPrefixFor('/repo/.git/heartbeat-kit/state.json')).toBe('state.gchat-spool');
  });

  it('the child writes straight into the spool through the runner; it stays until removed', async () => {
    const directory = join(root, 'live');
    const spool = createFileOutputSpool({ directory, prefix: 'state.gchat-spool', clock });
    const opened = (await spool.open())._unsafeUnwrap();
    const out = (await runner.run({ ...print('{"replies":[]}'), stdoutTo: opened.stdout }))._unsafeUnwrap();
    expect(out.stdout).toBe('');
    expect((await opened.collect())._unsafeUnwrap()).toEqual(whole('{"replies":[]}'));
    // Named after its writer (pid and start mark), so a later cycle can tell whether it still writes.
    expect(readdirSync(directory)).toEqual([expect.stringMatching(/^state\.gchat-spool-\d+-\d+-[0-9a-f]+\.w\d+-s\d+\.out$/)]);
    // Its own open spools are not leftovers of another cycle.
    expect((await spool.leftovers())._unsafeUnwrap()).toEqual(NONE);
    (await spool.remove(opened.id))._unsafeUnwrap();
    expect(readdirSync(directory)).toEqual([]);
  });

  it('open is done in the calling tick, and a listing running meanwhile never takes the new spool for a leftover', async () => {
    const directory = join(root, 'same-tick');
    const spool = createFileOutputSpool({ directory, prefix: 'state.gchat-spool', clock });
    // The GChat scanner lists leftovers while its poll runs: the listing starts first.
    const listing = spool.leftovers();
    const opening = spool.open();
    // Before any await: the file is on disk already (the poll can start in this tick).
    expect(readdirSync(directory)).toEqual([expect.stringMatching(/^state\.gchat-spool-\d+-\d+-[0-9a-f]+\.out$/)]);
    const opened = (await opening)._unsafeUnwrap();
    expect((await listing)._unsafeUnwrap()).toEqual(NONE);
    // Renamed after its writer while a second listing runs: neither name is a leftover.
    const again = spool.leftovers();
    opened.stdout.onSpawn(process.pid);
    expect((await again)._unsafeUnwrap()).toEqual(NONE);
    expect((await opened.collect())._unsafeUnwrap()).toEqual(whole(''));
    (await spool.remove(opened.id))._unsafeUnwrap();
    expect(readdirSync(directory)).toEqual([]);
  });

  it('a later cycle reads the spools of exited writers, oldest first, and leaves one whose writer still runs', async () => {
    const directory = join(root, 'left');
    mkdirSync(directory);
    const hung = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], { detached: true, stdio: 'ignore' });
    const pid = hung.pid ?? 0;
    writeFileSync(join(directory, 'state.gchat-spool-2000-1-ab.w999999999.out'), 'second');
    writeFileSync(join(directory, 'state.gchat-spool-1000-1-ab.out'), 'first');
    writeFileSync(join(directory, `state.gchat-spool-3000-1-ab.w${pid}.out`), 'still printing');
    writeFileSync(join(directory, 'state.gchat-spool-4000-1-ab.out.unreadable-2026'), 'set aside before');
    writeFileSync(join(directory, 'other.gchat-spool-1000-1-ab.out'), 'another heartbeat');
    const spool = createFileOutputSpool({ directory, prefix: 'state.gchat-spool', clock });
    try {
      const left = (await spool.leftovers())._unsafeUnwrap();
      expect(left.spools.map((s) => s.text)).toEqual(['first', 'second']);
      expect(left.stillWritten).toBe(1);
    } finally {
      process.kill(-pid, 'SIGKILL');
    }
    await eventually(() => !isAlive(pid), 300_000);
    const after = (await spool.leftovers())._unsafeUnwrap();
    expect(after.spools.map((s) => s.text)).toEqual(['first', 'second', 'still printing']);
    const aside = (await spool.setAside('state.gchat-spool-1000-1-ab.out'))._unsafeUnwrap();
    expect(aside).toBe(join(directory, 'state.gchat-spool-1000-1-ab.out.unreadable-2026-02-19T10-00-00-000Z'));
    expect(readFileSync(aside, 'utf8')).toBe('first');
    (await spool.remove('state.gchat-spool-2000-1-ab.w999999999.out'))._unsafeUnwrap();
    expect(existsSync(join(directory, 'state.gchat-spool-2000-1-ab.w999999999.out'))).toBe(false);
    expect((await spool.leftovers())._unsafeUnwrap().spools.map((s) => s.text)).toEqual(['still printing']);
  });

  it('a spool without its writer pid (cycle killed before the rename) is left alone while its poller still holds it', async () => {
    const directory = join(root, 'unnamed');
    mkdirSync(directory);
    const name = 'state.gchat-spool-1000-1-ab.out';
    const fd = openSync(join(directory, name), 'wx');
    // The poller started, has printed nothing yet, and its cycle died before naming it in the file name.
    const poller = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], { detached: true, stdio: ['ignore', fd, 'ignore'] });
    closeSync(fd);
    const exited = new Promise((resolve) => poller.once('exit', resolve));
    const spool = createFileOutputSpool({ directory, prefix: 'state.gchat-spool', clock });
    try {
      await new Promise((resolve) => poller.once('spawn', resolve));
      // Read now, the blank spool would be deleted and what the poller prints next would be lost.
      expect((await spool.leftovers())._unsafeUnwrap()).toEqual({ ...NONE, stillWritten: 1 });
    } finally {
      process.kill(-(poller.pid ?? 0), 'SIGKILL');
    }
    await exited;
    expect((await spool.leftovers())._unsafeUnwrap()).toEqual({ ...NONE, spools: [{ id: name, ...whole('') }] });
  });

  it("a spool is read up to the runner's output cap: a 10 MB one costs 4 MiB, and says how big it is", async () => {
    const directory = join(root, 'big');
    mkdirSync(directory);
    const name = 'state.gchat-spool-1000-1-ab.out';
    writeFileSync(join(directory, name), Buffer.alloc(10_000_000, 'x'));
    const left = (await createFileOutputSpool({ directory, prefix: 'state.gchat-spool', clock }).leftovers())._unsafeUnwrap();
    expect(left.spools.map(({ id, size, readBytes, text }) => ({ id, size, readBytes, length: text.length }))).toEqual([
      { id: name, size: 10_000_000, readBytes: DEFAULT_MAX_OUTPUT_BYTES, length: DEFAULT_MAX_OUTPUT_BYTES },
    ]);
    // The poll's own spool too: a poller may print without limit into it.
    const spool = createFileOutputSpool({ directory: join(root, 'big-live'), prefix: 'state.gchat-spool', clock, maxReadBytes: 1000 });
    const opened = (await spool.open())._unsafeUnwrap();
    const out = (
      await runner.run({ file: process.execPath, args: ['-e', 'process.stdout.write("y".repeat(5000))'], stdoutTo: opened.stdout })
    )._unsafeUnwrap();
    expect(out.exitCode).toBe(0);
    const collected = (await opened.collect())._unsafeUnwrap();
    expect({ size: collected.size, readBytes: collected.readBytes, text: collected.text }).toEqual({
      size: 5000,
      readBytes: 1000,
      text: 'y'.repeat(1000),
    });
  });

  it('never follows a link named like a spool, never reads a FIFO or a directory: each is refused by what it is, never by what it holds', async () => {
    const directory = join(root, 'links');
    mkdirSync(directory);
    const secret = join(root, 'shadow');
    writeFileSync(secret, 'root:*:20210:0:99999:7:::\n');
    const link = 'state.gchat-spool-1000-1-ab.out';
    symlinkSync(secret, join(directory, link));
    const fifo = 'state.gchat-spool-2000-1-ab.w999999999.out';
    execFileSync('mkfifo', [join(directory, fifo)]);
    const dir = 'state.gchat-spool-3000-1-ab.out';
    mkdirSync(join(directory, dir));
    const spool = createFileOutputSpool({ directory, prefix: 'state.gchat-spool', clock });
    // A FIFO opened for reading would block the cycle for ever: the listing returns.
    const left = (await spool.leftovers())._unsafeUnwrap();
    expect(left).toEqual({
      spools: [],
      refused: [
        { id: link, kind: 'not-a-file', reason: 'a symbolic link, not a spool heartbeat-kit wrote: not followed or read' },
        { id: fifo, kind: 'not-a-file', reason: 'a FIFO, not a spool heartbeat-kit wrote: not followed or read' },
        { id: dir, kind: 'not-a-file', reason: 'a directory, not a spool heartbeat-kit wrote: not followed or read' },
      ],
      stillWritten: 0,
    });
    expect(JSON.stringify(left)).not.toContain('root:');
    // Set aside, it is the link that moves; its target is untouched.
    const aside = (await spool.setAside(link))._unsafeUnwrap();
    expect(lstatSync(aside).isSymbolicLink()).toBe(true);
    expect(readlinkSync(aside)).toBe(secret);
    expect(readFileSync(secret, 'utf8')).toBe('root:*:20210:0:99999:7:::\n');
    expect((await spool.leftovers())._unsafeUnwrap().refused.map((r) => r.id)).toEqual([fifo, dir]);
  });

  it('a spool whose writer pid now belongs to a later process (another start mark) is read; its own writer (same mark) is waited for', async () => {
    const directory = join(root, 'reused');
    mkdirSync(directory);
    const other = await startIdle();
    try {
      const mark = (await processStartMark(other.pid)) ?? '';
      expect(mark).toMatch(/^\d+$/);
      // The writer that printed this spool had the same pid once, and has exited; the pid is alive again.
      const reused = `state.gchat-spool-1000-1-ab.w${other.pid}-s${Number(mark) - 1}.out`;
      writeFileSync(join(directory, reused), '{"replies":[],"pending_count":0}');
      const spool = createFileOutputSpool({ directory, prefix: 'state.gchat-spool', clock });
      expect((await spool.leftovers())._unsafeUnwrap()).toEqual({
        ...NONE,
        spools: [{ id: reused, ...whole('{"replies":[],"pending_count":0}') }],
      });
      // With the start mark it was named with, the same process is the writer: left alone while it runs.
      const own = `state.gchat-spool-2000-1-ab.w${other.pid}-s${mark}.out`;
      writeFileSync(join(directory, own), 'half');
      expect((await spool.leftovers())._unsafeUnwrap()).toMatchObject({ spools: [{ id: reused }], stillWritten: 1 });
    } finally {
      await other.stop();
    }
  });

  it('an unwritable directory is a typed error naming it', async () => {
    const blocked = join(root, 'file-not-dir');
    writeFileSync(blocked, '');
    const opened = await createFileOutputSpool({ directory: join(blocked, 'sub'), prefix: 'p' }).open();
    expect(opened._unsafeUnwrapErr()).toMatchObject({ kind: 'io', message: expect.stringContaining(blocked) as string });
  });
});
