// Cycle benchmark (issues: the CoBuilder heartbeat end to end; a cycle at the physical floor).
// Builds a world of 50 worktrees, 20 tmux sessions, 200 beads and 10 pipelines (and the same
// world ×10), then measures in one run, alternating the contestants:
// - a full `heartbeat-kit cycle`;
// - the physical floor: the external commands the cycle ran when this bench was written (the
//   command list is fixed here, so a cycle that learns to need fewer still races today's list),
//   exec'd four at a time by `xargs -P 4 -L 1 env` with no Node at all (checked: its output
//   must hold bd's and the GChat poll's JSON, so an xargs that only echoes the list fails the bench);
// - a sequential baseline: a bash script running spec 000's commands one after another;
// plus the CLI's cold start against `node -e 0` and the peak RSS of a cycle process against bare
// Node. The machine is shared: the load average is printed with every table.
// Also the per-cycle time of a running `loop` (warm Node) against the floor.
// The cycle and the loop run as a user's do (state, receipt, lock written) at the world's instant:
// libfaketime sets their wall clock (`--now` is a rehearsal that writes nothing, so it measured less).
// Env: BENCH_RUNS (7), BENCH_SCALES ("1,10"), BENCH_RUNS_LARGE (3); BENCH_BIN (another build's
// packages/cli/dist/bin.js, to measure an earlier commit with this bench).
import { execFile, spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { importTs } from './bundle-ts.mjs';

const root = resolve(import.meta.dirname, '..');
const bin = process.env.BENCH_BIN === undefined ? join(root, 'packages/cli/dist/bin.js') : resolve(process.env.BENCH_BIN);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const RUNS_LARGE = Number(process.env.BENCH_RUNS_LARGE ?? 3);
const SCALES = (process.env.BENCH_SCALES ?? '1,10').split(',').map(Number);
const execFileAsync = promisify(execFile);

const { createWorld } = await importTs(join(root, 'packages/cli/test/support/world.ts'));
const { frozenClockEnv, runningClockEnv } = await importTs(join(root, 'packages/cli/test/support/fake-time.ts'));
// The opt-in real tokenizer (core's ./tokenizer subpath over js-tiktoken): how far the default
// ceil(chars / 4) estimate is from a BPE count on the messages the cycle really sends.
const { loadTiktokenEstimator } = await import('../packages/core/dist/tokenizer/index.js');
/** One encoding's estimator; the bench needs both, so a missing js-tiktoken stops it with the reason. */
async function tokenizer(name) {
  const loaded = await loadTiktokenEstimator(name);
  if (loaded.isErr()) throw new Error(`tokenizer ${name}: ${loaded.error.message} ${loaded.error.fix}`);
  return [name, loaded.value];
}
const tokenizers = Object.fromEntries(await Promise.all(['o200k_base', 'cl100k_base'].map(tokenizer)));
/** The cycle's message(s) counted by the default estimate and by each tokenizer. */
function tokenReport(cycle) {
  const texts = [cycle.message?.content, cycle.costAlert?.content].filter((t) => typeof t === 'string');
  return texts.map((text) => {
    const estimate = Math.ceil(text.length / 4);
    return {
      chars: text.length,
      estimate,
      reported: cycle.estimatedTokens,
      ...Object.fromEntries(Object.entries(tokenizers).map(([name, count]) => [name, count(text)])),
    };
  });
}

const now = new Date('2026-02-19T14:50:00Z');
const HOUR = 3600_000;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const beads = (n, offset, extra) =>
  Array.from({ length: n }, (_, i) => ({
    id: `bench-${(i + offset).toString(36).padStart(4, '0')}`,
    title: `Task ${i + offset}`,
    priority: i % 5,
    ...extra(i),
  }));
const dot = (i) => `digraph "PIPE-${i}" {
  graph [prd_ref="PRD-${i}"]
  start [shape=Mdiamond handler=start status=validated]
  impl [shape=box handler=codergen status=${i % 3 === 0 ? 'failed' : 'active'} bead_id="bench-p${i}" worker_type="backend-solutions-engineer"]
  gate [shape=hexagon handler="wait.human" status=pending]
  done [shape=Msquare handler=exit]
  start -> impl -> gate -> done
}
`;

// tmux's list-sessions format of the scanners when this bench was written (the floor's command list).
const TMUX_FORMAT = '#{session_name}\t#{session_id}\t#{session_activity}\t#{session_created}\t#{session_attached}\t#{session_windows}';

/**
 * A world at `scale` (1 = 50 worktrees, 20 sessions, 200 beads, 10 pipelines). Worktree i's branch
 * names in-progress bead i, so the stale-task scanner has branches to look at. Built with one
 * `git fast-import`, one tmux client and `git worktree add` four at a time, so ×10 stays cheap.
 */
async function buildWorld(scale) {
  const nWorktrees = 50 * scale;
  const nSessions = 20 * scale;
  const inProgress = beads(100 * scale, 100 * scale, (i) => ({
    assignee: `orch-bench-${i % (25 * scale)}`,
    started_at: new Date(now.getTime() - (i % 8) * HOUR).toISOString(),
  }));
  const world = createWorld({
    ready: beads(100 * scale, 0, () => ({})),
    inProgress,
    pipelines: Object.fromEntries(Array.from({ length: 10 * scale }, (_, i) => [`pipe-${i}.dot`, dot(i)])),
    gchat: { stdout: '{"replies": [], "pending_count": 0}' },
  });
  const worktrees = Array.from({ length: nWorktrees }, (_, i) => ({
    dir: `wt-${i}`,
    path: join(world.root, `wt-${i}`),
    branch: `feat/${inProgress[i].id}-work`,
    commitAt: new Date(now.getTime() - (i % 6) * HOUR),
    dirty: i % 2 === 0,
  }));
  let stream = '';
  for (const wt of worktrees) {
    const msg = `work on ${wt.branch}\n`;
    const body = `${wt.branch}\n`;
    stream += `commit refs/heads/${wt.branch}\ncommitter World <world@example.invalid> ${Math.floor(wt.commitAt.getTime() / 1000)} +0000\ndata ${Buffer.byteLength(msg)}\n${msg}from refs/heads/main^0\nM 100644 inline work.txt\ndata ${Buffer.byteLength(body)}\n${body}\n`;
  }
  spawnSync('git', ['-C', world.project, 'fast-import', '--quiet'], { input: stream, stdio: ['pipe', 'ignore', 'inherit'] });
  let next = 0;
  const adder = async () => {
    while (next < worktrees.length) {
      const wt = worktrees[next++];
      // Concurrent adds can read each other's half-made admin directories: retry those.
      for (let attempt = 1; ; attempt += 1) {
        try {
          await execFileAsync('git', ['-C', world.project, 'worktree', 'add', '-q', '--', wt.path, wt.branch]);
          break;
        } catch (error) {
          if (attempt >= 5) throw error;
          spawnSync('git', ['-C', world.project, 'worktree', 'prune']);
          rmSync(wt.path, { recursive: true, force: true });
        }
      }
      if (wt.dirty) writeFileSync(join(wt.path, 'uncommitted.txt'), 'pending\n');
    }
  };
  const sessions = Array.from({ length: nSessions }, (_, i) => `orch-bench-${i}`);
  try {
    await Promise.all(Array.from({ length: 4 }, adder));
  } catch (error) {
    world.destroy();
    throw error;
  }
  world.tmux(...sessions.flatMap((s, i) => [...(i === 0 ? [] : [';']), 'new-session', '-d', '-s', s, '-x', '80', '-y', '20']));
  return { world, worktrees, sessions, inProgress, scale };
}

/** The external commands today's cycle runs in `w`, in the scanners' order, one xargs line each. */
function floorCommands(w) {
  const { world, worktrees, sessions, inProgress } = w;
  const t = ['tmux', '-u', '-L', world.tmuxSocket];
  const git = (repo, ...args) => ['git', '-C', repo, '--no-optional-locks', ...args];
  const cmds = [
    ['bd', 'ready', '--json'],
    ['bd', 'list', '--status=in_progress', '--json', '--limit', '0'],
    [...t, 'list-sessions', '-F', TMUX_FORMAT],
  ];
  // git scanner: list, then status of every worktree and `log -1` of the dirty ones.
  cmds.push(git(world.project, 'worktree', 'list', '--porcelain', '-z'));
  cmds.push(git(world.project, 'status', '--porcelain=v1', '-z'));
  for (const wt of worktrees) {
    cmds.push(git(wt.path, 'status', '--porcelain=v1', '-z'));
    if (wt.dirty) cmds.push(git(wt.path, 'log', '-1', '--format=%ct'));
  }
  // stale-tasks: list again, then `git log --since` on the branch of every bead in progress > 4 h.
  cmds.push(git(world.project, 'worktree', 'list', '--porcelain', '-z'));
  const since = Math.floor((now.getTime() - 4 * HOUR) / 1000);
  inProgress.forEach((bead, i) => {
    if (now.getTime() - Date.parse(bead.started_at) <= 4 * HOUR) return;
    const wt = worktrees[i];
    if (wt !== undefined)
      cmds.push(git(wt.path, 'log', `--since=@${since}`, '--format=%H', '--end-of-options', `refs/heads/${wt.branch}`, '--'));
  });
  // idle-orchestrators: list again, capture every pane; gchat: the poll script.
  cmds.push([...t, 'list-sessions', '-F', TMUX_FORMAT]);
  for (let i = 0; i < sessions.length; i += 1) cmds.push([...t, 'capture-pane', '-p', '-t', `$${i}`]);
  cmds.push(['python3', join(world.project, '.claude/scripts/gchat-poll-replies.py')]);
  return cmds;
}

const quote = (arg) => `'${arg.replace(/'/g, `'"'"'`)}'`;
// xargs quoting: single quotes, no newline inside; a tab inside quotes is kept.
const xargsLine = (argv) => argv.map((a) => `'${a}'`).join(' ');

function writeScripts(w) {
  const { world, worktrees } = w;
  const cmds = floorCommands(w);
  const list = join(world.root, 'floor.txt');
  writeFileSync(list, `${cmds.map(xargsLine).join('\n')}\n`);
  // The sequential baseline: spec 000's commands as a prompt-driven heartbeat would run them.
  // dashboard.py is not available here; a python3 process that reads the DOT file stands in for it.
  const baseline = join(world.root, 'baseline.sh');
  writeFileSync(
    baseline,
    `#!/usr/bin/env bash
cd ${quote(world.project)}
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
for b in ${worktrees.map((wt) => quote(wt.branch)).join(' ')}; do
  git log --since="4 hours ago" --oneline "$b" >/dev/null 2>&1
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
  return { list, baseline, commands: cmds.length };
}

function timeMs(cmd, args, opts = {}, env) {
  const start = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { encoding: 'utf8', env, maxBuffer: 64 * 1024 * 1024, ...opts });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return { ms, stdout: r.stdout, stderr: r.stderr };
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (ms) => `${ms.toFixed(0)} ms`;

// Peak RSS of a real CLI process: a preload records the process's own maxRSS when it exits.
const rssDir = join(root, 'node_modules/.cache/hk-bench');
mkdirSync(rssDir, { recursive: true });
const rssPreload = join(rssDir, 'max-rss.mjs');
writeFileSync(
  rssPreload,
  `import { writeFileSync } from 'node:fs';\nprocess.on('exit', () => writeFileSync(process.env.HK_BENCH_RSS_FILE, String(process.resourceUsage().maxRSS)));\n`,
);
function maxRssKb(args, env) {
  const file = join(rssDir, `rss-${process.pid}.txt`);
  timeMs(process.execPath, ['--import', rssPreload, ...args], {}, { ...env, HK_BENCH_RSS_FILE: file });
  return Number(readFileSync(file, 'utf8'));
}

/**
 * Per-cycle time of a warm `heartbeat-kit loop` over the same world (what a long-lived heartbeat
 * pays per slot: no Node start, no module loading): `cycles` cycles after the first (cold) one,
 * each measured from its receipt as `at − slot` (the slot timer fires at `slot`, the receipt is
 * written when the cycle has finished, so a late timer counts against the loop). The interval
 * is twice the one-shot cycle's median, so slots do not overrun.
 */
async function loopCycleTimes(cycleArgs, worldEnv, stateDir, cycleMs, cycles) {
  const statePath = join(stateDir, 'state.json');
  const stateAt = cycleArgs.indexOf('--state') + 1;
  const args = cycleArgs.map((a, i) => (i === 1 ? 'loop' : i === stateAt ? statePath : a));
  const intervalS = Math.max(2, Math.ceil((2 * cycleMs) / 1000));
  // The clock starts at the world's instant and runs: a `loop --now` is a rehearsal that keeps its
  // receipts in memory, and the receipts are what this measures (the loop rows were empty until this).
  const env = { ...worldEnv, ...runningClockEnv(now.toISOString()) };
  const child = spawn(process.execPath, [...args, '--interval', String(intervalS)], { env, stdio: ['ignore', 'pipe', 'ignore'] });
  const exited = new Promise((done) => child.once('close', done));
  let seen = 0;
  let buffered = '';
  const enough = new Promise((done) => {
    child.stdout.on('data', (chunk) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop();
      seen += lines.filter((l) => l.startsWith('{"type":"cycle"')).length;
      if (seen >= cycles + 1) done();
    });
  });
  // A backstop only: the loop is stopped once it has run enough cycles, however slow the machine.
  const backstop = setTimeout(() => child.kill('SIGTERM'), (cycles + 2) * intervalS * 1000 * 10 + 120_000);
  await Promise.race([enough, exited]);
  child.kill('SIGTERM');
  await exited;
  clearTimeout(backstop);
  // The loop's clock started at --now and ran at real speed: judge the receipts a day later.
  const judgeAt = new Date(now.getTime() + 24 * HOUR).toISOString();
  const history = JSON.parse(
    timeMs(process.execPath, [bin, 'history', '--state', statePath, '--json', '--now', judgeAt], {}, worldEnv).stdout,
  );
  // A loop that wrote no receipt measured nothing: an empty row would hide a broken bench.
  if (history.receipts.length === 0) throw new Error(`the loop left no receipts in ${statePath}`);
  const ran = history.receipts.filter((r) => r.source === 'loop' && r.kind === 'ran' && r.cycle >= 2);
  return { intervalS, times: ran.map((r) => Date.parse(r.at) - Date.parse(r.slot)) };
}

const results = [];
for (const scale of SCALES) {
  const runs = scale === 1 ? RUNS : RUNS_LARGE;
  const built = Date.now();
  const w = await buildWorld(scale);
  const { world } = w;
  try {
    const { list, baseline, commands } = writeScripts(w);
    console.log(
      `world ×${scale}: ${w.worktrees.length} worktrees (${w.worktrees.filter((t) => t.dirty).length} dirty), ${w.sessions.length} tmux sessions, ${w.inProgress.length * 2} beads, ${10 * scale} pipelines — built in ${((Date.now() - built) / 1000).toFixed(1)} s; floor = ${commands} commands`,
    );
    const cycleArgs = [
      bin,
      'cycle',
      '--cwd',
      world.project,
      '--tmux-socket',
      world.tmuxSocket,
      '--state',
      // In a directory of its own: the git scanner ignores changes under the state's directory,
      // and the world's root holds every worktree (with the state there, no worktree was dirty).
      join(world.root, 'hk-state', 'state.json'),
      '--json',
    ];
    // A real cycle at the world's instant (frozen wall clock), as a user's cron runs it.
    const cycleEnv = { ...world.env, ...frozenClockEnv(now.toISOString()) };
    const floorEnv = {
      ...world.env,
      GIT_OPTIONAL_LOCKS: '0',
      LC_ALL: 'C',
      NO_COLOR: '1',
      GIT_TERMINAL_PROMPT: '0',
      CLAUDE_PROJECT_DIR: world.project,
    };
    // `env` is the command xargs runs with each line's words as its arguments: without a command
    // xargs runs `echo`, and the floor then timed 121 echoes instead of the commands (it did until
    // this was found: every floor figure before it measured echo, about 80 ms on an idle machine).
    const floorArgs = ['-P', '4', '-L', '1', '-a', list, 'env'];
    const floor = () => timeMs('xargs', floorArgs, { cwd: world.project, stdio: ['ignore', 'ignore', 'pipe'] }, floorEnv).ms;
    // Proof that the floor runs the tools: bd's JSON and the GChat poll's JSON are in its output.
    // Into a file, not a pipe: with ×10's output (2,000 beads' JSON) git met a full non-blocking
    // pipe and failed with EAGAIN ("write failure on 'stdout': Resource temporarily unavailable").
    const floorOutPath = join(world.root, 'floor-output.txt');
    const floorOutFd = openSync(floorOutPath, 'w');
    try {
      timeMs('xargs', floorArgs, { cwd: world.project, stdio: ['ignore', floorOutFd, 'pipe'] }, floorEnv);
    } finally {
      closeSync(floorOutFd);
    }
    const floorOut = readFileSync(floorOutPath, 'utf8');
    if (!floorOut.includes('"id": "bench-') || !floorOut.includes('"pending_count"'))
      throw new Error(`the floor did not run the commands (its output: ${floorOut.slice(0, 200)})`);
    if (process.env.BENCH_STRACE === '1') {
      // Which commands does the cycle really exec? (Checks that the floor is the cycle's list.)
      const trace = join(world.root, 'trace.txt');
      timeMs('strace', ['-f', '-qq', '-e', 'trace=execve', '-e', 'signal=none', '-o', trace, process.execPath, ...cycleArgs], {}, cycleEnv);
      const count = (keys) => keys.reduce((m, k) => m.set(k, (m.get(k) ?? 0) + 1), new Map());
      const key = (argv) =>
        [
          argv[0].split('/').at(-1),
          ...argv.slice(1).filter((a, i, all) => !a.startsWith('/') && !a.startsWith('-') && !/^-[CL]$/.test(all[i - 1] ?? '')),
        ]
          .slice(0, 2)
          .join(' ');
      const execs = readFileSync(trace, 'utf8')
        .split('\n')
        .filter((l) => l.includes('execve(') && !l.includes('= -1'));
      const traced = count(execs.map((l) => key([...l.slice(l.indexOf('[')).matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]))));
      const floored = count(floorCommands(w).map(key));
      console.log(
        'execs by the cycle (strace) vs the floor list:',
        JSON.stringify(
          Object.fromEntries(
            [...new Set([...traced.keys(), ...floored.keys()])].map((k) => [k, [traced.get(k) ?? 0, floored.get(k) ?? 0]]),
          ),
        ),
      );
    }
    // One warm-up of each, so the page cache and git's index are in the same state for all.
    const first = JSON.parse(timeMs(process.execPath, cycleArgs, {}, cycleEnv).stdout);
    floor();
    if (scale === 1) timeMs('bash', [baseline], {}, world.env);
    const cycleTimes = [];
    const floorTimes = [];
    const baseTimes = [];
    const unfinished = [];
    const loadBefore = load();
    for (let i = 0; i < runs; i++) {
      floorTimes.push(floor());
      const run = timeMs(process.execPath, cycleArgs, {}, cycleEnv);
      cycleTimes.push(run.ms);
      // A scanner that timed out or failed did less work: such a run is no fair figure, so say so.
      for (const s of JSON.parse(run.stdout).scanners)
        if (s.status === 'timeout' || s.status === 'error') unfinished.push(`${s.name}=${s.status}`);
      if (scale === 1) baseTimes.push(timeMs('bash', [baseline], {}, world.env).ms);
    }
    const rssKb = maxRssKb(cycleArgs, cycleEnv);
    const c = median(cycleTimes);
    const f = median(floorTimes);
    const loopLoadBefore = load();
    const loop = await loopCycleTimes(cycleArgs, world.env, join(world.root, 'hk-loop-state'), c, runs);
    // The floor again right after the loop, alternating is not possible with a timer-driven loop.
    const floorAfterLoop = Array.from({ length: runs }, floor);
    console.log(
      `loop (warm Node, --interval ${loop.intervalS}): per-cycle ms ${loop.times.map((x) => x.toFixed(0)).join(' ')} · floor right after ${floorAfterLoop.map((x) => x.toFixed(0)).join(' ')} · load ${loopLoadBefore} → ${load()}`,
    );
    const row = {
      scale,
      cycleMs: c,
      floorMs: f,
      baselineMs: baseTimes.length > 0 ? median(baseTimes) : undefined,
      rssKb,
      loopMs: loop.times.length > 0 ? median(loop.times) : undefined,
      loopCycles: loop.times.length,
      floorAfterLoopMs: median(floorAfterLoop),
      commands,
      findings: first.findings.length + first.held.length + first.suppressed.length,
      load: `${loadBefore} → ${load()}`,
    };
    row.tokens = tokenReport(first);
    results.push(row);
    console.log(`findings: ${row.findings} (${first.categories.join(', ')})`);
    console.log(
      `scanners (ms in the first cycle): ${first.scanners.map((s) => `${s.name}=${s.status} ${s.durationMs}${s.status === 'error' || s.status === 'timeout' ? ` (${s.note})` : ''}`).join(', ')}`,
    );
    console.log(
      `runs (ms, alternating): cycle ${cycleTimes.map((x) => x.toFixed(0)).join(' ')} · floor ${floorTimes.map((x) => x.toFixed(0)).join(' ')}${baseTimes.length ? ` · baseline ${baseTimes.map((x) => x.toFixed(0)).join(' ')}` : ''}`,
    );
    if (unfinished.length > 0)
      console.log(`WARNING: measured cycles had unfinished scanners (${unfinished.join(', ')}): their times understate the work`);
    row.unfinished = unfinished.length;
    console.log(`load during the runs: ${row.load}\n`);
  } finally {
    world.destroy();
  }
}

const nodeTimes = [];
const coldTimes = [];
for (let i = 0; i < RUNS * 2; i++) {
  nodeTimes.push(timeMs(process.execPath, ['-e', '0']).ms);
  coldTimes.push(timeMs(process.execPath, [bin, '--version']).ms);
}
const baseRssKb = maxRssKb(['-e', '0'], process.env);
const n = median(nodeTimes);
const k = median(coldTimes);

console.log(`load: ${load()}`);
console.log('| measure | heartbeat-kit | reference | ratio |');
console.log('|---|---|---|---|');
for (const r of results) {
  console.log(
    `| ×${r.scale} full cycle (median of ${r.scale === 1 ? RUNS : RUNS_LARGE}${r.unfinished ? `, ${r.unfinished} scanners unfinished` : ''}) | ${fmt(r.cycleMs)} | ${fmt(r.floorMs)} (floor: ${r.commands} commands, \`xargs -P 4 env\`) | ${(r.cycleMs / r.floorMs).toFixed(2)} (aim ≤ 1.50) |`,
  );
  if (r.baselineMs !== undefined)
    console.log(
      `| ×${r.scale} full cycle | ${fmt(r.cycleMs)} | ${fmt(r.baselineMs)} (sequential bash, spec 000 commands) | ${(r.cycleMs / r.baselineMs).toFixed(2)} (aim ≤ 0.35) |`,
    );
  if (r.loopMs !== undefined)
    console.log(
      `| ×${r.scale} cycle of a running \`loop\` (median of ${r.loopCycles}) | ${fmt(r.loopMs)} | ${fmt(r.floorAfterLoopMs)} (floor, measured right after) | ${(r.loopMs / r.floorAfterLoopMs).toFixed(2)} (aim ≤ 1.50) |`,
    );
  console.log(
    `| ×${r.scale} peak RSS of a cycle | ${(r.rssKb / 1024).toFixed(1)} MiB | ${(baseRssKb / 1024).toFixed(1)} MiB (\`node -e 0\`) | ${(r.rssKb / baseRssKb).toFixed(2)} (aim ≤ 60 MiB) |`,
  );
}
for (const r of results) {
  for (const t of r.tokens) {
    for (const name of Object.keys(tokenizers))
      console.log(
        `| ×${r.scale} message tokens (${t.chars} chars) | ${t.estimate} (ceil(chars/4), default) | ${t[name]} (${name}, js-tiktoken) | ${(t.estimate / t[name]).toFixed(2)} (${t.estimate >= t[name] ? '+' : ''}${(((t.estimate - t[name]) / t[name]) * 100).toFixed(1)} %) |`,
      );
  }
}
console.log(
  `| cold start \`--version\` (median of ${RUNS * 2}) | ${fmt(k)} | ${fmt(n)} (\`node -e 0\`) | ${(k / n).toFixed(2)} (aim ≤ 1.30) |`,
);
const small = results.find((r) => r.scale === 1);
for (const r of results.filter((x) => x.scale !== 1)) {
  if (small === undefined) break;
  const cg = r.cycleMs / small.cycleMs;
  const fg = r.floorMs / small.floorMs;
  console.log(`| growth ×1 → ×${r.scale} | cycle ×${cg.toFixed(2)} | floor ×${fg.toFixed(2)} | ${(cg / fg).toFixed(2)} (aim ≤ 1.00) |`);
}
console.log(JSON.stringify({ bench: 'cycle', load: load(), coldStartMs: k, nodeMs: n, baseRssKb, results }));
