/**
 * Issue 27 item 3, as an operator runs it with the built bin: a pause for 1 h with a note makes
 * the next slots write `paused` receipts (history shows them), check-liveness exits 0 naming the
 * pause, plan shows the window; resume and the next slot runs. Bad input is exit 2 naming the
 * flag and the fix, with nothing written.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBuiltCli, useCliWorlds } from './support/cli-world.js';

const createCliWorld = useCliWorlds();
const built = useBuiltCli();

const T0 = '2026-02-19T14:00:00Z';
const at = (minutes: number): string => new Date(Date.parse(T0) + minutes * 60_000).toISOString();

interface ReceiptJson {
  readonly kind: string;
  readonly slot: string;
  readonly note?: string;
  readonly until?: string;
  readonly pause?: { readonly note: string; readonly scanners?: readonly string[]; readonly exceptCritical?: true };
  readonly notLookedAt?: readonly string[];
  readonly status?: string;
}

function setUp() {
  const world = createCliWorld({ ready: [{ id: 'beads-p2', title: 'polish docs', priority: 2 }] });
  const statePath = join(world.root, 'hb', 'state.json');
  const scope = ['--cwd', world.project, '--state', statePath];
  const bin = (...argv: string[]) => built.run(argv, world.env);
  // A real pause at that minute: `--now` would only rehearse.
  const binAt = (instant: string, ...argv: string[]) => built.runAt(instant, argv, world.env);
  // A real cycle at that minute (the OS clock stopped there): `--now` would only rehearse.
  const cycle = (minutes: number, ...extra: string[]) =>
    built.runAt(at(minutes), ['cycle', ...scope, '--tmux-socket', world.tmuxSocket, ...extra], world.env);
  const receipts = async (): Promise<ReceiptJson[]> =>
    (JSON.parse((await bin('history', ...scope, '--json', '--now', at(120))).stdout) as { receipts: ReceiptJson[] }).receipts;
  return { world, statePath, scope, bin, binAt, cycle, receipts, pauseFile: join(world.root, 'hb', 'state.pause.json') };
}

describe('heartbeat-kit pause / resume (built bin)', () => {
  it('an operator pause for 1 h: paused receipts, check-liveness 0 naming it, plan shows it; resume runs the next slot', async () => {
    const { binAt, bin, cycle, receipts, scope, pauseFile } = setUp();
    expect((await cycle(0)).code).toBe(0);

    const paused = await binAt(at(1), 'pause', ...scope, '--for', '1h', '--note', 'deploying the new runner');
    expect(paused).toMatchObject({ code: 0, stdout: `paused until ${at(61)}: deploying the new runner\n` });
    expect(existsSync(pauseFile)).toBe(true);

    for (const minutes of [10, 20, 30]) {
      const slot = await cycle(minutes);
      expect(slot.code).toBe(0);
      expect(slot.stdout).toBe(''); // never HEARTBEAT_OK: nothing was looked at
      expect(slot.stderr).toContain(`paused until ${at(61)}: deploying the new runner; this slot did not run`);
    }
    const json = await cycle(40, '--json');
    expect(JSON.parse(json.stdout)).toMatchObject({ status: 'paused', slot: at(40), pause: { note: 'deploying the new runner' } });

    const history = await receipts();
    expect(history.map((r) => r.kind)).toEqual(['ran', 'paused', 'paused', 'paused', 'paused']);
    expect(history[1]).toMatchObject({ kind: 'paused', slot: at(10), note: 'deploying the new runner', until: at(61) });
    const text = await bin('history', ...scope, '--now', at(120));
    expect(text.stdout).toContain(`${at(20)}  cycle     paused   until ${at(61)}: deploying the new runner`);

    // 50 minutes after the last run: without the pause this would be "stopped" (max age 30 min).
    const live = await bin('check-liveness', ...scope, '--now', at(50));
    expect(live).toMatchObject({ code: 0, stdout: `paused until ${at(61)}: deploying the new runner\n` });
    const liveJson = await bin('check-liveness', ...scope, '--now', at(50), '--json');
    expect(JSON.parse(liveJson.stdout)).toMatchObject({ live: true, paused: { note: 'deploying the new runner', until: at(61) } });

    const plan = await bin('plan', ...scope, '--now', at(45), '--hours', '1');
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain(`Operator pause: paused until ${at(61)}: deploying the new runner`);
    expect(plan.stdout).toMatch(
      new RegExp(`${at(50).replace(/[.]/g, '\\.')} … ${at(60).replace(/[.]/g, '\\.')} \\(2 slots\\)  paused: paused until`),
    );
    expect(plan.stdout).toMatch(/ {2}runs: inside active hours/);

    const resumed = await bin('resume', ...scope, '--json');
    expect(JSON.parse(resumed.stdout)).toMatchObject({ resumed: true, pause: { note: 'deploying the new runner' } });
    expect(existsSync(pauseFile)).toBe(false);
    expect((await bin('resume', ...scope)).stdout).toBe('not paused: nothing to resume\n');

    const next = await cycle(50);
    expect(next.code).toBe(0);
    expect(next.stdout).toContain('polish docs');
    expect((await receipts()).at(-1)).toMatchObject({ kind: 'ran', slot: at(50), status: 'report' });
    expect((await bin('check-liveness', ...scope, '--now', at(55))).stdout).toMatch(/^alive: cycle #2 ran/);
  });

  it('a pause ends by itself: the first slot after --until runs', async () => {
    const { binAt, cycle, receipts, scope } = setUp();
    expect((await binAt(at(0), 'pause', ...scope, '--until', at(15), '--note', 'lunch')).code).toBe(0);
    expect((await cycle(10)).stdout).toBe('');
    expect((await cycle(20)).stdout).toContain('polish docs');
    expect((await receipts()).map((r) => r.kind)).toEqual(['paused', 'ran']);
  });

  it('--scanner pauses only that scanner: the others run and the paused one is said as not looked at', async () => {
    const { binAt, bin, cycle, receipts, scope } = setUp();
    expect((await binAt(at(0), 'pause', ...scope, '--scanner', 'beads', '--note', 'bd migration')).code).toBe(0);
    const slot = await cycle(10, '--json');
    expect(slot.code).toBe(0);
    const out = JSON.parse(slot.stdout) as { status: string; coverage: { notLookedAt: string[] }; pause: { scanners: string[] } };
    expect(out.status).toBe('ok'); // the only finding (a bead) came from the paused scanner
    expect(out.coverage.notLookedAt).toContain('beads');
    expect(out.pause.scanners).toEqual(['beads']);
    const text = await cycle(20);
    expect(text.stdout).toBe('HEARTBEAT_OK\n');
    expect(text.stderr).toContain('not looked at: beads');
    expect(text.stderr).toContain('bd migration');
    const last = (await receipts()).at(-1)!;
    expect(last).toMatchObject({ kind: 'ran', pause: { note: 'bd migration', scanners: ['beads'] } });
    expect(last.notLookedAt).toContain('beads');
    expect((await bin('history', ...scope, '--now', at(120))).stdout).toContain('(paused, not looked at: beads: bd migration)');
  });

  it('--except-critical keeps a P0 bead flowing and holds back the rest', async () => {
    const { binAt, world, cycle, scope } = setUp();
    expect((await binAt(at(0), 'pause', ...scope, '--for', '2h', '--except-critical', '--note', 'night')).code).toBe(0);
    expect((await cycle(10)).stdout).toBe('HEARTBEAT_OK\n'); // the P2 bead waits
    world.setReady([
      { id: 'beads-p2', title: 'polish docs', priority: 2 },
      { id: 'beads-p0', title: 'prod is down', priority: 0 },
    ]);
    const urgent = await cycle(20);
    expect(urgent.stdout).toContain('prod is down');
    expect(urgent.stdout).not.toContain('polish docs');
    expect(urgent.stderr).toContain('only Immediate findings, orchestrator failures and GChat replies are reported');
  });

  it('bad input is exit 2 naming the flag and the fix, and writes nothing', async () => {
    const { bin, scope, pauseFile } = setUp();
    const cases: [string[], string][] = [
      [['--for', '4 hours please', '--note', 'x'], '--for'],
      [['--until', '2020-01-01T00:00:00Z', '--note', 'x'], '--until'],
      [['--for', '1h'], '--note'],
      [['--for', '1h', '--note', ''], '--note'],
      [['--for', '1h', '--note', 'n'.repeat(501)], '--note'],
      [['--scanner', 'gti', '--note', 'x'], '--scanner'],
    ];
    for (const [args, flag] of cases) {
      const run = await bin('pause', ...scope, ...args);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(new RegExp(`^heartbeat-kit pause: ${flag}: .*Fix: `));
      expect(run.stdout).toBe('');
      expect(existsSync(pauseFile)).toBe(false);
    }
    // `--now` is a rehearsal (issue 26: "`--now` and `--dry-run` runs never write … that a real run would read").
    const rehearsal = await bin('pause', ...scope, '--for', '1h', '--note', 'try it', '--now', at(0));
    expect(rehearsal).toMatchObject({ code: 0, stdout: `would pause: paused until ${at(60)}: try it\n` });
    expect(rehearsal.stderr).toBe(`heartbeat-kit pause: rehearsal at ${new Date(at(0)).toISOString()} (--now): nothing was written.\n`);
    expect(existsSync(pauseFile)).toBe(false);
    const help = await bin('pause', '--help');
    expect(help.stdout).toMatch(/^Usage: heartbeat-kit pause --note TEXT/);
    expect((await bin('resume', '--help')).stdout).toMatch(/^Usage: heartbeat-kit resume/);
  });

  it('an open-ended pause older than --max-pause-age is still paused (exit 0) but warned about', async () => {
    const { binAt, bin, scope, pauseFile } = setUp();
    expect((await binAt(at(0), 'pause', ...scope, '--note', 'until the vendor fixes it')).code).toBe(0);
    expect(JSON.parse(readFileSync(pauseFile, 'utf8'))).toMatchObject({ v: 1, note: 'until the vendor fixes it', since: at(0) });
    const fresh = await bin('check-liveness', ...scope, '--now', at(60));
    expect(fresh).toMatchObject({ code: 0, stderr: '' });
    const old = await bin('check-liveness', ...scope, '--now', at(25 * 60));
    expect(old.code).toBe(0);
    expect(old.stdout).toContain('until the vendor fixes it');
    expect(old.stderr).toMatch(/warning: the pause has no end and was set 25 h ago/);
    expect((await bin('check-liveness', ...scope, '--now', at(25 * 60), '--max-pause-age', '48h')).stderr).toBe('');
  });
});

describe('heartbeat-kit woterclip pause / resume (built bin)', () => {
  it('a paused beat takes no lock and leaves a paused receipt; check-liveness --woterclip and status name it; resume ends it', async () => {
    const world = createCliWorld({});
    const repo = world.project;
    const bin = (...argv: string[]) => built.run(argv, world.env);
    // A real pause at that minute: `--now` would only rehearse.
    const binAt = (instant: string, ...argv: string[]) => built.runAt(instant, argv, world.env);
    expect((await bin('woterclip', 'init', '--cwd', repo, '--repo', 'owner/name', '--board-user', 'octocat')).code).toBe(0);

    const bad = await bin('woterclip', 'pause', '--cwd', repo, '--scanner', 'git', '--note', 'x');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^heartbeat-kit woterclip pause: --scanner: .*Fix: /);
    expect(existsSync(join(repo, '.woterclip', 'pause.json'))).toBe(false);

    const paused = await binAt(at(0), 'woterclip', 'pause', '--cwd', repo, '--for', '1h', '--note', 'release freeze');
    expect(paused).toMatchObject({ code: 0, stdout: `paused until ${at(60)}: release freeze\n` });
    const beat = await bin('woterclip', 'beat', '--cwd', repo, '--now', at(10), '--json');
    expect(beat.code).toBe(0);
    expect(JSON.parse(beat.stdout)).toMatchObject({ exit: 'paused', pause: { note: 'release freeze' } });
    expect(existsSync(join(repo, '.woterclip', '.heartbeat-lock'))).toBe(false);
    const history = await bin('woterclip', 'history', '--cwd', repo, '--now', at(20));
    expect(history.stdout).toContain(`woterclip paused   until ${at(60)}: release freeze`);
    const live = await bin('check-liveness', '--woterclip', '--cwd', repo, '--now', at(20));
    expect(live).toMatchObject({ code: 0, stdout: `WoterClip paused until ${at(60)}: release freeze\n` });
    // Status names the pause first, even when GitHub cannot be read in this world.
    expect((await bin('woterclip', 'status', '--cwd', repo, '--now', at(20))).stdout).toMatch(/^Paused: paused until .*release freeze/);

    expect(JSON.parse((await bin('woterclip', 'resume', '--cwd', repo, '--json')).stdout)).toMatchObject({ resumed: true });
    expect(existsSync(join(repo, '.woterclip', 'pause.json'))).toBe(false);
  });
});
