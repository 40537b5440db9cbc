import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_HEARTBEAT_CONFIG } from '../config/heartbeat-config-schema.js';
import { decodeHeartbeatState } from '../cycle/heartbeat-state.js';
import { evaluateCycle } from '../cycle/evaluate-cycle.js';
import { scanOk } from '../domain/scan-result.js';
import { ACK_BOOK_VERSION, type AckBook } from '../operator/ack-book.js';
import { ackPathFor, createFileAckStore } from './file-ack-store.js';
import { createFinding } from '../../test/support/cobuilder-categories.js';

const root = mkdtempSync(join(tmpdir(), 'hb-ack-store-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// The built adapter, as the CLI runs it (vitest's global setup builds the packages first).
const BUILT_NODE = pathToFileURL(resolve(import.meta.dirname, '../../dist/node/index.js')).href;

const stale = createFinding({
  category: 'GIT_STALE',
  subject: '/w/x',
  line: 'STALE: /w/x',
  action: 'commit',
  short: 'x',
  details: { branch: 'x' },
});
const held: AckBook = {
  version: ACK_BOOK_VERSION,
  acks: [
    {
      id: 'ack-1',
      selector: stale.fingerprint,
      match: { kind: 'fingerprint', fingerprint: stale.fingerprint },
      note: 'rebasing',
      by: 'alice',
      at: '2026-02-19T14:00:00.000Z',
      snooze: false,
    },
  ],
};

/** Saves `book` in a child process that is SIGKILLed after the temp file is durable, before the rename. */
async function saveKilledBeforeRename(path: string, book: AckBook): Promise<void> {
  const script = `
    const { createFileAckStore } = await import(${JSON.stringify(BUILT_NODE)});
    const store = createFileAckStore({
      path: ${JSON.stringify(path)},
      beforeRename: () => { process.stdout.write('renaming\\n'); return new Promise(() => {}); },
    });
    await store.save(${JSON.stringify(book)});
    process.stdout.write('saved\\n');`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  await new Promise<void>((done, fail) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('renaming\n')) child.kill('SIGKILL');
    });
    child.on('exit', (_code, signal) => (signal === 'SIGKILL' ? done() : fail(new Error(`child ended without the kill: ${out}`))));
  });
}

const decide = (book: AckBook) =>
  evaluateCycle(decodeHeartbeatState(undefined).state, [scanOk('git', { findings: [stale] })], {
    now: new Date('2026-02-19T15:00:00Z'),
    config: DEFAULT_HEARTBEAT_CONFIG,
    timeZone: 'UTC',
    insideActiveHours: true,
    operatorLastActiveAt: undefined,
    acks: book.acks,
  }).decision;

describe('createFileAckStore', () => {
  it('keeps the acks beside the state file', () => {
    expect(ackPathFor('/x/heartbeat-kit/state.json')).toBe('/x/heartbeat-kit/state.acks.json');
    expect(ackPathFor('/x/hb')).toBe('/x/hb.acks.json');
  });

  it('a writer killed between write and rename leaves the previous book whole: a cycle decides on it, then on the next', async () => {
    const dir = join(root, 'killed');
    const path = join(dir, 'state.acks.json');
    const store = createFileAckStore({ path });
    (await store.save(held))._unsafeUnwrap();
    // An unack (an empty book) is killed after its temp file is durable, before its rename.
    await saveKilledBeforeRename(path, { version: ACK_BOOK_VERSION, acks: [] });
    expect(readdirSync(dir).some((name) => name.startsWith('.state.acks.json.tmp-'))).toBe(true);
    const after = (await store.load())._unsafeUnwrap();
    expect(after).toEqual({ book: held, warnings: [] });
    // The load swept the killed writer's temp file.
    expect(readdirSync(dir)).toEqual(['state.acks.json']);
    // The cycle reading now has the whole old book: the finding is held by the ack.
    const before = decide(after.book);
    expect(before.suppressed).toEqual([expect.objectContaining({ reason: 'ack', finding: stale })]);
    expect(before.message).toBeNull();
    // The unack written in full is in the next cycle's decision: the finding is reported.
    (await store.save({ version: ACK_BOOK_VERSION, acks: [] }))._unsafeUnwrap();
    expect(decide((await store.load())._unsafeUnwrap().book).reportable).toEqual([stale]);
  }, 900_000);

  it('a file that is not JSON holds nothing and says so; the next save replaces it', async () => {
    const path = join(root, 'bad', 'state.acks.json');
    const { mkdirSync, writeFileSync } = await import('node:fs');
    mkdirSync(join(root, 'bad'));
    writeFileSync(path, '{ not json');
    const store = createFileAckStore({ path });
    const loaded = (await store.load())._unsafeUnwrap();
    expect(loaded.book.acks).toEqual([]);
    expect(loaded.warnings[0]).toMatch(/is not valid JSON .* no ack holds anything/);
    (await store.save(held))._unsafeUnwrap();
    expect((await store.load())._unsafeUnwrap()).toEqual({ book: held, warnings: [] });
  });
});
