import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import {
  createFileLockStore,
  createFileOutputSpool,
  createFileReceiptStore,
  createFileReplyInbox,
  createFileStateStore,
  createFileAckStore,
} from '../../src/node/index.js';
import type { OutputSpool } from '../../src/ports/output-spool.js';
import type { Clock } from '../../src/ports/clock.js';
import type { ReplyInbox } from '../../src/ports/reply-inbox.js';
import {
  outputSpoolContract,
  replyInboxContract,
  receiptStoreContract,
  lockStoreContract,
  stateStoreContract,
  ackStoreContract,
} from '../../src/testing/index.js';

const root = mkdtempSync(join(tmpdir(), 'hb-core-contract-'));
let counter = 0;
const fresh = (name: string): string => join(root, `case-${(counter += 1)}`, name);
afterAll(() => rmSync(root, { recursive: true, force: true }));

await stateStoreContract('file', () => createFileStateStore({ path: fresh('state.json') }));
await ackStoreContract('file', () => createFileAckStore({ path: fresh('state.acks.json') }));
// The contract's holders are all this one process, so liveness cannot tell them apart: the age
// rule is what is exercised (`identity: false`); liveness has its own tests beside the adapter.
await lockStoreContract('file (JSON codec)', () => createFileLockStore({ path: fresh('heartbeat.lock'), identity: false }));
await lockStoreContract('file (JSON codec, identity of another host)', () =>
  createFileLockStore({ path: fresh('heartbeat.lock'), identity: { pid: 1, host: 'elsewhere.invalid' } }),
);
await receiptStoreContract('file', (bounds, clock) => createFileReceiptStore({ directory: fresh('state.receipts'), bounds, clock }));

const inboxPaths = new WeakMap<ReplyInbox, string>();
await replyInboxContract('file', {
  makeInbox: () => {
    const path = fresh('state.inbox.json');
    const inbox = createFileReplyInbox({ path });
    inboxPaths.set(inbox, path);
    return inbox;
  },
  // A new adapter on the same file: what the next process would read.
  reopen: (inbox) => createFileReplyInbox({ path: inboxPaths.get(inbox) ?? '' }),
});

const spoolDirectories = new WeakMap<OutputSpool, { directory: string; maxReadBytes?: number }>();
const fileSpool = (where: { directory: string; maxReadBytes?: number }, clock?: Clock): OutputSpool => {
  const spool = createFileOutputSpool({ ...where, prefix: 'state.gchat-spool', ...(clock === undefined ? {} : { clock }) });
  spoolDirectories.set(spool, where);
  return spool;
};
await outputSpoolContract('file', {
  makeSpool: (clock, maxReadBytes) =>
    fileSpool({ directory: fresh('spools'), ...(maxReadBytes === undefined ? {} : { maxReadBytes }) }, clock),
  reopen: (spool, clock) => fileSpool(spoolDirectories.get(spool) ?? { directory: '' }, clock),
  // The descriptor the child would inherit; this process keeps it open, like a cycle killed before collect.
  write: (_spool, opened, text) => void writeSync(opened.stdout.fd, text),
  // A real process group (the runner starts each child as a group leader): liveness is the kernel's.
  startWriter: () =>
    new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], { detached: true, stdio: 'ignore' });
      child.once('error', reject);
      child.once('spawn', () =>
        resolve({
          pid: child.pid ?? 0,
          // Resolves once the kernel has reaped it: from then on, its group is gone.
          stop: () =>
            new Promise<void>((done) => {
              child.once('exit', () => done());
              process.kill(-(child.pid ?? 0), 'SIGKILL');
            }),
        }),
      );
    }),
});
