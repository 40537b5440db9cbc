import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileInStatePath } from './state-path-check.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hk-state-path-'));
  mkdirSync(join(dir, 'real'));
  writeFileSync(join(dir, 'afile'), 'x');
  symlinkSync(join(dir, 'afile'), join(dir, 'link-to-file'));
  symlinkSync(join(dir, 'real'), join(dir, 'link-to-dir'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('fileInStatePath (issue 26 item 9)', () => {
  it('names the step of the path that is a file, however deep below it the state is', () => {
    return Promise.all([
      expect(fileInStatePath(join(dir, 'afile', 'state.json'))).resolves.toBe(join(dir, 'afile')),
      expect(fileInStatePath(join(dir, 'afile', 'a', 'b', 'state.json'))).resolves.toBe(join(dir, 'afile')),
      expect(fileInStatePath(join(dir, 'link-to-file', 'state.json'))).resolves.toBe(join(dir, 'link-to-file')),
    ]);
  });

  it('finds nothing when every existing step is a directory (missing ones are created later)', () => {
    return Promise.all([
      expect(fileInStatePath(join(dir, 'real', 'state.json'))).resolves.toBeUndefined(),
      expect(fileInStatePath(join(dir, 'new', 'deeper', 'state.json'))).resolves.toBeUndefined(),
      expect(fileInStatePath(join(dir, 'link-to-dir', 'state.json'))).resolves.toBeUndefined(),
      expect(fileInStatePath(join(dir, 'afile'))).resolves.toBeUndefined(),
    ]);
  });
});
