import { lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { heldFifo } from '../../test/support/fifo.js';
import { createFakeClock } from '../testing/fake-clock.js';
import { createFileStateStore } from './file-state-store.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'hb-core-state-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('createFileStateStore', () => {
  it('creates parent directories on save and leaves only the target file', async () => {
    const path = join(root, 'a', 'b', 'state.json');
    const store = createFileStateStore({ path });
    (await store.save({ cycle: 1 }))._unsafeUnwrap();
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ cycle: 1 });
    expect(readdirSync(join(root, 'a', 'b'))).toEqual(['state.json']);
  });

  it('sets a corrupt file aside with a warning instead of throwing, then starts empty', async () => {
    const path = join(root, 'state.json');
    writeFileSync(path, '{"cycle": 3, "reported": {');
    const warnings: string[] = [];
    const clock = createFakeClock(new Date('2026-07-22T10:03:00.123Z'));
    const store = createFileStateStore({ path, onWarning: (warning) => warnings.push(warning), clock });
    const loaded = (await store.load())._unsafeUnwrap();
    expect(loaded.document).toBeUndefined();
    expect(loaded.warnings).toHaveLength(1);
    expect(loaded.warnings[0]).toContain(path);
    expect(loaded.warnings[0]).toContain('not valid JSON');
    expect(warnings).toEqual(loaded.warnings);
    const aside = `${path}.corrupt-2026-07-22T10-03-00-123Z`;
    expect(readFileSync(aside, 'utf8')).toBe('{"cycle": 3, "reported": {');
    expect(loaded.warnings[0]).toContain(aside);
    // The next load is clean and a save works again.
    expect((await store.load())._unsafeUnwrap()).toEqual({ document: undefined, warnings: [] });
    (await store.save({ cycle: 4 }))._unsafeUnwrap();
    expect((await store.load())._unsafeUnwrap().document).toEqual({ cycle: 4 });
  });

  it('setAside keeps the file that parsed but did not fit under the corrupt name, untouched by the next save', async () => {
    const path = join(root, 'state.json');
    const original = '{"version":1,"cycle":"x","undelivered":[]}\n';
    writeFileSync(path, original);
    const warnings: string[] = [];
    const clock = createFakeClock(new Date('2026-07-22T10:03:00.123Z'));
    const store = createFileStateStore({ path, onWarning: (warning) => warnings.push(warning), clock });
    const aside = (await store.setAside!('cycle: expected number'))._unsafeUnwrap();
    expect(aside).toBe(`${path}.corrupt-2026-07-22T10-03-00-123Z`);
    expect(warnings[0]).toContain(aside);
    // Until the salvaged save lands, the original stays where it was: a crash here loses nothing.
    expect(readFileSync(path, 'utf8')).toBe(original);
    (await store.save({ version: 1, cycle: 0 }))._unsafeUnwrap();
    expect(readFileSync(aside, 'utf8')).toBe(original);
    // Two set-asides in the same millisecond never overwrite each other.
    const second = (await store.setAside!('again'))._unsafeUnwrap();
    expect(second).toBe(`${aside}-1`);
    expect(readFileSync(second, 'utf8')).toBe('{"version":1,"cycle":0}\n');
  });

  it('treats an empty file as corrupt', async () => {
    const path = join(root, 'state.json');
    writeFileSync(path, '');
    const loaded = (await createFileStateStore({ path }).load())._unsafeUnwrap();
    expect(loaded.document).toBeUndefined();
    expect(loaded.warnings[0]).toContain('empty file');
  });

  // Issue 25 item 6: a FIFO at state.json blocked the read forever, with the cycle lock held.
  it('a FIFO or a link at the state file is never read: set aside like a damaged file, and the save puts a regular file back', async () => {
    const path = join(root, 'state.json');
    const clock = createFakeClock(new Date('2026-07-22T10:03:00.123Z'));
    heldFifo(path);
    const loaded = (await createFileStateStore({ path, clock }).load())._unsafeUnwrap();
    expect(loaded).toEqual({
      document: undefined,
      warnings: [
        `State file ${path} was unreadable (a FIFO (named pipe), not a regular file); moved it to ${path}.corrupt-2026-07-22T10-03-00-123Z and started from empty state.`,
      ],
    });
    expect(lstatSync(`${path}.corrupt-2026-07-22T10-03-00-123Z`).isFIFO()).toBe(true);
    (await createFileStateStore({ path }).save({ cycle: 1 }))._unsafeUnwrap();
    expect(lstatSync(path).isFile()).toBe(true);

    const secret = join(root, 'secret');
    writeFileSync(secret, '{"cycle": 99}');
    rmSync(path);
    symlinkSync(secret, path);
    const linked = (await createFileStateStore({ path, clock: createFakeClock(new Date('2026-07-22T11:00:00Z')) }).load())._unsafeUnwrap();
    expect(linked.document).toBeUndefined();
    expect(linked.warnings[0]).toContain('(a symbolic link, not a regular file)');
    expect(readFileSync(secret, 'utf8')).toBe('{"cycle": 99}');
  });

  it('reports an unreadable path as an io error naming the file', async () => {
    const path = join(root, 'state.json');
    mkdirSync(path);
    const store = createFileStateStore({ path });
    const loadError = (await store.load())._unsafeUnwrapErr();
    expect(loadError.kind).toBe('io');
    expect(loadError.message).toContain(path);
    expect((await store.save({ cycle: 1 }))._unsafeUnwrapErr().kind).toBe('io');
  });

  it('sweeps temp files left by writers that no longer exist, keeping live ones', async () => {
    const path = join(root, 'state.json');
    const dead = join(root, '.state.json.tmp-999999999-abc');
    const live = join(root, `.state.json.tmp-${process.ppid}-def`);
    writeFileSync(dead, '{"half":');
    writeFileSync(live, '{"half":');
    (await createFileStateStore({ path }).load())._unsafeUnwrap();
    expect(readdirSync(root).sort()).toEqual([`.state.json.tmp-${process.ppid}-def`]);
  });
});
