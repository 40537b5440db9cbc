import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createFinding } from '../domain/finding.js';
import { createFileReplyInbox, inboxPathFor } from './file-reply-inbox.js';

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

  it('an emptied inbox leaves no file and no temp files behind', async () => {
    const path = join(root, 'b', 'state.inbox.json');
    const inbox = createFileReplyInbox({ path });
    const held = (await inbox.add([reply], new Date(0)))._unsafeUnwrap().entries;
    (await inbox.remove(held.map((e) => e.id)))._unsafeUnwrap();
    expect(existsSync(path)).toBe(false);
    expect(readdirSync(join(root, 'b'))).toEqual([]);
  });
});
