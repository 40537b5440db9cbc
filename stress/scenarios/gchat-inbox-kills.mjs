// Issue 12 item 1, with the BUILT CLI (packages/cli/dist/bin.js) over real temp git repositories:
// `cycle` is SIGKILLed at random moments while a consuming GChat poller hands out one new reply
// per poll and records each reply it handed out (exclusive create per id, marked once its stdout
// write succeeded). After the kills every lane runs undisturbed cycles until its inbox is empty.
// The poller prints into a spool file the cycle opened in the state directory (the kernel writes it
// even when the cycle dies); the cycle moves the replies into the inbox, and the next cycle recovers
// the spools a killed one left. Every reply the poller handed out (its stdout write succeeded) must
// reach the sink: a failure is a reply never delivered, whether it was last seen in an inbox or
// lost before it got there (killed between the poller's exit and the inbox write: the gap the spool
// closed, issue 12 item 1), and an inbox or spool left undrained. Replies delivered twice are
// counted too: at least once is the documented choice (a kill between delivery and the state save
// sends the same report, same message id, again).
// Scale 1: 150 kills (~5 min at load 50-110); STRESS_SCALE=7 reaches the issue's ≥ 1,000.
// Lanes run in parallel, each with its own repository, state directory, poller and sink file.
import { spawn, spawnSync } from 'node:child_process';
import {
  appendFileSync,
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  watch,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clearInterval, setInterval } from 'node:timers';
import { bin, createCommittedRepo } from '../support.mjs';

export const name = 'GChat replies across SIGKILLed cycles (reply inbox)';
export const command = 'npx -y pnpm@10.34.9 stress gchat-inbox-kills';

const LANES = 3;

// The poller keeps its own record: one file per reply it claimed (exclusive create), 'handed' once its
// stdout write succeeded, and a log line per step naming its pid and where its stdout went (the spool).
const POLL = `import { openSync, closeSync, readdirSync, writeFileSync, existsSync, appendFileSync, readlinkSync } from 'node:fs';
const dir = process.argv[2];
let out = '?';
try { out = readlinkSync('/proc/self/fd/1'); } catch {}
const note = (what) => appendFileSync(dir + '/log', Date.now() + ' pid ' + process.pid + ' ' + what + ' -> ' + out + '\\n');
if (existsSync(dir + '/stop')) { process.stdout.write('{"replies":[],"pending_count":0}'); process.exit(0); }
let n = readdirSync(dir + '/ids').length;
let fd;
for (;;) { try { fd = openSync(dir + '/ids/q-' + n, 'wx'); break; } catch { n += 1; } }
closeSync(fd);
note('claimed q-' + n);
const reply = { question_id: 'q-' + n, session_id: 's', reply_text: 'answer ' + n, sender_name: 'Ana' };
process.stdout.write(JSON.stringify({ replies: [reply], pending_count: 0 }), (error) => {
  if (!error) { writeFileSync(dir + '/ids/q-' + n, 'handed'); note('handed q-' + n); }
  else note('write failed q-' + n + ': ' + error.message);
});
`;

function lane(base, index) {
  const dir = join(base, `lane-${index}`);
  const repo = join(dir, 'repo');
  const poll = join(dir, 'poll');
  mkdirSync(join(poll, 'ids'), { recursive: true });
  writeFileSync(join(poll, 'poll.mjs'), POLL);
  createCommittedRepo(repo, {
    '.claude/HEARTBEAT.md': `# Heartbeat Configuration\n\n## GChat\n- Poll command: ${JSON.stringify([process.execPath, join(poll, 'poll.mjs'), poll])}\n`,
  });
  return {
    dir,
    repo,
    poll,
    state: join(dir, 'state', 'state.json'),
    inbox: join(dir, 'state', 'state.inbox.json'),
    delivered: join(dir, 'delivered.jsonl'),
    log: join(dir, 'cycles.log'),
    socket: `hk-stress-inbox-${process.pid}-${index}`,
  };
}

// One cycle of lane `l`, its stdout and stderr appended to the lane's cycles.log under a header line.
// `kill` (optional): `{ afterMs }` SIGKILLs it that long after the spawn; `{ afterClaimMs }` that long
// after the poller claimed a reply (a new file in ids/), or never if the poller does not run.
function cycle(l, kill, label = 'cycle') {
  return new Promise((resolve) => {
    const claimed = readdirSync(join(l.poll, 'ids')).length;
    appendFileSync(l.log, `\n==== ${new Date().toISOString()} ${label} ${kill === undefined ? 'undisturbed' : JSON.stringify(kill)}\n`);
    const fd = openSync(l.log, 'a');
    const started = performance.now();
    let claimAt;
    const child = spawn(
      process.execPath,
      [bin, 'cycle', '--cwd', l.repo, '--tmux-socket', l.socket, '--state', l.state, '--sink', `file:${l.delivered}`],
      { stdio: ['ignore', fd, fd], env: { ...process.env, TMUX: '', PATH: process.env.PATH } },
    );
    closeSync(fd);
    const timers = [];
    let watcher;
    if (kill?.afterMs !== undefined) timers.push(setTimeout(() => child.kill('SIGKILL'), kill.afterMs));
    // Watching the ids directory (with a poll as backstop: fs.watch may miss an event under load).
    const claimSeen = () => {
      if (claimAt !== undefined || readdirSync(join(l.poll, 'ids')).length <= claimed) return;
      claimAt = performance.now();
      if (kill?.afterClaimMs !== undefined) timers.push(setTimeout(() => child.kill('SIGKILL'), kill.afterClaimMs));
    };
    try {
      watcher = watch(join(l.poll, 'ids'), claimSeen);
    } catch {
      watcher = undefined;
    }
    const ticker = setInterval(claimSeen, 5);
    child.once('close', (code, signal) => {
      claimSeen();
      for (const t of timers) clearTimeout(t);
      clearInterval(ticker);
      watcher?.close();
      const ms = performance.now() - started;
      appendFileSync(
        l.log,
        `==== exit ${code ?? signal} after ${Math.round(ms)} ms${claimAt === undefined ? '' : `, poller claimed at ${Math.round(claimAt - started)} ms`}\n`,
      );
      resolve({ code, signal, ms, claimMs: claimAt === undefined ? undefined : claimAt - started, polled: claimAt !== undefined });
    });
  });
}

function inboxIds(l) {
  try {
    return [...new Set(readFileSync(l.inbox, 'utf8').match(/\bq-\d+\b/g) ?? [])];
  } catch {
    return [];
  }
}

// Spools waiting to be read (`set aside` ones end in `.unreadable-<time>`).
function spools(l, aside = false) {
  try {
    return readdirSync(join(l.dir, 'state')).filter(
      (name) => name.includes('.gchat-spool-') && (aside ? name.includes('.unreadable-') : name.endsWith('.out')),
    );
  } catch {
    return [];
  }
}

function handed(l) {
  return readdirSync(join(l.poll, 'ids')).filter((id) => readFileSync(join(l.poll, 'ids', id), 'utf8') === 'handed');
}

function deliveries(l) {
  const counts = new Map();
  if (!existsSync(l.delivered)) return counts;
  for (const line of readFileSync(l.delivered, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    for (const match of JSON.parse(line).content.matchAll(/Question ID: (q-\d+)/g)) counts.set(match[1], (counts.get(match[1]) ?? 0) + 1);
  }
  return counts;
}

// What the poller's log says about reply `id`: who claimed and handed it out, and into which file.
function pollerRecord(l, id) {
  let text = '';
  try {
    text = readFileSync(join(l.poll, 'log'), 'utf8');
  } catch {
    return ['(no poller log)'];
  }
  const lines = text.split('\n').filter((line) => line.includes(` ${id} `));
  return lines.length > 0 ? lines : ['(not in the poller log)'];
}

// Everything left in a lane's state directory that could hold a reply, with the spools' writers.
function leftoverReport(l) {
  const out = [];
  for (const name of spools(l).concat(spools(l, true))) {
    const writer = /\.w(\d+)\.out/.exec(name)?.[1];
    let alive = 'no writer named';
    if (writer !== undefined) {
      try {
        process.kill(-Number(writer), 0);
        alive = `writer group ${writer} ALIVE (${readProcState(writer)})`;
      } catch (error) {
        alive = `writer group ${writer} ${error.code === 'ESRCH' ? 'gone' : error.code}`;
      }
    }
    let text = '';
    try {
      text = readFileSync(join(l.dir, 'state', name), 'utf8');
    } catch (error) {
      text = `(unreadable: ${error.code})`;
    }
    out.push(`spool ${name}: ${alive}; ${text.length} bytes: ${JSON.stringify(text.slice(0, 160))}`);
  }
  const ids = inboxIds(l);
  if (existsSync(l.inbox)) out.push(`inbox holds ${ids.length}: ${ids.join(' ')}`);
  return out;
}

function readProcState(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return `state ${stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0]}`;
  } catch {
    return 'no /proc entry';
  }
}

export async function run({ scale, log }) {
  // 150 kills took ~5 min on the shared 2-core machine at load 50-110 (105 in 215 s); STRESS_SCALE=7
  // reaches the issue's 1,050 kills on a quieter machine or a longer budget.
  const kills = Math.max(LANES, Math.round(150 * scale));
  const base = mkdtempSync(join(tmpdir(), 'hk-stress-inbox-'));
  const lanes = Array.from({ length: LANES }, (_, i) => lane(base, i));
  let keep = false;
  try {
    // Two kinds of kill, alternating. Blind: at a random moment of an undisturbed cycle's length
    // (spool creation, lock take-over, recovery, the poll itself). After the claim: at a random moment
    // between the poller claiming a reply and the cycle's end (the gap issue 12 item 1 is about),
    // timed from the claim itself, so however the load drifts these land after the poller started.
    // Each lane measures an undisturbed cycle (length, and the time from the claim to the end) every
    // 25 kills.
    const warm = await cycle(lanes[0], undefined, 'warm-up');
    let landed = 0;
    let afterPoll = 0;
    let attempts = 0;
    const perHundred = [];
    const seenInInbox = new Set();
    await Promise.all(
      lanes.map(async (l) => {
        let span = Math.max(200, Math.round(warm.ms * 1.2));
        let tail = Math.max(100, Math.round((warm.ms - (warm.claimMs ?? 0)) * 1.2));
        let sinceMeasure = 0;
        // Stops at the target of landed kills; the attempt cap only guards against a cycle that always ends first.
        while (landed < kills && attempts < kills * 3) {
          if (sinceMeasure === 25) {
            sinceMeasure = 0;
            const m = await cycle(l, undefined, 'measure');
            span = Math.max(200, Math.round(m.ms * 1.2));
            if (m.claimMs !== undefined) tail = Math.max(100, Math.round((m.ms - m.claimMs) * 1.2));
          }
          attempts += 1;
          sinceMeasure += 1;
          const kill =
            attempts % 2 === 0 ? { afterClaimMs: Math.floor(Math.random() * tail) } : { afterMs: Math.floor(Math.random() * span) };
          const r = await cycle(l, kill, `attempt ${attempts}`);
          if (r.signal === 'SIGKILL') {
            landed += 1;
            if (r.polled) afterPoll += 1;
            if (landed % 100 === 0) {
              perHundred.push(afterPoll - perHundred.reduce((a, b) => a + b, 0));
              log(`… ${landed} kills landed (${attempts} tried), ${afterPoll} after the poller started`);
            }
          }
          for (const id of inboxIds(l)) seenInInbox.add(`${l.dir}/${id}`);
        }
      }),
    );
    // Drain: the poller hands out nothing more; undisturbed cycles deliver what the inboxes hold.
    let lost = 0;
    let lostBeforeInbox = 0;
    let received = 0;
    let twice = 0;
    let inboxLeft = 0;
    let setAside = 0;
    const problems = [];
    const failingLanes = new Set();
    for (const l of lanes) {
      writeFileSync(join(l.poll, 'stop'), '');
      // Up to 10 undisturbed cycles: at load 100+ a drain cycle's GChat scan can itself time out, and a reply
      // that arrives later is delivered, not lost. One that never does is a failure.
      for (let i = 0; i < 10 && (i === 0 || existsSync(l.inbox) || spools(l).length > 0); i++) await cycle(l, undefined, `drain ${i}`);
      if (existsSync(l.inbox) || spools(l).length > 0) {
        inboxLeft += 1;
        failingLanes.add(l);
        problems.push(`${l.dir}: not drained after 10 cycles`, ...leftoverReport(l).map((x) => `  ${x}`));
      }
      const got = deliveries(l);
      // A spool is set aside only when its output was cut off or damaged: with this poller, never.
      for (const name of spools(l, true)) {
        setAside += 1;
        failingLanes.add(l);
        problems.push(`${l.dir}: spool set aside: ${name}`);
      }
      for (const id of handed(l)) {
        received += 1;
        const n = got.get(id) ?? 0;
        if (n === 0) {
          failingLanes.add(l);
          if (seenInInbox.has(`${l.dir}/${id}`)) {
            lost += 1;
            problems.push(`${l.dir}: ${id} reached the inbox, never delivered`);
          } else {
            lostBeforeInbox += 1;
            problems.push(`${l.dir}: ${id} handed out, never reached the inbox nor the sink`);
          }
          problems.push(...pollerRecord(l, id).map((x) => `  poller: ${x}`));
        } else if (n > 1) twice += 1;
      }
    }
    log(
      `kills: ${landed} SIGKILLs of cycle landed in ${attempts} tries, ${LANES} lanes in parallel; ${afterPoll} after the poller had started (per 100 kills: ${perHundred.join(', ')}); an undisturbed cycle took ${Math.round(warm.ms)} ms at the start`,
    );
    log(
      `replies handed out by the consuming poller: ${received}; lost after reaching the inbox: ${lost}; lost before the inbox: ${lostBeforeInbox}; delivered more than once (at least once, same message id): ${twice}; inboxes not drained: ${inboxLeft}`,
    );
    for (const p of problems) log(p);
    if (failingLanes.size > 0) {
      keep = true;
      log(
        `kept ${base} for the failing lane(s) ${[...failingLanes].map((l) => l.dir).join(', ')}: cycles.log (each cycle's output), poll/log, poll/ids, state/`,
      );
    }
    return {
      trials: landed,
      failures: lost + lostBeforeInbox + inboxLeft + setAside,
      detail: `${landed} SIGKILLs (${afterPoll} after the poller started), ${received} replies handed out, ${lost} lost from the inbox, ${lostBeforeInbox} lost before it, ${setAside} spools set aside, ${twice} delivered twice`,
    };
  } finally {
    for (const l of lanes) spawnSync('tmux', ['-L', l.socket, 'kill-server'], { stdio: 'ignore' });
    if (!keep) rmSync(base, { recursive: true, force: true });
  }
}
