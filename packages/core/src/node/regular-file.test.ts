import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { heldFifo } from '../../test/support/fifo.js';
import { NotRegularFileError, openRegularFileForAppend, readRegularFile } from './regular-file.js';

const root = mkdtempSync(join(tmpdir(), 'hb-regular-file-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const fresh = (): string => join(root, `f-${(n += 1)}`);
const fifo = (): string => {
  const path = fresh();
  heldFifo(path);
  return path;
};
const refusal = async (promise: Promise<unknown>): Promise<NotRegularFileError> => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(NotRegularFileError);
  return error as NotRegularFileError;
};

describe('readRegularFile', () => {
  it('reads a regular file; a missing one is ENOENT as with readFile', async () => {
    const path = fresh();
    writeFileSync(path, 'héllo\n');
    expect(await readRegularFile(path)).toBe('héllo\n');
    await expect(readRegularFile(fresh())).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses a FIFO without reading it (a plain read waits for a writer, then for data), naming the path and the fix', async () => {
    const path = fifo();
    const error = await refusal(readRegularFile(path));
    expect(error).toMatchObject({ code: 'ENOTREGULAR', path, kind: 'FIFO (named pipe)' });
    expect(error.message).toBe(
      `${path} is a FIFO (named pipe), not a regular file; reading or writing one can block forever. Fix: move it away or replace it with a regular file.`,
    );
    // Through a link too, when links are followed.
    const link = fresh();
    symlinkSync(path, link);
    expect((await refusal(readRegularFile(link, { followSymlinks: true }))).kind).toBe('FIFO (named pipe)');
  });

  it('refuses a directory, a character device and a socket', async () => {
    const dir = fresh();
    mkdirSync(dir);
    expect((await refusal(readRegularFile(dir))).kind).toBe('directory');
    expect((await refusal(readRegularFile('/dev/zero'))).kind).toBe('character device');
    const socketPath = fresh();
    const server: Server = createServer();
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    try {
      expect((await refusal(readRegularFile(socketPath))).kind).toBe('socket');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('a symbolic link is refused unless followSymlinks (user config), which reads its target', async () => {
    const target = fresh();
    writeFileSync(target, 'linked');
    const link = fresh();
    symlinkSync(target, link);
    expect((await refusal(readRegularFile(link))).kind).toBe('symbolic link');
    expect(await readRegularFile(link, { followSymlinks: true })).toBe('linked');
  });
});

describe('openRegularFileForAppend', () => {
  it('creates and appends to a regular file', async () => {
    const path = fresh();
    for (const line of ['a\n', 'b\n']) {
      const handle = await openRegularFileForAppend(path);
      await handle.writeFile(line);
      await handle.close();
    }
    expect(readFileSync(path, 'utf8')).toBe('a\nb\n');
  });

  it('refuses a FIFO (a plain open for writing waits for a reader), a directory and a link', async () => {
    expect((await refusal(openRegularFileForAppend(fifo()))).kind).toBe('FIFO (named pipe)');
    const dir = fresh();
    mkdirSync(dir);
    expect((await refusal(openRegularFileForAppend(dir))).kind).toBe('directory');
    const link = fresh();
    symlinkSync(fresh(), link);
    expect((await refusal(openRegularFileForAppend(link))).kind).toBe('symbolic link');
  });
});
