import { existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { heldFifo } from '../../test/support/fifo.js';
import { createFileReplyInbox, inboxPathFor } from './file-reply-inbox.js';
import { createFinding } from '../../test/support/cobuilder-categories.js';

const root = mkdtempSync(join(tmpdir(), 'hb-inbox-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const reply = createFinding({ category: 'GCHAT_REPLY_RECEIVED', subject: 'q-1', line: '- q-1', action: 'Answer', short: 'reply' });

describe('file reply inbox', () => {
  it('lives beside the state file, so it follows wherever the state is kept', () => {
    expect(inboxPathFor('/repo/.git/heartbeat-kit/state.json')).toBe('/repo/.git/heartbeat-kit/state.inbox.json');
    expect(inboxPathFor('/x/custom')).toBe('/x/custom.inbox.json');
  });

  it('sets an unreadable inbox aside with a warning instead of overwriting it', async () => {
    const path = join(root, 'a', 'state.inbox.json');
    const inbox = createFileReplyInbox({ path, clock: { now: () => new Date('2026-02-19T10:00:00Z') } });
    (await inbox.add([reply], new Date(0)))._unsafeUnwrap();
    writeFileSync(path, '{"version":1,"entries":[{"id":');
    const listed = (await inbox.add([reply], new Date(0)))._unsafeUnwrap();
    expect(listed.warnings[0]).toMatch(/was unreadable \(not JSON\); moved it to .*state\.inbox\.json\.corrupt-2026-02-19T10-00-00-000Z/);
    expect(listed.entries).toHaveLength(1);
    expect(readFileSync(`${path}.corrupt-2026-02-19T10-00-00-000Z`, 'utf8')).toContain('"entries"');
  });

  // Issue 25 item 6: a FIFO here blocked the read forever, with the cycle lock held.
  it('a FIFO or a link at the inbox is never read: set aside with a warning naming what it is', async () => {
    const path = join(root, 'fifo', 'state.inbox.json');
    const inbox = createFileReplyInbox({ path, clock: { now: () => new Date('2026-02-19T10:00:00Z') } });
    (await inbox.add([reply], new Date(0)))._unsafeUnwrap();
    rmSync(path);
    heldFifo(path);
    const listed = (await inbox.add([reply], new Date(0)))._unsafeUnwrap();
    expect(listed.warnings[0]).toContain(`Reply inbox ${path} was unreadable (a FIFO (named pipe), not a regular file); moved it to`);
    expect(lstatSync(`${path}.corrupt-2026-02-19T10-00-00-000Z`).isFIFO()).toBe(true);
    expect(listed.entries).toHaveLength(1);
    const secret = join(root, 'fifo', 'secret');
    writeFileSync(secret, 'root:x:0:0');
    rmSync(path);
    symlinkSync(secret, path);
    const linked = (await createFileReplyInbox({ path, clock: { now: () => new Date('2026-02-19T11:00:00Z') } }).list())._unsafeUnwrap();
    expect(linked.warnings[0]).toContain('(a symbolic link, not a regular file)');
    expect(JSON.stringify(linked)).not.toContain('root:');
  });

  it('an emptied inbox leaves no file and no temp files behind', async () => {
    const path = join(root, 'b', 'state.inbox.json');
    const inbox = createFileReplyInbox({ path });
    const held = (await inbox.add([reply], new Date(0)))._unsafeUnwrap().entries;
    (await inbox.remove(held.map((e) => e.id)))._unsafeUnwrap();
    expect(existsSync(path)).toBe(false);
    expect(readdirSync(join(root, 'b'))).toEqual([]);
  });
});
