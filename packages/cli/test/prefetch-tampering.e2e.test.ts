/**
 * Issue 25 item 1: the prefetch plan a cycle leaves in the repository's common git directory is
 * data, never a command. Each attack the issue tried (9 of 9 ran, as root, silently) is written into
 * the plan a real cycle left, and the next cycle of the built bin — a dry run, then a real one — must
 * run nothing of it (each payload would leave a marker file) and say once that the plan was ignored.
 */
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBuiltCli, useCliWorlds, type CliWorld } from './support/cli-world.js';

const cli = useBuiltCli();
const createCliWorld = useCliWorlds({ endProcesses: true });
const NOW = '2026-02-19T14:50:00.000Z';
const isRoot = process.geteuid?.() === 0;
const hasCc = (() => {
  try {
    execFileSync('cc', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

type PlanJson = Record<string, unknown> & { requests?: unknown[] };

/** A world whose first real cycle left a plan; `cycle` runs the built bin on it. */
async function worldWithPlan() {
  const world = createCliWorld({ ready: [{ id: 'hk-1', title: 'Ready work', priority: 1 }], sessions: ['orch-a'] });
  const marker = join(world.root, 'PAYLOAD-RAN');
  // `--text`: without --json (the text form of the warning); anything else is passed on with --json.
  const cycle = (...extra: string[]) =>
    cli.runAt(
      NOW,
      [
        'cycle',
        '--cwd',
        world.project,
        '--tmux-socket',
        world.tmuxSocket,
        ...(extra[0] === '--text' ? extra.slice(1) : ['--json', ...extra]),
      ],
      world.env,
    );
  const first = await cycle();
  expect(first.code, first.stderr).toBe(0);
  const plan = findPlan(join(world.project, '.git', 'heartbeat-kit'));
  expect(plan, 'the first cycle leaves a plan').toBeDefined();
  return { world, marker, cycle, plan: plan as string };
}

/** The plan file under `dir`, wherever this version keeps it. */
function findPlan(dir: string): string | undefined {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isFile() && /^cycle-prefetch-[0-9a-f]{8}\.json$/.test(entry.name)) return path;
    if (entry.isDirectory() && entry.name !== 'state.receipts') {
      const inside = findPlan(path);
      if (inside !== undefined) return inside;
    }
  }
  return undefined;
}

/** Rewrites the plan with `change` applied, keeping the file (its owner and mode). */
function tamper(plan: string, change: (json: PlanJson) => void): void {
  const json = JSON.parse(readFileSync(plan, 'utf8')) as PlanJson;
  change(json);
  writeFileSync(plan, JSON.stringify(json));
}

/** Adds a request, as today's plan lists them, that runs `payload` if anything runs it. */
const addRequest = (request: Record<string, unknown>) => (json: PlanJson) => {
  json.requests = [...(json.requests ?? []), request];
};

/** A shared object whose constructor creates `marker` (an `LD_PRELOAD` payload). */
function preloadLibrary(world: CliWorld, marker: string): string {
  const source = join(world.root, 'payload.c');
  const library = join(world.root, 'payload.so');
  writeFileSync(
    source,
    `#include <fcntl.h>\n#include <unistd.h>\n__attribute__((constructor)) static void payload(void) { int fd = open(${JSON.stringify(marker)}, O_CREAT | O_WRONLY, 0644); if (fd >= 0) close(fd); }\n`,
  );
  execFileSync('cc', ['-shared', '-fPIC', '-o', library, source]);
  return library;
}

/** Runs a dry run (`--json`), then a real cycle (text), and checks that neither ran anything of the tampered plan. */
async function expectIgnored(w: Awaited<ReturnType<typeof worldWithPlan>>, warning: RegExp): Promise<void> {
  const lead = `prefetch plan ${w.plan} ignored, nothing in it ran: `;
  const dry = await w.cycle('--dry-run');
  expect(dry.code, dry.stderr).toBe(0);
  expect(existsSync(w.marker), 'a payload ran (--dry-run)').toBe(false);
  // Nothing but the project lookup's own git rev-parse started early.
  const out = JSON.parse(dry.stdout) as { prefetch: unknown; warnings: string[] };
  expect(out.prefetch).toEqual({ started: 1, claimed: 1 });
  // One warning naming the file and the fix: a JSON line on stderr (--json), and in the output's warnings.
  const said = dry.stderr
    .split('\n')
    .filter((line) => line.includes('prefetch plan'))
    .map((line) => JSON.parse(line) as { warning?: string; fix?: string });
  expect(said, dry.stderr).toHaveLength(1);
  expect(said[0]?.warning).toContain(lead);
  expect(said[0]?.warning).toMatch(warning);
  expect(said[0]?.fix).toBeDefined();
  expect(out.warnings.filter((line) => line.includes('prefetch plan'))).toEqual([`${said[0]?.warning} Fix: ${said[0]?.fix}`]);

  const real = await w.cycle('--text');
  expect(real.code, real.stderr).toBe(0);
  expect(existsSync(w.marker), 'a payload ran (real cycle)').toBe(false);
  const lines = real.stderr.split('\n').filter((line) => line.includes('prefetch plan'));
  expect(lines, real.stderr).toHaveLength(1);
  expect(lines[0]).toContain(`heartbeat-kit cycle: warning: ${lead}`);
  expect(lines[0]).toMatch(warning);
  expect(lines[0]).toContain('. Fix: ');
}

describe('a tampered prefetch plan runs nothing and says so', () => {
  it('an extra `sh -c` entry', async () => {
    const w = await worldWithPlan();
    tamper(w.plan, addRequest({ file: 'sh', args: ['-c', `touch '${w.marker}'`] }));
    await expectIgnored(w, /a field a plan never has \(requests\)/);
  });

  it('git -c core.fsmonitor=…', async () => {
    const w = await worldWithPlan();
    tamper(
      w.plan,
      addRequest({
        file: 'git',
        args: ['-C', w.world.project, '-c', `core.fsmonitor=touch '${w.marker}'; false`, 'status', '--porcelain'],
        profile: 'git',
      }),
    );
    await expectIgnored(w, /requests/);
  });

  it('--upload-pack=…', async () => {
    const w = await worldWithPlan();
    tamper(
      w.plan,
      addRequest({ file: 'git', args: ['ls-remote', `--upload-pack=touch '${w.marker}'; false`, w.world.project], profile: 'git' }),
    );
    await expectIgnored(w, /requests/);
  });

  it.skipIf(!hasCc)('LD_PRELOAD in a request’s environment', async () => {
    const w = await worldWithPlan();
    const library = preloadLibrary(w.world, w.marker);
    // The payload works: it is the plan that must not start it.
    execFileSync('git', ['--version'], { env: { ...process.env, LD_PRELOAD: library } });
    expect(existsSync(w.marker)).toBe(true);
    rmSync(w.marker);
    tamper(w.plan, addRequest({ file: 'git', args: ['--version'], env: { LD_PRELOAD: library }, profile: 'git' }));
    await expectIgnored(w, /requests/);
  });

  it('BASH_ENV in a request’s environment, on a tool that is a bash script', async () => {
    const w = await worldWithPlan();
    renameSync(join(w.world.fakeBin, 'bd'), join(w.world.fakeBin, 'bd-replay'));
    writeFileSync(join(w.world.fakeBin, 'bd'), `#!/usr/bin/env bash\nexec '${join(w.world.fakeBin, 'bd-replay')}' "$@"\n`);
    chmodSync(join(w.world.fakeBin, 'bd'), 0o755);
    const payload = join(w.world.root, 'payload.sh');
    writeFileSync(payload, `touch '${w.marker}'\n`);
    tamper(w.plan, addRequest({ file: 'bd', args: ['ready', '--json'], cwd: w.world.project, env: { BASH_ENV: payload }, profile: 'bd' }));
    await expectIgnored(w, /requests/);
  });

  it('GIT_SSH_COMMAND in a request’s environment', async () => {
    const w = await worldWithPlan();
    tamper(
      w.plan,
      addRequest({
        file: 'git',
        args: ['-C', w.world.project, 'ls-remote', 'ssh://example.invalid/x'],
        env: { GIT_SSH_COMMAND: `touch '${w.marker}'; false` },
        profile: 'git',
      }),
    );
    await expectIgnored(w, /requests/);
  });

  it('a listing id that is not one of the listings heartbeat-kit starts early', async () => {
    const w = await worldWithPlan();
    tamper(w.plan, (json) => {
      json.ids = [`sh -c touch '${w.marker}'`];
    });
    await expectIgnored(w, /ids\[0\] is not one of the listings heartbeat-kit starts early/);
  });

  it.skipIf(!isRoot)('a plan owned by another user (here: root runs the cycle, nobody owns the plan)', async () => {
    const w = await worldWithPlan();
    tamper(w.plan, addRequest({ file: 'sh', args: ['-c', `touch '${w.marker}'`] }));
    chownSync(w.plan, 65534, 65534);
    await expectIgnored(w, /owned by uid 65534, not by this user \(uid 0\)/);
    // Not replaced either: the warning's file is the one the other user left, for the operator to see.
    expect(statSync(w.plan).uid).toBe(65534);
  });

  it.skipIf(!isRoot)('a plan in a directory another user owns', async () => {
    const w = await worldWithPlan();
    tamper(w.plan, addRequest({ file: 'sh', args: ['-c', `touch '${w.marker}'`] }));
    chownSync(dirname(w.plan), 65534, 65534);
    await expectIgnored(w, /its directory .+ owned by uid 65534/);
  });

  it('a plan in a group-writable directory', async () => {
    const w = await worldWithPlan();
    tamper(w.plan, addRequest({ file: 'sh', args: ['-c', `touch '${w.marker}'`] }));
    chmodSync(dirname(w.plan), 0o775);
    await expectIgnored(w, /its directory .+ writable by its group \(mode 775\)/);
  });

  it('a group- or world-writable plan', async () => {
    const w = await worldWithPlan();
    tamper(w.plan, addRequest({ file: 'sh', args: ['-c', `touch '${w.marker}'`] }));
    chmodSync(w.plan, 0o666);
    await expectIgnored(w, /writable by every user \(mode 666\)/);
  });

  it('a plan that is a symbolic link', async () => {
    const w = await worldWithPlan();
    const elsewhere = join(w.world.root, 'elsewhere.json');
    writeFileSync(elsewhere, readFileSync(w.plan));
    tamper(elsewhere, addRequest({ file: 'sh', args: ['-c', `touch '${w.marker}'`] }));
    rmSync(w.plan);
    symlinkSync(elsewhere, w.plan);
    await expectIgnored(w, /symbolic link/);
  });
});

describe('the prefetch reads every option that takes a value as the command does (issue 25 item 10b)', () => {
  it('--sink file:X and --sink "file:X Y" keep the prefetch on', async () => {
    const w = await worldWithPlan();
    for (const sink of [join(w.world.root, 'out.jsonl'), join(w.world.root, 'with space.jsonl')]) {
      for (const argv of [['--sink', `file:${sink}`], [`--sink=file:${sink}`]]) {
        const run = await w.cycle(...argv, '--record', join(w.world.root, 'record x.jsonl'), '--dry-run');
        expect(run.code, run.stderr).toBe(0);
        // rev-parse and the plan's listings (bd ready, bd list, tmux, git worktree list), all taken.
        expect((JSON.parse(run.stdout) as { prefetch: unknown }).prefetch).toEqual({ started: 5, claimed: 5 });
      }
    }
  });
});
