/**
 * Issue 12 item 1 through the CLI as a real process: the GChat poller marks each reply answered as
 * it hands it out, so a `cycle` SIGKILLed after the poll but before its state save used to lose
 * the reply. The kill points are chosen, not random: a command sink that blocks (before or after
 * recording the delivery) holds the cycle exactly between the poll and the save.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventually, isAlive } from '../../core/test/support/processes.js';
import { useBuiltCli, useCliWorlds, type BinProcess } from './support/cli-world.js';
import { WORLD_HEARTBEAT_MD, type World } from './support/world.js';

const cli = useBuiltCli();
// A test that fails or times out midway leaves its hanging poller (a group of its own, which the
// killed cycle cannot take down), a blocked sink or the cycle itself running: every process
// started in the world's directory is ended after each test, and none may be left.
const newWorld = useCliWorlds({ endProcesses: true });

// Hands out each queued reply once (the first in the queue) and records it, like the real poller.
// In "hang" mode it writes its pid once its output is written and hangs: the cycle can then be
// killed after the poller printed and before anything of the cycle saw the reply.
const POLL = `import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
const dir = process.argv[2];
const queue = JSON.parse(readFileSync(dir + '/queue.json', 'utf8'));
const reply = queue.shift();
writeFileSync(dir + '/queue.json', JSON.stringify(queue));
if (reply) appendFileSync(dir + '/handed.jsonl', JSON.stringify(reply) + '\\n');
const hang = existsSync(dir + '/poll-mode') && readFileSync(dir + '/poll-mode', 'utf8').trim() === 'hang';
process.stdout.write(JSON.stringify({ replies: reply ? [reply] : [], pending_count: 0 }), () => {
  if (!hang) return;
  writeFileSync(dir + '/poll.pid', String(process.pid));
  setInterval(() => {}, 1 << 30);
});
`;
// Records each delivered message; in a "block-*" mode it writes its pid and hangs before or after.
const SINK = `import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
const dir = process.argv[2];
let input = '';
process.stdin.on('data', (d) => (input += d));
process.stdin.on('end', () => {
  const mode = readFileSync(dir + '/sink-mode', 'utf8').trim();
  const record = () => appendFileSync(dir + '/delivered.jsonl', JSON.stringify({ content: input }) + '\\n');
  if (mode !== 'block-before') record();
  if (mode === 'normal') return;
  writeFileSync(dir + '/sink.pid', String(process.pid));
  setInterval(() => {}, 1 << 30);
});
`;

interface Harness {
  readonly world: World;
  readonly dir: string;
  readonly statePath: string;
  readonly queue: (questionIds: readonly string[]) => void;
  readonly mode: (mode: 'normal' | 'block-before' | 'block-after') => void;
  readonly handed: () => string[];
  readonly delivered: () => string[];
  readonly cycle: () => Promise<number | null>;
  readonly cycleKilledInSink: () => Promise<void>;
  /** Kills `cycle` once the poller has printed and hangs; returns the poller's pid (still running). */
  readonly cycleKilledAfterPoll: () => Promise<number>;
  readonly spools: () => string[];
}

/** A world whose HEARTBEAT.md polls GChat with {@link POLL} and whose cycles deliver to {@link SINK}. */
function harness(): Harness {
  const w = newWorld();
  const dir = join(w.root, 'gchat');
  mkdirSync(dir);
  writeFileSync(join(dir, 'poll.mjs'), POLL);
  writeFileSync(join(dir, 'sink.mjs'), SINK);
  writeFileSync(join(dir, 'queue.json'), '[]');
  writeFileSync(
    join(w.project, '.claude', 'HEARTBEAT.md'),
    `${WORLD_HEARTBEAT_MD}\n## GChat\n- Poll command: ${JSON.stringify([process.execPath, join(dir, 'poll.mjs'), dir])}\n`,
  );
  const statePath = join(w.root, 'state', 'state.json');
  const lines = (file: string): string[] =>
    existsSync(join(dir, file)) ? readFileSync(join(dir, file), 'utf8').split('\n').filter(Boolean) : [];
  const start = (): BinProcess =>
    cli.spawn(
      [
        'cycle',
        '--cwd',
        w.project,
        '--tmux-socket',
        w.tmuxSocket,
        '--state',
        statePath,
        '--sink',
        `command:${process.execPath} ${join(dir, 'sink.mjs')} ${dir}`,
      ],
      { ...process.env, ...w.env, TMUX: '' },
    );
  /** Starts `cycle`, SIGKILLs it once a process it started wrote its pid to `pidFile`, and returns that pid. */
  const killedOnceWritten = async (pidFile: string): Promise<number> => {
    rmSync(join(dir, pidFile), { force: true });
    const cycle = start();
    expect(await eventually(() => existsSync(join(dir, pidFile)) && readFileSync(join(dir, pidFile), 'utf8') !== '', 500_000)).toBe(true);
    cycle.child.kill('SIGKILL');
    // On the cycle's exit: the hanging process it started still holds its pipes.
    await cycle.exited;
    return Number(readFileSync(join(dir, pidFile), 'utf8'));
  };
  return {
    world: w,
    dir,
    statePath,
    queue: (ids) =>
      writeFileSync(
        join(dir, 'queue.json'),
        JSON.stringify(ids.map((id) => ({ question_id: id, session_id: 's-1', reply_text: `answer to ${id}`, sender_name: 'Ana' }))),
      ),
    mode: (mode) => writeFileSync(join(dir, 'sink-mode'), mode),
    handed: () => lines('handed.jsonl').map((l) => (JSON.parse(l) as { question_id: string }).question_id),
    delivered: () => lines('delivered.jsonl').map((l) => (JSON.parse(l) as { content: string }).content),
    cycle: () => start().exited,
    cycleKilledAfterPoll: async () => {
      writeFileSync(join(dir, 'poll-mode'), 'hang');
      const poller = await killedOnceWritten('poll.pid');
      writeFileSync(join(dir, 'poll-mode'), 'normal');
      return poller;
    },
    spools: () =>
      existsSync(join(w.root, 'state')) ? readdirSync(join(w.root, 'state')).filter((name) => name.includes('gchat-spool')) : [],
    cycleKilledInSink: async () => {
      process.kill(await killedOnceWritten('sink.pid'), 'SIGKILL');
    },
  };
}

describe('a SIGKILLed cycle and the GChat replies it had read', () => {
  it('killed after the poll, before delivery and save: the next cycle delivers the reply from the inbox', async () => {
    const h = harness();
    h.queue(['q-1']);
    h.mode('block-before');
    await h.cycleKilledInSink();
    expect(h.handed()).toEqual(['q-1']);
    expect(h.delivered()).toEqual([]);
    // The poller will never hand q-1 out again; only the inbox beside the state still has it.
    expect(readFileSync(join(h.world.root, 'state', 'state.inbox.json'), 'utf8')).toContain('q-1');
    h.mode('normal');
    expect(await h.cycle()).toBe(0);
    expect(h.delivered()).toHaveLength(1);
    expect(h.delivered()[0]).toContain('answer to q-1');
    expect(existsSync(join(h.world.root, 'state', 'state.inbox.json'))).toBe(false);
  }, 900_000);

  it('killed after delivery, before the save: delivered again once (at least once), then never more', async () => {
    const h = harness();
    h.queue(['q-2']);
    h.mode('block-after');
    await h.cycleKilledInSink();
    expect(h.delivered()).toHaveLength(1);
    h.mode('normal');
    expect(await h.cycle()).toBe(0);
    expect(h.delivered()).toHaveLength(2);
    // The same report again (only the cycle's timestamp differs); receivers dedup by its message id.
    expect(h.delivered().map((m) => m.includes('answer to q-2'))).toEqual([true, true]);
    expect(await h.cycle()).toBe(0);
    expect(h.delivered()).toHaveLength(2);
    expect(h.handed()).toEqual(['q-2']);
  }, 900_000);

  it('killed after the poller printed and before the inbox write: the reply waits in the spool and the next cycle delivers it once', async () => {
    const h = harness();
    h.queue(['q-3']);
    h.mode('normal');
    const poller = await h.cycleKilledAfterPoll();
    process.kill(poller, 'SIGKILL');
    await eventually(() => !isAlive(poller), 500_000);
    expect(h.handed()).toEqual(['q-3']);
    // Not in the inbox yet: the cycle died before it read the poller's output; the kernel had written it to the spool.
    expect(existsSync(join(h.world.root, 'state', 'state.inbox.json'))).toBe(false);
    expect(h.spools()).toHaveLength(1);
    expect(await h.cycle()).toBe(0);
    expect(h.delivered()).toHaveLength(1);
    expect(h.delivered()[0]).toContain('answer to q-3');
    expect(h.spools()).toEqual([]);
    expect(await h.cycle()).toBe(0);
    expect(h.delivered()).toHaveLength(1);
    expect(existsSync(join(h.world.root, 'state', 'state.inbox.json'))).toBe(false);
  }, 900_000);

  it('a poller still running when the next cycle starts: its spool is left alone until it exits, then delivered once', async () => {
    const h = harness();
    h.queue(['q-4']);
    h.mode('normal');
    const poller = await h.cycleKilledAfterPoll();
    expect(await h.cycle()).toBe(0);
    expect(h.delivered().join('')).not.toContain('q-4');
    expect(h.spools()).toHaveLength(1);
    process.kill(poller, 'SIGKILL');
    await eventually(() => !isAlive(poller), 500_000);
    expect(await h.cycle()).toBe(0);
    expect(h.delivered().filter((m) => m.includes('answer to q-4'))).toHaveLength(1);
    expect(h.spools()).toEqual([]);
    expect(await h.cycle()).toBe(0);
    expect(h.delivered().filter((m) => m.includes('answer to q-4'))).toHaveLength(1);
  }, 900_000);
});
