import { mkdtemp, readFile, readdir, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { heldFifo } from '../../../core/test/support/fifo.js';
import { createFileTaskStore, readTextFile, writeTextFileAtomic } from './runbook-files.js';

async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'hb-runbook-'));
}

describe('writeTextFileAtomic', () => {
  it('replaces the file and leaves no temp file behind', async () => {
    const dir = await tempDir();
    const path = join(dir, 'HEARTBEAT.md');
    await writeFile(path, 'old\n');
    expect((await writeTextFileAtomic(path, 'new\n', { expected: 'old\n' })).isOk()).toBe(true);
    expect(await readFile(path, 'utf8')).toBe('new\n');
    expect(await readdir(dir)).toEqual(['HEARTBEAT.md']);
  });
  it('refuses to overwrite a file that changed since it was read', async () => {
    const dir = await tempDir();
    const path = join(dir, 'HEARTBEAT.md');
    await writeFile(path, 'edited by the lead\n');
    const r = await writeTextFileAtomic(path, 'pruned\n', { expected: 'old\n' });
    expect(r._unsafeUnwrapErr().kind).toBe('changed');
    expect(await readFile(path, 'utf8')).toBe('edited by the lead\n');
    expect(await readdir(dir)).toEqual(['HEARTBEAT.md']);
  });
  it('reports a missing file as not-found', async () => {
    expect((await readTextFile(join(await tempDir(), 'nope.md')))._unsafeUnwrapErr().kind).toBe('not-found');
  });
});

describe('createFileTaskStore', () => {
  it('validates the snapshot and names the file and key on error', async () => {
    const dir = await tempDir();
    const good = join(dir, 'status.json');
    await writeFile(
      good,
      JSON.stringify({ version: 1, generatedAt: '2026-10-20T10:00:00Z', agents: [{ id: 'lead', isLead: true, status: 'online' }] }),
    );
    const status = (await createFileTaskStore(good).snapshot())._unsafeUnwrap();
    expect(status.agents[0]).toMatchObject({ id: 'lead', busy: false, name: '' });
    const bad = join(dir, 'bad.json');
    await writeFile(
      bad,
      JSON.stringify({
        version: 1,
        generatedAt: '2026-10-20T10:00:00Z',
        tasks: [{ id: 't', status: 'weird', createdAt: 'x', lastUpdatedAt: 'y' }],
      }),
    );
    const err = (await createFileTaskStore(bad).snapshot())._unsafeUnwrapErr();
    expect(err.kind).toBe('invalid-status');
    if (err.kind === 'invalid-status') expect(err.problems.join('\n')).toContain(`${bad}: tasks.0.status`);
    const notJson = join(dir, 'x.json');
    await writeFile(notJson, '{');
    expect((await createFileTaskStore(notJson).snapshot())._unsafeUnwrapErr().kind).toBe('invalid-status');
  });
});

// Issue 25 item 6: a runbook path that is a FIFO blocked the read forever.
describe('readTextFile', () => {
  it('refuses a FIFO with an io error naming it; follows a link to a regular file (a dotfiles checkout)', async () => {
    const dir = await tempDir();
    const path = join(dir, 'HEARTBEAT.md');
    heldFifo(path);
    const error = (await readTextFile(path))._unsafeUnwrapErr();
    expect(error.kind).toBe('io');
    expect(error.message).toContain(`${path} is a FIFO (named pipe), not a regular file`);
    await writeFile(join(dir, 'real.md'), '# Runbook\n');
    await symlink(join(dir, 'real.md'), join(dir, 'linked.md'));
    expect((await readTextFile(join(dir, 'linked.md')))._unsafeUnwrap()).toBe('# Runbook\n');
  });
});
