import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { eventually, isAlive } from '../../test/support/processes.js';
import { createFileOutputSpool, gchatSpoolPrefixFor } from './file-output-spool.js';
import { createProcessRunner } from './process-runner.js';

const root = mkdtempSync(join(tmpdir(), 'hb-spool-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const clock = { now: () => new Date('2026-02-19T10:00:00Z') };
const runner = createProcessRunner();
const print = (text: string) => ({ file: process.execPath, args: ['-e', `process.stdout.write(${JSON.stringify(text)})`] });

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
    expect((await opened.collect())._unsafeUnwrap()).toBe('{"replies":[]}');
    // Named after its writer, so a later cycle can tell whether it still writes.
    expect(readdirSync(directory)).toEqual([expect.stringMatching(/^state\.gchat-spool-\d+-\d+-[0-9a-f]+\.w\d+\.out$/)]);
    // Its own open spools are not leftovers of another cycle.
    expect((await spool.leftovers())._unsafeUnwrap()).toEqual({ spools: [], stillWritten: 0 });
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
    expect((await listing)._unsafeUnwrap()).toEqual({ spools: [], stillWritten: 0 });
    // Renamed after its writer while a second listing runs: neither name is a leftover.
    const again = spool.leftovers();
    opened.stdout.onSpawn(process.pid);
    expect((await again)._unsafeUnwrap()).toEqual({ spools: [], stillWritten: 0 });
    expect((await opened.collect())._unsafeUnwrap()).toBe('');
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
      expect((await spool.leftovers())._unsafeUnwrap()).toEqual({ spools: [], stillWritten: 1 });
    } finally {
      process.kill(-(poller.pid ?? 0), 'SIGKILL');
    }
    await exited;
    expect((await spool.leftovers())._unsafeUnwrap()).toEqual({ spools: [{ id: name, text: '' }], stillWritten: 0 });
  });

  it('an unwritable directory is a typed error naming it', async () => {
    const blocked = join(root, 'file-not-dir');
    writeFileSync(blocked, '');
    const opened = await createFileOutputSpool({ directory: join(blocked, 'sub'), prefix: 'p' }).open();
    expect(opened._unsafeUnwrapErr()).toMatchObject({ kind: 'io', message: expect.stringContaining(blocked) as string });
  });
});
