/**
 * Issue 15 item 5 through the CLI: a scanner failing the same way N cycles in a row becomes one
 * SCANNER_FAILING advisory, its runs back off (every cycle that does not run it says so), and one
 * line says when it recovers. A real git repository, a fake `bd` that exits 1 and then works, and
 * `--now` for each cycle.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCliWorlds, type CliWorld } from './support/cli-world.js';
import { scriptedTime, STEADY } from './support/run-cli.js';
import { WORLD_HEARTBEAT_MD } from './support/world.js';

const createCliWorld = useCliWorlds();

const BREAKER_MD = `${WORLD_HEARTBEAT_MD}\n## Heartbeat\n- Breaker after: 2 cycles\n- Breaker back-off cap: 4 cycles\n`;

/** Replaces the world's fake bd by one that logs every call and fails while `broken` exists (the original runs otherwise). */
function breakableBd(w: CliWorld): { broken: string; calls: () => number } {
  const log = join(w.root, 'bd-calls.log');
  const broken = join(w.root, 'bd-broken');
  const original = join(w.root, 'fake-bd-original');
  writeFileSync(original, readFileSync(join(w.fakeBin, 'bd')), { mode: 0o755 });
  const script = [
    '#!/bin/sh',
    `echo "$*" >> ${JSON.stringify(log)}`,
    `if [ -e ${JSON.stringify(broken)} ]; then echo "Error: database is locked by another bd process" >&2; exit 1; fi`,
    `exec ${JSON.stringify(original)} "$@"`,
    '',
  ].join('\n');
  writeFileSync(join(w.fakeBin, 'bd'), script, { mode: 0o755 });
  return {
    broken,
    calls: () =>
      existsSync(log)
        ? readFileSync(log, 'utf8')
            .split('\n')
            .filter((l) => l !== '').length
        : 0,
  };
}

const at = (cycle: number): string => new Date(Date.parse('2026-02-19T14:00:00Z') + (cycle - 1) * 600_000).toISOString();
const FIX = 'fix: run the tool by hand in the project directory to see why it fails';
const BEADS_ERROR = 'bd ready --json: Error: database is locked by another bd process';
const LIST_ERROR = 'bd list --status=in_progress --json --limit 0: Error: database is locked by another bd process';

interface BreakerJson {
  status: string;
  problems: { scanner: string; code: string; severity: string; message: string }[];
  breaker?: { kind: string; scanner: string; scanners: string[]; code: string; failures: number; since: string; line: string }[];
}

describe('circuit breaker (issue 15 item 5)', () => {
  it('bd failing: one SCANNER_FAILING advisory after 2 cycles, runs backed off to every 2nd then 4th cycle (each skip said), one recovery line when bd works again', async () => {
    const w = createCliWorld({ heartbeatMd: BREAKER_MD });
    const bd = breakableBd(w);
    const statePath = join(w.root, 'hb', 'state.json');
    const cycle = async (n: number, ...extra: string[]) => {
      const before = bd.calls();
      const run = await w.cycleAt(at(n), '--state', statePath, ...extra);
      expect(run.code).toBe(0);
      return { ...run, bdCalls: bd.calls() - before };
    };
    const failedLines = `heartbeat-kit: warning: beads failed: ${BEADS_ERROR}; ${FIX}\nheartbeat-kit: warning: orchestrators, stale-tasks failed: ${LIST_ERROR}; ${FIX}\n`;
    // Then what the cycle covered (issue 26 item 4): the bd-backed scanners did not look.
    const coverage =
      'heartbeat-kit: looked at: git, idle-orchestrators, pipelines; not looked at: beads, orchestrators, stale-tasks; not set up: gchat\n';
    writeFileSync(bd.broken, '');

    // Cycle 1: bd fails; said as every failure is said, no advisory yet.
    const first = await cycle(1);
    expect(first).toMatchObject({ stdout: 'HEARTBEAT_OK\n', stderr: failedLines + coverage });
    expect(first.bdCalls).toBeGreaterThan(0);

    // Cycle 2: the second failing cycle in a row trips the breakers of the three bd-backed scanners. One bd failure is
    // one cause: ONE advisory naming all three (before grouping: three advisories), one trip line.
    const second = await cycle(2);
    expect(second.stdout.split('\n')[0]).toBe('WORK_FOUND: SCANNER_FAILING');
    expect(second.stdout.match(/SCANNER_FAILING: /g)).toHaveLength(1);
    expect(second.stdout).toContain(
      `SCANNER_FAILING: beads, orchestrators, stale-tasks — bd: Error: database is locked by another bd process since 14:00, 2 cycles; tried again every 2nd cycle, backing off to every 4th cycle\n`,
    );
    expect(second.stdout).toContain(
      '1. Fix beads, orchestrators, stale-tasks: run the tool by hand in the project directory to see why it fails\n',
    );
    expect(second.stderr).toBe(
      failedLines +
        `heartbeat-kit: beads, orchestrators, stale-tasks: circuit breaker open after 2 failing cycles in a row (SCANNER_FAILED since 14:00); raised SCANNER_FAILING once; they run every 2nd cycle now, backing off to every 4th cycle\n` +
        coverage,
    );
    const saved = JSON.parse(readFileSync(statePath, 'utf8')) as { breakers?: Record<string, { failures: number; nextRunCycle: number }> };
    expect(saved.breakers?.beads).toMatchObject({ failures: 2, nextRunCycle: 4 });

    // Cycle 3: not run (bd not called), and the cycle says so: HEARTBEAT_OK never hides it. No second advisory.
    const third = await cycle(3, '--json');
    expect(third.bdCalls).toBe(0);
    const json = JSON.parse(third.stdout) as BreakerJson;
    expect(json.status).toBe('ok');
    expect(json.problems.filter((p) => p.severity !== 'unused').map((p) => [p.scanner, p.code, p.severity])).toEqual([
      ['beads', 'SCANNER_BREAKER_OPEN', 'warning'],
      ['orchestrators', 'SCANNER_BREAKER_OPEN', 'warning'],
      ['stale-tasks', 'SCANNER_BREAKER_OPEN', 'warning'],
    ]);
    expect(json.problems[0]?.message).toBe(
      `not run this cycle: its circuit breaker is open after 2 failing cycles in a row (SCANNER_FAILED: ${BEADS_ERROR}); next try at cycle 4`,
    );
    expect(json.breaker).toBeUndefined();

    // Cycle 4: tried again, still failing: said, and now backed off to every 4th cycle (next try 8). Quiet otherwise.
    const fourth = await cycle(4);
    expect(fourth).toMatchObject({ stdout: 'HEARTBEAT_OK\n', stderr: failedLines + coverage });
    expect(fourth.bdCalls).toBeGreaterThan(0);

    // Cycles 5–7 are held back; bd is fixed during cycle 6, which still does not run it (and says so).
    for (const n of [5, 6, 7]) {
      if (n === 6) rmSync(bd.broken);
      const held = await cycle(n);
      expect(held.bdCalls).toBe(0);
      expect(held.stdout).toBe('HEARTBEAT_OK\n');
      expect(held.stderr).toBe(
        `heartbeat-kit: warning: beads skipped: not run this cycle: its circuit breaker is open after 3 failing cycles in a row (SCANNER_FAILED: ${BEADS_ERROR}); next try at cycle 8; ${FIX}\n` +
          `heartbeat-kit: warning: orchestrators, stale-tasks skipped: not run this cycle: its circuit breaker is open after 3 failing cycles in a row (SCANNER_FAILED: ${LIST_ERROR}); next try at cycle 8; ${FIX}\n` +
          coverage,
      );
    }

    // Cycle 8: runs, works: one recovery line for the group, once.
    const eighth = await cycle(8);
    expect(eighth.bdCalls).toBeGreaterThan(0);
    expect(eighth.stdout).toBe('HEARTBEAT_OK\n');
    expect(eighth.stderr).toBe(
      'heartbeat-kit: beads, orchestrators, stale-tasks recovered: they ran cleanly after 3 failing cycles in a row (SCANNER_FAILED since 14:00); circuit breaker closed, they run every cycle again\n',
    );
    // Cycle 9: every cycle again, nothing more to say; the breakers are gone from the state.
    const ninth = await cycle(9, '--json');
    expect(ninth.bdCalls).toBeGreaterThan(0);
    expect(JSON.parse(ninth.stdout)).toMatchObject({ status: 'ok' });
    expect((JSON.parse(ninth.stdout) as BreakerJson).problems.filter((p) => p.severity !== 'unused')).toEqual([]);
    expect((JSON.parse(ninth.stdout) as BreakerJson).breaker).toBeUndefined();
    expect(JSON.parse(readFileSync(statePath, 'utf8'))).not.toHaveProperty('breakers');
  });

  it('--json lists the trip under "breaker"; Breaker after: off never trips', async () => {
    const w = createCliWorld({ heartbeatMd: BREAKER_MD });
    const bd = breakableBd(w);
    writeFileSync(bd.broken, '');
    const statePath = join(w.root, 'hb', 'state.json');
    const cycle = (n: number, ...extra: string[]) => w.cycleAt(at(n), '--state', statePath, '--json', ...extra);
    await cycle(1);
    const tripped = JSON.parse((await cycle(2)).stdout) as BreakerJson;
    // One event for the three scanners one bd failure tripped; each is still its own failed problem.
    expect(tripped.breaker?.map((e) => [e.kind, e.scanner, e.scanners, e.code, e.failures, e.since])).toEqual([
      ['tripped', 'beads', ['beads', 'orchestrators', 'stale-tasks'], 'SCANNER_FAILED', 2, '2026-02-19T14:00:00.000Z'],
    ]);
    expect(tripped.problems.filter((p) => p.severity !== 'unused').map((p) => [p.scanner, p.code])).toEqual([
      ['beads', 'SCANNER_FAILED'],
      ['orchestrators', 'SCANNER_FAILED'],
      ['stale-tasks', 'SCANNER_FAILED'],
    ]);

    writeFileSync(join(w.project, '.claude', 'HEARTBEAT.md'), `${WORLD_HEARTBEAT_MD}\n## Heartbeat\n- Breaker after: off\n`);
    const offState = join(w.root, 'hb-off', 'state.json');
    for (let n = 1; n <= 4; n++) {
      const before = bd.calls();
      const run = JSON.parse((await w.cycleAt(at(n), '--state', offState, '--json')).stdout) as BreakerJson;
      expect(bd.calls()).toBeGreaterThan(before);
      expect(run.breaker).toBeUndefined();
      expect(run.problems.filter((p) => p.severity !== 'unused').map((p) => p.code)).toEqual([
        'SCANNER_FAILED',
        'SCANNER_FAILED',
        'SCANNER_FAILED',
      ]);
    }
  });

  it('a bad breaker key in HEARTBEAT.md is a config error naming the file, the key and the fix', async () => {
    const world = createCliWorld({ heartbeatMd: `${WORLD_HEARTBEAT_MD}\n## Heartbeat\n- Breaker back-off cap: forever\n` });
    const run = await world.cycleAt(at(1));
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /HEARTBEAT\.md:10: Heartbeat → Breaker back-off cap: "forever" is not a number of cycles 1–100\. Fix: write the longest back-off in cycles, such as 8 \(1 = never skip a run\)\./,
    );
  });

  it('loop: the same breaker across slots (trip once, held-back slots said, one recovery line), under scripted time', async () => {
    const w = createCliWorld({ heartbeatMd: `${WORLD_HEARTBEAT_MD}\n## Heartbeat\n- Breaker after: 2\n- Breaker back-off cap: 2\n` });
    const bd = breakableBd(w);
    writeFileSync(bd.broken, '');
    // Each sleep moves both clocks to the next slot; bd is fixed while the loop waits for slot 5; after 7 slots the loop stops.
    const fixBd: typeof STEADY = (ms) => {
      rmSync(bd.broken);
      return STEADY(ms);
    };
    const { code, stderr, stdout } = await w.scriptedLoop(
      scriptedTime([STEADY, STEADY, STEADY, fixBd, STEADY, STEADY]).from(at(1)),
      '--state',
      join(w.root, 'hb', 'state.json'),
    );
    expect(code).toBe(0);
    const lines = stderr
      .split('\n')
      .filter((l) => /^heartbeat-kit: (?:warning: )?beads\b/.test(l))
      .map((l) => l.replace(/^heartbeat-kit: (warning: )?/, '').replace(/:.*$/, ''));
    // Slots 1–2 fail (the second trips), 3 held back, 4 fails, 5 held back, 6 recovers, 7 plain.
    expect(lines).toEqual([
      'beads failed',
      'beads failed',
      'beads, orchestrators, stale-tasks',
      'beads skipped',
      'beads failed',
      'beads skipped',
      'beads, orchestrators, stale-tasks recovered',
    ]);
    expect(stdout.match(/WORK_FOUND: SCANNER_FAILING/g)).toHaveLength(1);
  });
});
