import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OutboundMessage } from '../ports/sink.js';
import { agentInboxMessageId, claimAgentInbox, createAgentInboxSink, listAgentInbox } from './agent-inbox.js';

const message = (n: number, extra: Partial<OutboundMessage> = {}): OutboundMessage => ({
  kind: 'work_found',
  content: `WORK_FOUND: thing ${n}`,
  summary: `thing ${n}`,
  at: `2026-02-19T14:0${n}:00.000Z`,
  id: `hb-${n}`,
  ...extra,
});

/** Makes `dir` unwritable even for root (the immutable attribute), or by mode for anyone else. */
function makeUnwritable(dir: string): () => void {
  if (process.getuid?.() === 0) {
    const set = spawnSync('chattr', ['+i', dir]);
    if (set.status !== 0) throw new Error(`chattr +i ${dir} failed: ${set.stderr.toString()}`);
    return () => void spawnSync('chattr', ['-i', dir]);
  }
  chmodSync(dir, 0o555);
  return () => chmodSync(dir, 0o755);
}

let root: string;
let inbox: string;
const undo: (() => void)[] = [];
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'hb-agent-inbox-'));
  inbox = join(root, 'inbox');
});
afterEach(() => {
  for (const each of undo.splice(0)) each();
  rmSync(root, { recursive: true, force: true });
});

const waitingFiles = (): string[] => readdirSync(inbox).filter((name) => name.endsWith('.json'));

describe('createAgentInboxSink', () => {
  it('keeps each message as one synced file named by its id; the same id again is still one file', async () => {
    const sink = createAgentInboxSink({ directory: inbox });
    expect(sink.name).toBe('inbox');
    (await sink.deliver(message(1)))._unsafeUnwrap();
    (await sink.deliver(message(1)))._unsafeUnwrap();
    (await sink.deliver(message(2)))._unsafeUnwrap();
    expect(waitingFiles().sort()).toEqual(['hb-1.json', 'hb-2.json']);
    expect(JSON.parse(readFileSync(join(inbox, 'hb-1.json'), 'utf8'))).toEqual({ version: 1, id: 'hb-1', message: message(1) });
    // No temp sibling is left behind.
    expect(readdirSync(inbox).filter((name) => name.startsWith('.'))).toEqual([]);
  });

  it('does not write again an id already delivered (a retried cycle)', async () => {
    const sink = createAgentInboxSink({ directory: inbox });
    (await sink.deliver(message(1)))._unsafeUnwrap();
    const claim = (await claimAgentInbox(inbox))._unsafeUnwrap();
    (await claim.markDelivered(['hb-1']))._unsafeUnwrap();
    (await sink.deliver(message(1)))._unsafeUnwrap();
    expect(waitingFiles()).toEqual([]);
  });

  it('keeps a message without an id under a hash of what it says, and an unsafe id under a hash of the id', async () => {
    const sink = createAgentInboxSink({ directory: inbox });
    const { id: _id, ...plain } = message(1);
    (await sink.deliver(plain))._unsafeUnwrap();
    (await sink.deliver(message(2, { id: '../../escape/me' })))._unsafeUnwrap();
    const listed = (await listAgentInbox(inbox))._unsafeUnwrap();
    expect(listed.problems).toEqual([]);
    expect(listed.waiting.map((m) => m.id)).toEqual([agentInboxMessageId(plain), '../../escape/me']);
    expect(agentInboxMessageId(plain)).toMatch(/^hb-msg-[0-9a-f]{20}$/);
    expect(existsSync(join(root, 'escape'))).toBe(false);
    expect(waitingFiles().every((name) => /^[A-Za-z0-9][A-Za-z0-9_-]*\.json$/.test(name))).toBe(true);
  });

  it('fails naming the path and the fix when the inbox is a file', async () => {
    writeFileSync(inbox, 'x');
    const error = (await createAgentInboxSink({ directory: inbox }).deliver(message(1)))._unsafeUnwrapErr();
    expect(error.kind).toBe('delivery-failed');
    expect(error.message).toContain(`${inbox} is not a directory. Fix:`);
    expect(readFileSync(inbox, 'utf8')).toBe('x');
  });

  it('fails naming the path and the fix when the inbox cannot be written', async () => {
    mkdirSync(inbox);
    undo.push(makeUnwritable(inbox));
    const error = (await createAgentInboxSink({ directory: inbox }).deliver(message(1)))._unsafeUnwrapErr();
    expect(error.message).toContain(inbox);
    expect(error.message).toContain('Fix:');
    expect(error.code).toMatch(/^E[A-Z]+$/);
  });
});

describe('claimAgentInbox', () => {
  it('a missing inbox has nothing waiting', async () => {
    expect((await claimAgentInbox(inbox))._unsafeUnwrap().waiting).toEqual([]);
    expect((await listAgentInbox(inbox))._unsafeUnwrap()).toEqual({ waiting: [], problems: [], exists: false });
  });

  it('claims in arrival order, marks exactly the given ids delivered and puts the rest back', async () => {
    const sink = createAgentInboxSink({ directory: inbox });
    for (const n of [3, 1, 2]) (await sink.deliver(message(n)))._unsafeUnwrap();
    const claim = (await claimAgentInbox(inbox))._unsafeUnwrap();
    expect(claim.waiting.map((m) => m.id)).toEqual(['hb-1', 'hb-2', 'hb-3']);
    // While claimed, nothing is waiting for another drain.
    expect((await listAgentInbox(inbox))._unsafeUnwrap().waiting).toEqual([]);
    (await claim.markDelivered(['hb-1', 'hb-2']))._unsafeUnwrap();
    (await claim.release(['hb-3']))._unsafeUnwrap();
    expect(readdirSync(join(inbox, 'delivered')).sort()).toEqual(['hb-1.json', 'hb-2.json']);
    expect((await listAgentInbox(inbox))._unsafeUnwrap().waiting.map((m) => m.id)).toEqual(['hb-3']);
  });

  it('two concurrent drains never take the same message', async () => {
    const sink = createAgentInboxSink({ directory: inbox });
    for (const n of [1, 2, 3, 4]) (await sink.deliver(message(n)))._unsafeUnwrap();
    const [a, b] = await Promise.all([claimAgentInbox(inbox), claimAgentInbox(inbox)]);
    const ids = [...a._unsafeUnwrap().waiting, ...b._unsafeUnwrap().waiting].map((m) => m.id).sort();
    expect(ids).toEqual(['hb-1', 'hb-2', 'hb-3', 'hb-4']);
  });

  it('puts back what a dead drain had claimed (killed between print and mark): the next drain gets it', async () => {
    (await createAgentInboxSink({ directory: inbox }).deliver(message(1)))._unsafeUnwrap();
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    const pid = Number(dead.stdout.toString());
    mkdirSync(join(inbox, '.claimed'));
    const { renameSync } = await import('node:fs');
    renameSync(join(inbox, 'hb-1.json'), join(inbox, '.claimed', `${pid}-hb-1.json`));
    expect((await listAgentInbox(inbox))._unsafeUnwrap().waiting).toEqual([]);
    expect((await claimAgentInbox(inbox))._unsafeUnwrap().waiting.map((m) => m.id)).toEqual(['hb-1']);
  });

  it('drops a waiting copy of an id already delivered instead of handing it out again', async () => {
    const sink = createAgentInboxSink({ directory: inbox });
    (await sink.deliver(message(1)))._unsafeUnwrap();
    (await (await claimAgentInbox(inbox))._unsafeUnwrap().markDelivered(['hb-1']))._unsafeUnwrap();
    // A copy that raced the mark (written while the drain held it).
    writeFileSync(join(inbox, 'hb-1.json'), `${JSON.stringify({ version: 1, id: 'hb-1', message: message(1) })}\n`);
    expect((await claimAgentInbox(inbox))._unsafeUnwrap().waiting).toEqual([]);
    expect(waitingFiles()).toEqual([]);
  });

  it('removes delivered marks older than keepDeliveredMs, keeps younger ones', async () => {
    const sink = createAgentInboxSink({ directory: inbox });
    for (const n of [1, 2]) (await sink.deliver(message(n)))._unsafeUnwrap();
    (await (await claimAgentInbox(inbox))._unsafeUnwrap().markDelivered(['hb-1', 'hb-2']))._unsafeUnwrap();
    const old = new Date('2026-01-01T00:00:00Z');
    utimesSync(join(inbox, 'delivered', 'hb-1.json'), old, old);
    utimesSync(join(inbox, 'delivered', 'hb-2.json'), new Date('2026-01-30T00:00:00Z'), new Date('2026-01-30T00:00:00Z'));
    const nowMs = Date.parse('2026-02-01T00:00:00Z');
    (await claimAgentInbox(inbox, { nowMs, keepDeliveredMs: 10 * 24 * 3600_000 }))._unsafeUnwrap();
    expect(readdirSync(join(inbox, 'delivered'))).toEqual(['hb-2.json']);
  });

  it('leaves files that are not messages untouched and names each with the fix', async () => {
    (await createAgentInboxSink({ directory: inbox }).deliver(message(1)))._unsafeUnwrap();
    writeFileSync(join(inbox, 'notes.txt'), 'hello');
    writeFileSync(join(inbox, 'broken.json'), '{"version":');
    writeFileSync(join(inbox, 'other.json'), '{"version":1,"id":"x","message":{"kind":"nope"}}');
    writeFileSync(join(inbox, 'renamed.json'), `${JSON.stringify({ version: 1, id: 'hb-9', message: message(9) })}\n`);
    const claim = (await claimAgentInbox(inbox))._unsafeUnwrap();
    expect(claim.waiting.map((m) => m.id)).toEqual(['hb-1']);
    expect(claim.problems.map((p) => p.path).sort()).toEqual(
      ['broken.json', 'notes.txt', 'other.json', 'renamed.json'].map((n) => join(inbox, n)),
    );
    for (const problem of claim.problems) expect(problem.message).toMatch(/Fix: move it out of the inbox/);
    expect(readFileSync(join(inbox, 'broken.json'), 'utf8')).toBe('{"version":');
  });

  it('an inbox that is a file, or cannot be written, is an error naming the path and the fix; nothing is lost', async () => {
    writeFileSync(join(root, 'file'), 'x');
    const notDir = (await claimAgentInbox(join(root, 'file')))._unsafeUnwrapErr();
    expect(notDir).toMatchObject({ kind: 'not-a-directory', path: join(root, 'file') });
    expect((await listAgentInbox(join(root, 'file')))._unsafeUnwrapErr().kind).toBe('not-a-directory');

    (await createAgentInboxSink({ directory: inbox }).deliver(message(1)))._unsafeUnwrap();
    const restore = makeUnwritable(inbox);
    undo.push(restore);
    const io = (await claimAgentInbox(inbox))._unsafeUnwrapErr();
    expect(io.kind).toBe('io');
    expect(io.message).toContain(inbox);
    expect(io.message).toContain('Fix:');
    restore();
    undo.pop();
    expect((await claimAgentInbox(inbox))._unsafeUnwrap().waiting.map((m) => m.id)).toEqual(['hb-1']);
  });
});
