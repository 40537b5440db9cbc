import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ownStateFiles } from './own-state-files.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
/** The git scanner's rule for these lists: a path is ignored when it is or is under one of `paths`, or starts with a prefix. */
const isIgnoredChange = (root: string, entry: string, paths: readonly string[], prefixes: readonly string[]): boolean => {
  const path = join(root, entry).replace(/\/+$/, '');
  return paths.some((p) => path === p || path.startsWith(`${p}/`)) || prefixes.some((p) => path.startsWith(p));
};
const tempDir = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'hk-own-'));
  dirs.push(d);
  return d;
};

describe('ownStateFiles', () => {
  it('ignores a directory that holds only the heartbeat (git lists it as one untracked dir/)', async () => {
    const root = tempDir();
    const dir = join(root, '.hb');
    mkdirSync(join(dir, 'state.receipts'), { recursive: true });
    writeFileSync(join(dir, 'state.json'), '{}');
    writeFileSync(join(dir, 'cycle.lock'), '{}');
    const own = await ownStateFiles(join(dir, 'state.json'));
    expect(own).toEqual({ paths: [dir], prefixes: [] });
    expect(isIgnoredChange(root, '.hb/', own.paths, own.prefixes)).toBe(true);
  });

  it("in a directory shared with the user's files, ignores only the heartbeat's own", async () => {
    const root = tempDir();
    writeFileSync(join(root, 'notes.md'), 'mine');
    const own = await ownStateFiles(join(root, 'hb.json'));
    const ignored = (entry: string) => isIgnoredChange(root, entry, own.paths, own.prefixes);
    for (const entry of [
      'hb.json',
      'hb.receipts/',
      'hb.inbox.json',
      'hb.gchat-spool-1-2-x.out',
      'hb.json.corrupt-2026',
      '.hb.json.tmp-1-x',
      'cycle.lock',
      'cycle.lock.takeover-ab',
    ])
      expect(ignored(entry), entry).toBe(true);
    for (const entry of ['notes.md', 'src/', 'hb.json5', 'hb.txt', 'src/hb.json']) expect(ignored(entry), entry).toBe(false);
  });

  it('a directory not made yet holds nothing of the user either', async () => {
    const dir = join(tempDir(), 'later');
    expect(await ownStateFiles(join(dir, 'state.json'))).toEqual({ paths: [dir], prefixes: [] });
  });
});
