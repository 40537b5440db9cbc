// Cycle benchmark (issue: the CoBuilder heartbeat end to end).
// Builds a world of 50 worktrees, 20 tmux sessions, 200 beads and 10 pipelines, then measures in
// one run: a full `heartbeat-kit cycle` against a baseline bash script that runs spec 000's
// commands one after another; the CLI's cold start against `node -e 0`; and peak memory.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { importTs } from './bundle-ts.mjs';

const root = resolve(import.meta.dirname, '..');
const bin = join(root, 'packages/cli/dist/bin.js');
const RUNS = Number(process.env.BENCH_RUNS ?? 7);

const { createWorld } = await importTs(join(root, 'packages/cli/test/support/world.ts'));

const now = new Date('2026-02-19T14:50:00Z');
const beads = (n, offset, extra) => Array.from({ length: n }, (_, i) => ({ id: `bench-${(i + offset).toString(36).padStart(4, '0')}`, title: `Task ${i + offset}`, priority: (i % 5), ...extra(i) }));
const dot = (i) => `digraph "PIPE-${i}" {
  graph [prd_ref="PRD-${i}"]
  start [shape=Mdiamond handler=start status=validated]
  impl [shape=box handler=codergen status=${i % 3 === 0 ? 'failed' : 'active'} bead_id="bench-p${i}" worker_type="backend-solutions-engineer"]
  gate [shape=hexagon handler="wait.human" status=pending]
  done [shape=Msquare handler=exit]
  start -> impl -> gate -> done
}
`;
const pipelines = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`pipe-${i}.dot`, dot(i)]));
const sessions = Array.from({ length: 20 }, (_, i) => `orch-bench-${i}`);
const worktrees = Array.from({ length: 50 }, (_, i) => ({ dir: `wt-${i}`, branch: `feat/bench-${i.toString(36).padStart(4, '0')}`, commitAt: new Date(now.getTime() - (i % 4) * 3600_000), dirty: i % 2 === 0 }));

console.log('building the world (50 worktrees, 20 tmux sessions, 200 beads, 10 pipelines)…');
const world = createWorld({
  ready: beads(100, 0, () => ({})),
  inProgress: beads(100, 100, (i) => ({ assignee: `orch-bench-${i % 25}`, started_at: new Date(now.getTime() - (i % 8) * 3600_000).toISOString() })),
  sessions,
  worktrees,
  pipelines,
  gchat: { stdout: '{"replies": [], "pending_count": 0}' },
});

// The baseline: spec 000's commands as a prompt-driven heartbeat would run them, one after another.
// dashboard.py is not available here; a python3 process that reads the DOT file stands in for it.
const baseline = join(world.root, 'baseline.sh');
writeFileSync(
  baseline,
  `#!/usr/bin/env bash
cd ${JSON.stringify(world.project)}
export GIT_OPTIONAL_LOCKS=0
T="tmux -L ${world.tmuxSocket}"
bd ready --json >/dev/null 2>&1
$T list-sessions 2>/dev/null | grep "^orch-" >/dev/null
bd list --status=in_progress --json >/dev/null 2>&1
git worktree list --porcelain | sed -n 's/^worktree //p' > wts.txt
while IFS= read -r wt; do
  git -C "$wt" status --porcelain >/dev/null 2>&1
  git -C "$wt" log -1 --format="%ci" >/dev/null 2>&1
done < wts.txt
bd list --status=in_progress --json >/dev/null 2>&1
for i in $(seq 100 199); do
  git log --since="4 hours ago" --oneline "feat/bench-$(printf '%04x' 0)" >/dev/null 2>&1
done
for s in $($T list-sessions -F '#{session_name}' 2>/dev/null | grep "^orch-"); do
  $T capture-pane -t "=$s:" -p 2>/dev/null | tail -20 >/dev/null
done
python3 .claude/scripts/gchat-poll-replies.py >/dev/null 2>&1
for f in .pipelines/pipelines/*.dot; do
  python3 -c 'import sys,json; json.dumps({"f": open(sys.argv[1]).read()})' "$f" >/dev/null 2>&1
done
`,
);

function timeMs(cmd, args, opts = {}) {
  const start = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { encoding: 'utf8', env: world.env, ...opts });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return { ms, stdout: r.stdout, stderr: r.stderr };
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (ms) => `${ms.toFixed(0)} ms`;

try {
  const cycleArgs = [bin, 'cycle', '--cwd', world.project, '--tmux-socket', world.tmuxSocket, '--state', join(world.root, 'state.json'), '--now', now.toISOString(), '--json'];
  // One warm-up of each, so the page cache and git's index are in the same state for both.
  const first = JSON.parse(timeMs(process.execPath, cycleArgs).stdout);
  timeMs('bash', [baseline]);
  const cycleTimes = [];
  const baseTimes = [];
  for (let i = 0; i < RUNS; i++) {
    baseTimes.push(timeMs('bash', [baseline]).ms);
    cycleTimes.push(timeMs(process.execPath, cycleArgs).ms);
  }
  const nodeTimes = [];
  const coldTimes = [];
  for (let i = 0; i < RUNS * 2; i++) {
    nodeTimes.push(timeMs(process.execPath, ['-e', '0']).ms);
    coldTimes.push(timeMs(process.execPath, [bin, '--version']).ms);
  }
  // Peak memory of a full cycle: maxRSS of a process that runs the CLI in-process.
  const rssScript = `const m = await import(${JSON.stringify(join(root, 'packages/cli/dist/index.js'))});
const io = { stdout: () => {}, stderr: () => {}, cwd: process.cwd(), env: process.env, shutdownSignal: new AbortController().signal };
await m.main(${JSON.stringify(cycleArgs.slice(1))}, io);
process.stdout.write(String(process.resourceUsage().maxRSS));`;
  const rssKb = Number(timeMs(process.execPath, ['--input-type=module', '-e', rssScript]).stdout);
  const baseRssKb = Number(timeMs(process.execPath, ['-e', 'process.stdout.write(String(process.resourceUsage().maxRSS))']).stdout);

  const c = median(cycleTimes);
  const b = median(baseTimes);
  const n = median(nodeTimes);
  const k = median(coldTimes);
  console.log('');
  console.log(`findings in the benchmark world: ${first.findings.length + first.held.length + first.suppressed.length} (${first.categories.join(', ')})`);
  console.log(`scanners (wall ms in the first cycle): ${first.scanners.map((s) => `${s.name}=${s.status} ${s.durationMs}`).join(", ")}`);
  console.log('');
  console.log('| measure | heartbeat-kit | baseline | ratio |');
  console.log('|---|---|---|---|');
  console.log(`| full cycle (median of ${RUNS}) | ${fmt(c)} | ${fmt(b)} (sequential bash, spec 000 commands) | ${(c / b).toFixed(2)} (aim ≤ 0.50) |`);
  console.log(`| cold start \`--version\` (median of ${RUNS * 2}) | ${fmt(k)} | ${fmt(n)} (\`node -e 0\`) | ${(k / n).toFixed(2)} (aim ≤ 2.00) |`);
  console.log(`| peak RSS of a full cycle | ${(rssKb / 1024).toFixed(1)} MiB | ${(baseRssKb / 1024).toFixed(1)} MiB (\`node -e 0\`) | ${(rssKb / baseRssKb).toFixed(2)} |`);
} finally {
  world.destroy();
}
