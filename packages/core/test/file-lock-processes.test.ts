/**
 * Must show: the file lock holds between real processes. Racers are long-lived forked children
 * running the real adapter (bundled from src), so each race costs IPC, not process start-up.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonLockCodec } from '../src/lock/lock-codecs.js';
import type { Acquired, LockError } from '../src/ports/lock-store.js';
import type { RacerCommand, RacerReply } from './children/lock-racer.js';
import { bundleChild, type BundledChild } from './support/bundle-child.js';

const RACERS = 24;
const HOUR = 3_600_000;

interface Racer {
  readonly child: ChildProcess;
  readonly run: (command: Exclude<RacerCommand, { op: 'exit' }>) => Promise<RacerReply>;
}

let bundle: BundledChild;
let racers: Racer[] = [];
let root: string;
let nextId = 0;

function startRacer(file: string): Promise<Racer> {
  const child = fork(file, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const pending = new Map<number, (reply: RacerReply) => void>();
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.on('message', (message) => {
      if (message === 'ready') {
        resolve({
          child,
          run: (command) =>
            new Promise<RacerReply>((done) => {
              pending.set(command.id, done);
              child.send(command);
            }),
        });
        return;
      }
      const reply = message as RacerReply;
      pending.get(reply.id)?.(reply);
      pending.delete(reply.id);
    });
  });
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'hb-core-lock-race-'));
  bundle = await bundleChild(fileURLToPath(new URL('./children/lock-racer.ts', import.meta.url)));
  racers = await Promise.all(Array.from({ length: RACERS }, () => startRacer(bundle.file)));
});

afterAll(async () => {
  await Promise.all(
    racers.map(
      (racer) =>
        new Promise<void>((resolve) => {
          if (racer.child.exitCode !== null) return resolve();
          racer.child.once('exit', () => resolve());
          racer.child.send({ op: 'exit' } satisfies RacerCommand);
        }),
    ),
  );
  bundle.dispose();
  rmSync(root, { recursive: true, force: true });
});

function acquireAll(group: readonly Racer[], path: string, nowMs: number, staleAfterMs: number): Promise<RacerReply[]> {
  const at = Date.now() + 100;
  return Promise.all(
    group.map((racer, index) =>
      racer.run({ op: 'acquire', id: (nextId += 1), path, owner: `racer-${index}-pid-${racer.child.pid}`, nowMs, staleAfterMs, at }),
    ),
  );
}

function readHolder(path: string): string {
  return jsonLockCodec.decode(readFileSync(path, 'utf8'))._unsafeUnwrap().owner;
}

function leftovers(dir: string): string[] {
  return readdirSync(dir).filter((name) => name !== 'lock');
}

describe('file lock across processes', () => {
  it(`${RACERS} processes race for a free lock: exactly one owner`, async () => {
    const dir = mkdtempSync(join(root, 'free-'));
    const path = join(dir, 'lock');
    const replies = await acquireAll(racers, path, Date.now(), HOUR);
    const winners = replies.filter((reply) => reply.ok);
    expect(winners).toHaveLength(1);
    for (const loser of replies.filter((reply) => !reply.ok)) expect((loser.value as LockError).kind).toBe('held');
    const winner = (winners[0]!.value as Acquired).record.owner;
    expect(readHolder(path)).toBe(winner);
    // Every loser saw the winner as the holder.
    for (const loser of replies.filter((reply) => !reply.ok))
      expect((loser.value as Extract<LockError, { kind: 'held' }>).holder.owner).toBe(winner);
    expect(leftovers(dir)).toEqual([]);
  });

  it('racers on a stale lock: exactly one winner, every round', async () => {
    const rounds: Array<{ readonly size: number }> = [
      ...Array.from({ length: 10 }, () => ({ size: 2 })),
      ...Array.from({ length: 8 }, () => ({ size: 8 })),
      ...Array.from({ length: 4 }, () => ({ size: RACERS })),
    ];
    for (const [round, { size }] of rounds.entries()) {
      const dir = mkdtempSync(join(root, `stale-${round}-`));
      const path = join(dir, 'lock');
      const nowMs = Date.now();
      writeFileSync(path, jsonLockCodec.encode({ owner: `dead-beat-${round}`, acquiredAtMs: nowMs - 2 * HOUR }));
      const group = racers
        .slice(round % 3, (round % 3) + size)
        .concat(racers)
        .slice(0, size);
      const replies = await acquireAll(group, path, nowMs, HOUR);
      const winners = replies.filter((reply) => reply.ok);
      expect(winners, `round ${round} with ${size} racers`).toHaveLength(1);
      const won = winners[0]!.value as Acquired;
      // The racer that removed the stale file need not be the one whose create lands first; the
      // winner says whom it replaced either way.
      expect(won.tookOverFrom?.owner).toBe(`dead-beat-${round}`);
      expect(readHolder(path)).toBe(won.record.owner);
      for (const loser of replies.filter((reply) => !reply.ok)) expect((loser.value as LockError).kind).toBe('held');
      expect(leftovers(dir)).toEqual([]);
    }
  });

  it("a non-owner process's release leaves the lock; the owner's release removes it", async () => {
    const dir = mkdtempSync(join(root, 'release-'));
    const path = join(dir, 'lock');
    const [owner, other] = [racers[0]!, racers[1]!];
    const acquired = await owner.run({
      op: 'acquire',
      id: (nextId += 1),
      path,
      owner: 'beat-owner',
      nowMs: Date.now(),
      staleAfterMs: HOUR,
      at: 0,
    });
    expect(acquired.ok).toBe(true);
    const foreign = await other.run({ op: 'release', id: (nextId += 1), path, owner: 'beat-intruder', at: 0 });
    expect(foreign).toMatchObject({ ok: true, value: 'not-owner' });
    expect(readHolder(path)).toBe('beat-owner');
    const own = await owner.run({ op: 'release', id: (nextId += 1), path, owner: 'beat-owner', at: 0 });
    expect(own).toMatchObject({ ok: true, value: 'released' });
    expect(readdirSync(dir)).toEqual([]);
  });
});
