/**
 * Issue 27 items 1, 2 and 7 end to end, as an operator at the built bin (a real process) over a real
 * git repository: a GIT_STALE finding is reported, acked for 4 h with a note, held (not reported)
 * at the next cycles and shown as held in --json and history, then the worktree changes and the
 * finding is reported at once. Bad input exits 2 naming the flag and writes nothing.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBuiltCli, useCliWorlds } from './support/cli-world.js';
import { commitInWorktree } from './support/world.js';

const createCliWorld = useCliWorlds();
const built = useBuiltCli();

interface CycleJson {
  status: string;
  findings: { category: string; fingerprint: string }[];
  suppressed: { fingerprint: string; reason: string; held?: string; ack?: { by: string; note: string; until?: string; at: string } }[];
  message: { findings?: { id: string; fingerprint: string }[] } | null;
}

describe('heartbeat-kit ack: an operator acknowledges a stale worktree', () => {
  it('reported, acked for 4h with a note (held in cycles, --json and history), reported at once when the worktree changes', async () => {
    const world = createCliWorld({
      worktrees: [{ dir: 'wt-feature', branch: 'feature-x', commitAt: new Date('2026-02-19T10:00:00Z'), dirty: true }],
    });
    const env = { ...world.env, USER: 'alice' };
    const scope = ['--cwd', world.project, '--tmux-socket', world.tmuxSocket];
    const cycle = async (now: string, ...extra: string[]) => built.runAt(now, ['cycle', ...scope, ...extra], env);

    const first = await cycle('2026-02-19T14:50:00Z', '--json');
    expect(first.code).toBe(0);
    const reported = JSON.parse(first.stdout) as CycleJson;
    const stale = reported.findings.find((f) => f.category === 'GIT_STALE');
    expect(stale).toBeDefined();
    const fingerprint = stale!.fingerprint;
    // The finding id the report printed is a selector too.
    const id = reported.message?.findings?.find((f) => f.fingerprint === fingerprint)?.id;
    expect(id).toMatch(/^hbf-/);

    const acked = await built.runAt(
      '2026-02-19T14:52:00Z',
      ['ack', id!, '--for', '4h', '--note', 'rebasing feature-x tonight', '--cwd', world.project, '--json'],
      env,
    );
    expect(acked.stderr).toBe('');
    expect(acked.code).toBe(0);
    const ack = (JSON.parse(acked.stdout) as { ack: { id: string; until: string; by: string; match: unknown } }).ack;
    expect(ack).toMatchObject({ until: '2026-02-19T18:52:00.000Z', by: 'alice', match: { kind: 'fingerprint', fingerprint } });

    // Past the 30-minute dedup window the finding would be repeated: the ack holds it.
    const second = await cycle('2026-02-19T15:30:00Z');
    expect(second.code).toBe(0);
    expect(second.stdout).toBe('HEARTBEAT_OK\n');
    expect(second.stderr).toContain(
      `held by ack ${ack.id}: ${fingerprint} (alice, until 2026-02-19T18:52:00.000Z: rebasing feature-x tonight)`,
    );
    const third = JSON.parse((await cycle('2026-02-19T16:30:00Z', '--json')).stdout) as CycleJson;
    expect(third.status).toBe('ok');
    const heldEntry = third.suppressed.find((s) => s.fingerprint === fingerprint);
    expect(heldEntry).toMatchObject({ reason: 'ack', held: 'ack' });
    expect(heldEntry?.ack).toMatchObject({ by: 'alice', note: 'rebasing feature-x tonight', until: '2026-02-19T18:52:00.000Z' });

    const history = await built.run(['history', '--cwd', world.project, '--now', '2026-02-19T16:35:00Z', '--json'], env);
    const receipts = (
      JSON.parse(history.stdout) as { receipts: { kind: string; status?: string; acked?: { fingerprint: string; note: string }[] }[] }
    ).receipts;
    expect(
      receipts.filter((r) => r.acked?.some((a) => a.fingerprint === fingerprint && a.note === 'rebasing feature-x tonight')),
    ).toHaveLength(2);
    const historyText = await built.run(['history', '--cwd', world.project, '--now', '2026-02-19T16:35:00Z'], env);
    expect(historyText.stdout).toContain(`held by ack: ${fingerprint} (alice, until 2026-02-19T18:52:00.000Z: rebasing feature-x tonight)`);

    const list = JSON.parse(
      (await built.run(['ack', '--list', '--json', '--cwd', world.project, '--now', '2026-02-19T16:31:00Z'], env)).stdout,
    ) as {
      acks: { id: string; active: boolean }[];
    };
    expect(list.acks).toEqual([expect.objectContaining({ id: ack.id, active: true })]);

    // The worktree gets a new commit (still dirty, still old enough to be stale): its content changed.
    commitInWorktree(join(world.root, 'wt-feature'), 'more.txt', '2026-02-19T15:00:00Z');
    const changed = await cycle('2026-02-19T16:40:00Z');
    expect(changed.code).toBe(0);
    expect(changed.stdout).toMatch(/^WORK_FOUND: GIT_STALE/);
    expect(changed.stderr).not.toContain('held by ack');
  }, 900_000);

  it('bad input exits 2 naming the flag and the fix, and writes nothing', async () => {
    const world = createCliWorld({
      worktrees: [{ dir: 'wt-feature', branch: 'feature-x', commitAt: new Date('2026-02-19T10:00:00Z'), dirty: true }],
    });
    const env = world.env;
    expect(
      (await built.runAt('2026-02-19T14:50:00Z', ['cycle', '--cwd', world.project, '--tmux-socket', world.tmuxSocket], env)).code,
    ).toBe(0);
    const ackFile = join(world.project, '.git', 'heartbeat-kit', 'state.acks.json');
    const ack = (...argv: string[]) => built.runAt('2026-02-19T15:00:00Z', ['ack', ...argv, '--cwd', world.project], env);
    const cases: [string[], RegExp][] = [
      [['GIT_STALE', '--for', '4 hours please', '--note', 'x'], /--for "4 hours please" has "please" after the duration\. Fix: /],
      [['GIT_STALE', '--until', '2026-02-19T14:00:00Z', '--note', 'x'], /--until 2026-02-19T14:00:00\.000Z is not after now .* Fix: /],
      [['GIT_STALE', '--note', '   '], /--note is required and must not be empty\. Fix: /],
      [['GIT_STALE'], /--note is required .* Fix: /],
      [['GIT_STALE', '--note', 'n'.repeat(501)], /--note has 501 characters, more than 500\. Fix: /],
      [['NO_SUCH_THING:x', '--note', 'x'], /SELECTOR "NO_SUCH_THING:x" matches no known finding .* Fix: /],
      [['hbf-0123456789abcd', '--note', 'x'], /SELECTOR hbf-0123456789abcd is not the id of a finding .* Fix: /],
    ];
    for (const [argv, message] of cases) {
      const run = await ack(...argv);
      expect(run.code, argv.join(' ')).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(existsSync(ackFile)).toBe(false);
    }
    // `--now` is a rehearsal (issue 26: "`--now` and `--dry-run` runs never write … that a real run would read").
    const rehearsal = await built.run(
      ['ack', 'GIT_STALE', '--note', 'try it', '--cwd', world.project, '--now', '2026-02-19T15:00:00Z'],
      env,
    );
    expect(rehearsal.code).toBe(0);
    expect(rehearsal.stdout).toMatch(/^would ack ack-\S+ {2}GIT_STALE /);
    expect(rehearsal.stderr).toBe('heartbeat-kit ack: rehearsal at 2026-02-19T15:00:00.000Z (--now): nothing was written.\n');
    expect(existsSync(ackFile)).toBe(false);
    const good = await ack('GIT_STALE', '--snooze', '--note', 'all of them, for now');
    expect(good.code).toBe(0);
    const before = readFileSync(ackFile, 'utf8');
    expect((await built.run(['unack', 'NOPE', '--cwd', world.project], env)).code).toBe(2);
    expect(readFileSync(ackFile, 'utf8')).toBe(before);
    const removed = await built.run(['unack', 'GIT_STALE', '--cwd', world.project, '--json'], env);
    expect(removed.code).toBe(0);
    expect((JSON.parse(removed.stdout) as { removed: { selector: string }[] }).removed.map((a) => a.selector)).toEqual(['GIT_STALE']);
    for (const command of ['ack', 'unack']) {
      const help = await built.run([command, '--help'], env);
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(new RegExp(`^Usage: heartbeat-kit ${command} SELECTOR`));
    }
  }, 900_000);
});
