// Issue 12 item 2: a `bd` wrapper whose child hangs holding stdout open. Runs N cycles of the BUILT
// CLI (packages/cli/dist/bin.js) over a real temp git repository with such a bd first on PATH, and
// counts (a) processes of the tool's group still alive after the cycle exited (leaks) and (b) cycles
// that outlived the scanner's own bound (30 s) plus the kill grace (2 s) by a wide margin (15 s) —
// before the fix a cycle lasted as long as the grandchild (600 s) and orphaned two processes.
// Default (scale 1): 8 cycles, ~13 s each (the bd call's 10 s bound), under 2 min.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bin, createCommittedRepo } from '../support.mjs';

export const name = 'hung grandchild of a tool (bd wrapper)';
export const command = 'npx -y pnpm@10.34.9 stress hung-grandchild';

const OUTLIVED_MS = 30_000 + 2_000 + 15_000;
const HARD_STOP_MS = 180_000;

function alive(pid) {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat[stat.lastIndexOf(')') + 2] !== 'Z'; // a zombie is dead (pid 1 may never reap it)
  } catch {
    return false;
  }
}

async function settle(pids) {
  for (let i = 0; i < 100 && pids.some(alive); i++) await new Promise((r) => setTimeout(r, 100));
  return pids.filter(alive);
}

function world() {
  const dir = mkdtempSync(join(tmpdir(), 'hk-stress-hung-'));
  const repo = join(dir, 'repo');
  const fakeBin = join(dir, 'bin');
  mkdirSync(fakeBin);
  createCommittedRepo(repo);
  const pidLog = join(dir, 'pids.log');
  writeFileSync(join(fakeBin, 'bd'), `#!/bin/sh\nsleep 100000 &\necho "$$ $!" >> "${pidLog}"\nwait\n`);
  chmodSync(join(fakeBin, 'bd'), 0o755);
  return { dir, repo, pidLog, env: { ...process.env, PATH: `${fakeBin}:${process.env.PATH ?? ''}`, TMUX: '' } };
}

function cycle(w, socket) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(
      process.execPath,
      [bin, 'cycle', '--cwd', w.repo, '--tmux-socket', socket, '--json', '--state', join(w.dir, 'state.json')],
      { env: w.env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.resume();
    const stop = setTimeout(() => child.kill('SIGKILL'), HARD_STOP_MS);
    child.on('exit', (code) => {
      clearTimeout(stop);
      resolve({ code, ms: performance.now() - started, stdout });
    });
  });
}

export async function run({ scale, log }) {
  if (!existsSync(bin)) return { trials: 0, failures: 1, detail: `${bin} missing: run through \`pnpm stress\`, which builds first` };
  const trials = Math.max(1, Math.round(8 * scale));
  const w = world();
  let leaked = 0;
  let outlived = 0;
  let notTimeout = 0;
  let seen = 0;
  let longest = 0;
  try {
    for (let i = 0; i < trials; i++) {
      const before = existsSync(w.pidLog) ? readFileSync(w.pidLog, 'utf8').trim().split('\n').length : 0;
      const result = await cycle(w, `hk-stress-hung-${process.pid}-${i}`);
      longest = Math.max(longest, result.ms);
      if (result.ms > OUTLIVED_MS) outlived++;
      const beads = (() => {
        try {
          return JSON.parse(result.stdout).scanners.find((s) => s.name === 'beads');
        } catch {
          return undefined;
        }
      })();
      if (!/timed out/.test(beads?.note ?? '')) notTimeout++;
      const lines = existsSync(w.pidLog) ? readFileSync(w.pidLog, 'utf8').trim().split('\n').slice(before) : [];
      const pids = lines.flatMap((line) => line.split(' ').map(Number)).filter((n) => n > 0);
      seen += pids.length;
      const left = await settle(pids);
      leaked += left.length;
      for (const pid of left) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      log(
        `cycle ${i + 1}/${trials}: exit ${result.code}, ${(result.ms / 1000).toFixed(1)} s, ${pids.length} tool processes, ${left.length} left behind, beads: ${beads?.note ?? beads?.status ?? 'no JSON'}`,
      );
    }
  } finally {
    rmSync(w.dir, { recursive: true, force: true });
  }
  const failures = leaked + outlived + notTimeout;
  return {
    trials,
    failures,
    detail: `${seen} tool processes started, ${leaked} leaked; ${outlived} cycles over ${OUTLIVED_MS / 1000} s (longest ${(longest / 1000).toFixed(1)} s); ${notTimeout} cycles without a beads timeout`,
  };
}
