// Did a change regress the cycle's figures? Runs this repository's cycle bench against several
// builds of the CLI, round-robin (A B C, A B C, ...), so every build meets the same load, and
// prints each measure's median over the rounds per build, with its ratio to the first build.
// The bench is the same for all (this checkout's bench/cycle-bench.mjs and its world); only
// BENCH_BIN changes. Build an earlier commit with `git worktree add /tmp/old COMMIT` and
// `pnpm install && pnpm build` there, then:
//   node bench/compare-builds.mjs before=/tmp/old/packages/cli/dist/bin.js after=packages/cli/dist/bin.js
// Env: COMPARE_ROUNDS (3); the cycle bench's BENCH_RUNS (5 here) and BENCH_SCALES (1 here).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

const builds = process.argv.slice(2).map((arg) => {
  const at = arg.indexOf('=');
  if (at <= 0) throw new Error(`"${arg}" is not LABEL=PATH/TO/bin.js`);
  const bin = resolve(arg.slice(at + 1));
  if (!existsSync(bin)) throw new Error(`${bin} does not exist: build that checkout first (pnpm build)`);
  return { label: arg.slice(0, at), bin, runs: [] };
});
if (builds.length < 2) throw new Error('usage: node bench/compare-builds.mjs LABEL=bin.js LABEL=bin.js [...]');
const rounds = Number(process.env.COMPARE_ROUNDS ?? 3);
const bench = join(import.meta.dirname, 'cycle-bench.mjs');

for (let round = 1; round <= rounds; round++) {
  for (const build of builds) {
    const env = { BENCH_RUNS: '5', BENCH_SCALES: '1', ...process.env, BENCH_BIN: build.bin };
    const run = spawnSync(process.execPath, [bench], { env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (run.status !== 0) throw new Error(`the bench failed for ${build.label}: ${run.stderr}`);
    const last = JSON.parse(run.stdout.trim().split('\n').at(-1));
    build.runs.push(last);
    console.log(`round ${round} ${build.label}: load ${last.load}`);
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** Each measure as one number per bench run; ratios to a baseline of the same run are fairer under load. */
const measures = {
  'cycle / floor': (r) => r.results[0].cycleMs / r.results[0].floorMs,
  'cycle ms': (r) => r.results[0].cycleMs,
  'loop cycle / floor after': (r) => r.results[0].loopMs / r.results[0].floorAfterLoopMs,
  'peak RSS MiB': (r) => r.results[0].rssKb / 1024,
  'cold start / node -e 0': (r) => r.coldStartMs / r.nodeMs,
  'cold start ms': (r) => r.coldStartMs,
};
console.log(`\n| measure (median of ${rounds} rounds) | ${builds.map((b) => b.label).join(' | ')} |`);
console.log(`|---|${builds.map(() => '---').join('|')}|`);
for (const [name, of] of Object.entries(measures)) {
  const values = builds.map((b) => median(b.runs.map(of)));
  const cells = values.map((v, i) => (i === 0 ? v.toFixed(2) : `${v.toFixed(2)} (×${(v / values[0]).toFixed(2)})`));
  console.log(`| ${name} | ${cells.join(' | ')} |`);
}
