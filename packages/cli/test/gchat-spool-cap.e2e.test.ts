/**
 * Issue 25, items 4 and 7, through the built CLI as a real process. The GChat poll prints into a
 * spool file beside the state, which bypassed the runner's 4 MiB output cap: a 700 MB output failed
 * with "Invalid string length" and was read again by every later cycle. A spool symlinked to a
 * secret file printed the file's first characters in the warning, and a spool naming a live but
 * unrelated process (pid reuse) was skipped for ever. (The 60 MB and 700 MB runs, with their peak
 * RSS, are in `pnpm stress gchat-spool-cap`.)
 */
import { spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBuiltCli, useCliWorlds } from './support/cli-world.js';
import { WORLD_HEARTBEAT_MD } from './support/world.js';

const cli = useBuiltCli();
const newWorld = useCliWorlds({ endProcesses: true });

// Prints what plan.json asks for once (small replies, then one reply of `bigBytes` characters), streamed
// as a real poller would, then resets the plan: the next run prints no reply.
const POLL = `import { readFileSync, writeFileSync } from 'node:fs';
const dir = process.argv[2];
const plan = JSON.parse(readFileSync(dir + '/plan.json', 'utf8'));
writeFileSync(dir + '/plan.json', JSON.stringify({ small: [], bigBytes: 0 }));
const write = (s) => new Promise((r) => (process.stdout.write(s) ? r() : process.stdout.once('drain', r)));
const reply = (id) => JSON.stringify({ question_id: id, session_id: 's-1', reply_text: 'answer to ' + id, sender_name: 'Ana' });
await write('{"replies": [' + plan.small.map(reply).join(', '));
if (plan.bigBytes > 0) {
  await write((plan.small.length > 0 ? ', ' : '') + '{"question_id": "q-big", "session_id": "s-1", "sender_name": "Ana", "reply_text": "');
  const chunk = 'x'.repeat(1 << 20);
  for (let left = plan.bigBytes; left > 0; left -= chunk.length) await write(left < chunk.length ? chunk.slice(0, left) : chunk);
  await write('"}');
}
await write('], "pending_count": 0}\\n');
`;

function harness() {
  const w = newWorld();
  const dir = join(w.root, 'gchat');
  mkdirSync(dir);
  writeFileSync(join(dir, 'poll.mjs'), POLL);
  const plan = (small: readonly string[], bigBytes = 0) => writeFileSync(join(dir, 'plan.json'), JSON.stringify({ small, bigBytes }));
  plan([]);
  writeFileSync(
    join(w.project, '.claude', 'HEARTBEAT.md'),
    `${WORLD_HEARTBEAT_MD}\n## GChat\n- Poll command: ${JSON.stringify([process.execPath, join(dir, 'poll.mjs'), dir])}\n`,
  );
  const stateDir = join(w.root, 'state');
  const cycle = () =>
    cli.run(['cycle', '--cwd', w.project, '--tmux-socket', w.tmuxSocket, '--state', join(stateDir, 'state.json')], {
      ...process.env,
      ...w.env,
      TMUX: '',
    });
  const spoolFiles = () => (existsSync(stateDir) ? readdirSync(stateDir).filter((name) => name.includes('.gchat-spool-')) : []);
  return { w, dir, stateDir, plan, cycle, spoolFiles };
}

describe('the GChat poll spool through the built CLI', () => {
  it('a 10 MB poll output: the whole replies before the 4 MiB cap are delivered, the file is set aside once with its size, and no later cycle reads it', async () => {
    const h = harness();
    h.plan(['q-1', 'q-2'], 10_000_000);
    const first = await h.cycle();
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('answer to q-1');
    expect(first.stdout).toContain('answer to q-2');
    expect(first.stdout).not.toContain('q-big');
    const [aside, ...others] = h.spoolFiles();
    expect(others).toEqual([]);
    expect(aside).toMatch(/^state\.gchat-spool-\d+-\d+-[0-9a-f]+\.w\d+-s\d+\.out\.unreadable-/);
    const size = statSync(join(h.stateDir, aside ?? '')).size;
    expect(size).toBeGreaterThan(10_000_000);
    expect(first.stderr).toContain(
      `GChat poll output set aside as ${join(h.stateDir, aside ?? '')}: ${size} bytes (${(size / 1048576).toFixed(1)} MiB), over the 4.0 MiB read cap; 2 whole replies delivered, the rest (from byte `,
    );
    expect(first.stderr).toContain('fix: read the replies from byte');
    expect(first.stderr).not.toContain('Invalid string length');

    const second = await h.cycle();
    expect(second.code).toBe(0);
    expect(second.stderr).not.toMatch(/spool|set aside|GChat poll output/);
    expect(h.spoolFiles()).toEqual([aside]);
    expect(statSync(join(h.stateDir, aside ?? '')).size).toBe(size);
  }, 900_000);

  it('a spool symlinked to a secret file is not followed: the warning names the path and none of the target', async () => {
    const h = harness();
    mkdirSync(h.stateDir);
    const secret = join(h.w.root, 'shadow');
    writeFileSync(secret, 'root:*:20210:0:99999:7:::\n');
    const link = 'state.gchat-spool-1000-1-ab.out';
    symlinkSync(secret, join(h.stateDir, link));
    const run = await h.cycle();
    expect(run.code).toBe(0);
    expect(`${run.stdout}${run.stderr}`).not.toMatch(/root|20210|99999/);
    expect(run.stderr).toContain(`GChat poll output set aside as ${join(h.stateDir, link)}.unreadable-`);
    expect(run.stderr).toContain('a symbolic link, not a spool heartbeat-kit wrote: not followed or read');
    expect(readFileSync(secret, 'utf8')).toBe('root:*:20210:0:99999:7:::\n');
    const [aside] = h.spoolFiles();
    expect(lstatSync(join(h.stateDir, aside ?? '')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(h.stateDir, aside ?? ''))).toBe(secret);
    const next = await h.cycle();
    expect(next.stderr).not.toMatch(/spool|set aside|GChat poll output/);
  }, 900_000);

  it('a spool whose writer pid is alive again as another process (another start mark) is recovered, not skipped', async () => {
    const h = harness();
    mkdirSync(h.stateDir);
    // An unrelated process leading its own group, as a runner's child would; its command line names the world, so it is ended after the test.
    const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)', h.w.root], { detached: true, stdio: 'ignore' });
    await new Promise((resolve) => other.once('spawn', resolve));
    const stat = readFileSync(`/proc/${other.pid}/stat`, 'utf8');
    const mark = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
    const reply = { question_id: 'q-9', session_id: 's-1', reply_text: 'answer to q-9', sender_name: 'Ana' };
    // Left by a killed cycle whose poller (that pid, started earlier) has exited since.
    writeFileSync(
      join(h.stateDir, `state.gchat-spool-1000-1-ab.w${other.pid}-s${mark - 1}.out`),
      JSON.stringify({ replies: [reply], pending_count: 0 }),
    );
    const run = await h.cycle();
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('answer to q-9');
    expect(h.spoolFiles()).toEqual([]);
  }, 900_000);
});
