import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../../test/support/cli-world.js';
import { ownershipProblem, readPlanFile, writePlanFile } from './prefetch-plan-file.js';

const tempDir = useTempDirs();
const euid = process.geteuid?.() ?? 0;
const isRoot = euid === 0;

/** A plan directory as the prefetch makes it, holding `plan.json`. */
function planDir(text = '{"ids":[]}\n') {
  const dir = join(tempDir('hk-plan-file-'), 'prefetch');
  mkdirSync(dir, { mode: 0o700 });
  const path = join(dir, 'plan.json');
  writeFileSync(path, text, { mode: 0o600 });
  return { dir, path };
}

describe('the plan file', () => {
  it('is read when it and its directory belong to this user alone', async () => {
    const { path } = planDir();
    expect(await readPlanFile(path, euid)).toEqual({ kind: 'text', text: '{"ids":[]}\n' });
    expect(await readPlanFile(join(path, '..', 'missing.json'), euid)).toEqual({ kind: 'absent' });
    expect(await readPlanFile(join(tempDir('hk-plan-file-'), 'no-dir', 'plan.json'), euid)).toEqual({ kind: 'absent' });
  });

  it('is refused when another user owns it, or others can write it or its directory', async () => {
    const { dir, path } = planDir();
    expect(await readPlanFile(path, euid + 1)).toMatchObject({
      kind: 'refused',
      reason: `its directory ${dir}: it is owned by uid ${euid}, not by this user (uid ${euid + 1})`,
    });
    chmodSync(path, 0o620);
    expect(await readPlanFile(path, euid)).toEqual({
      kind: 'refused',
      reason: 'it is writable by its group (mode 620)',
      fix: `delete ${path}`,
    });
    chmodSync(path, 0o600);
    chmodSync(dir, 0o707);
    expect(await readPlanFile(path, euid)).toEqual({
      kind: 'refused',
      reason: `its directory ${dir}: it is writable by every user (mode 707)`,
      fix: `chmod go-w ${dir}`,
    });
    expect(ownershipProblem({ uid: 5, mode: 0o40755 }, 5)).toBeUndefined();
  });

  it.skipIf(!isRoot)('is refused when it, or its directory, belongs to another user', async () => {
    const { dir, path } = planDir();
    chownSync(path, 65534, 65534);
    expect(await readPlanFile(path, 0)).toMatchObject({ kind: 'refused', reason: 'it is owned by uid 65534, not by this user (uid 0)' });
    chownSync(path, 0, 0);
    chownSync(dir, 65534, 65534);
    expect(await readPlanFile(path, 0)).toEqual({
      kind: 'refused',
      reason: `its directory ${dir}: it is owned by uid 65534, not by this user (uid 0)`,
      fix: `remove ${dir} (the next cycle makes its own)`,
    });
    // Nor is one written there.
    expect(await writePlanFile(path, 'new\n', 0)).toBe(false);
    expect(readFileSync(path, 'utf8')).toBe('{"ids":[]}\n');
  });

  it('is never followed through a symbolic link, and a FIFO does not block the read', async () => {
    const { dir, path } = planDir();
    const elsewhere = join(dir, 'elsewhere.json');
    writeFileSync(elsewhere, '{}', { mode: 0o600 });
    const link = join(dir, 'link.json');
    symlinkSync(elsewhere, link);
    expect(await readPlanFile(link, euid)).toMatchObject({ kind: 'refused', reason: 'it is a symbolic link' });
    const linkedDir = join(dir, '..', 'linked');
    symlinkSync(dir, linkedDir);
    expect(await readPlanFile(join(linkedDir, 'plan.json'), euid)).toMatchObject({
      kind: 'refused',
      reason: `its directory ${linkedDir}: it is a symbolic link`,
    });
    const fifo = join(dir, 'fifo.json');
    execFileSync('mkfifo', [fifo]);
    expect(await readPlanFile(fifo, euid)).toMatchObject({ kind: 'refused', reason: 'it is not a regular file' });
    writeFileSync(path, 'x'.repeat(64 * 1024 + 1));
    expect(await readPlanFile(path, euid)).toMatchObject({ kind: 'refused', reason: 'it is larger than 65536 bytes' });
  });

  it('is written into a directory only this user can enter, and not into one others can write', async () => {
    const root = tempDir('hk-plan-file-');
    const path = join(root, 'heartbeat-kit', 'prefetch-x', 'plan.json');
    expect(await writePlanFile(path, 'one\n', euid)).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe('one\n');
    expect(statSync(join(root, 'heartbeat-kit', 'prefetch-x')).mode & 0o777).toBe(0o700);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    chmodSync(join(root, 'heartbeat-kit', 'prefetch-x'), 0o730);
    expect(await writePlanFile(path, 'two\n', euid)).toBe(false);
    expect(readFileSync(path, 'utf8')).toBe('one\n');
  });
});
