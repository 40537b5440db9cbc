import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { heldFifo } from '../../../core/test/support/fifo.js';
import { createDirectoryWorkspace, createFileBeatLog, createPathToolProbe } from './file-adapters.js';

const dir = mkdtempSync(join(tmpdir(), 'woterclip-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('createFileBeatLog', () => {
  it('a torn last line on disk is tolerated when read and does not corrupt the next append', async () => {
    const path = join(dir, 'log', 'heartbeat-log.jsonl');
    const log = createFileBeatLog(path);
    (
      await log.append({ type: 'beat', started_at: 'a', ended_at: 'b', beat_elapsed_sec: 1, issues_worked: 0, stop_reason: 'queue_empty' })
    )._unsafeUnwrap();
    writeFileSync(path, `${readFileSync(path, 'utf8')}{"heartbeat": 3, "times`);
    const torn = (await log.read())._unsafeUnwrap();
    expect(torn.lines).toHaveLength(1);
    expect(torn.tornTail).toBe(true);
    (
      await log.append({ type: 'beat', started_at: 'c', ended_at: 'd', beat_elapsed_sec: 2, issues_worked: 0, stop_reason: 'complete' })
    )._unsafeUnwrap();
    const after = (await log.read())._unsafeUnwrap();
    expect(after.lines.map((l) => ('type' in l ? l.stop_reason : ''))).toEqual(['queue_empty', 'complete']);
    expect(after.tornTail).toBe(false);
  });

  // Issue 25 item 6: a FIFO here blocked `woterclip status` (the read) and a beat (the append) forever.
  it('a FIFO at the log is refused with an error naming it, for reading and appending', async () => {
    mkdirSync(join(dir, 'fifo-log'));
    const path = join(dir, 'fifo-log', 'heartbeat-log.jsonl');
    heldFifo(path);
    const log = createFileBeatLog(path);
    expect((await log.read())._unsafeUnwrapErr().message).toContain(`${path} is a FIFO (named pipe), not a regular file`);
    const appended = await log.append({
      type: 'beat',
      started_at: 'a',
      ended_at: 'b',
      beat_elapsed_sec: 1,
      issues_worked: 0,
      stop_reason: 'queue_empty',
    });
    expect(appended._unsafeUnwrapErr().message).toContain(`${path} is a FIFO (named pipe), not a regular file`);
  });

  it('a missing log reads as empty', async () => {
    expect((await createFileBeatLog(join(dir, 'none.jsonl')).read())._unsafeUnwrap().lines).toEqual([]);
  });
});

describe('createDirectoryWorkspace / createPathToolProbe', () => {
  it('reads inside the directory, missing files are undefined, escapes are refused', async () => {
    writeFileSync(join(dir, 'config.yaml'), 'version: 2\n');
    const files = createDirectoryWorkspace(dir);
    expect((await files.readText('config.yaml'))._unsafeUnwrap()).toBe('version: 2\n');
    expect((await files.readText('nope.yaml'))._unsafeUnwrap()).toBeUndefined();
    expect((await files.readText('../../etc/passwd')).isErr()).toBe(true);
  });

  it('a file whose real path leaves the repository is a typed error naming it; links inside are read', async () => {
    const repo = join(dir, 'repo');
    mkdirSync(join(repo, '.woterclip', 'personas', 'p'), { recursive: true });
    writeFileSync(join(dir, 'outside.txt'), 'secret');
    writeFileSync(join(repo, 'inside.md'), 'soul');
    symlinkSync(join(dir, 'outside.txt'), join(repo, '.woterclip', 'personas', 'p', 'SOUL.md'));
    symlinkSync(join(repo, 'inside.md'), join(repo, '.woterclip', 'personas', 'p', 'TOOLS.md'));
    symlinkSync(join(dir, 'outside.txt'), join(repo, 'hop.md'));
    symlinkSync(join(repo, 'hop.md'), join(repo, '.woterclip', 'personas', 'p', 'config.yaml'));
    const files = createDirectoryWorkspace(join(repo, '.woterclip'));
    const soul = (await files.readText('personas/p/SOUL.md'))._unsafeUnwrapErr();
    expect(soul).toMatchObject({ kind: 'outside-repository', path: 'personas/p/SOUL.md' });
    expect(soul.message).not.toContain('secret');
    expect((await files.readText('personas/p/TOOLS.md'))._unsafeUnwrap()).toBe('soul');
    expect((await files.readText('personas/p/config.yaml'))._unsafeUnwrapErr().kind).toBe('outside-repository');
  });

  it('a FIFO at config.yaml is refused with an error naming it, never read', async () => {
    const root = join(dir, 'fifo-ws', '.woterclip');
    mkdirSync(root, { recursive: true });
    heldFifo(join(root, 'config.yaml'));
    const read = await createDirectoryWorkspace(root).readText('config.yaml');
    expect(read._unsafeUnwrapErr().message).toContain('config.yaml is a FIFO (named pipe), not a regular file');
  });

  it('finds executables on PATH without a shell', async () => {
    const probe = createPathToolProbe(process.env.PATH);
    expect((await probe.hasExecutable('node'))._unsafeUnwrap()).toBe(true);
    expect((await probe.hasExecutable('definitely-not-a-tool-x9'))._unsafeUnwrap()).toBe(false);
    expect((await probe.hasExecutable('; rm -rf /'))._unsafeUnwrap()).toBe(false);
  });
});
