// Issue 25 item 4, with the BUILT CLI (packages/cli/dist/bin.js) over a real temp git repository: the
// GChat poll prints 60 MB and 700 MB into its spool (one reply that long, or 64 KiB replies), and one
// `cycle` reads it, then a second cycle runs with a quiet poll. Before the fix the spool bypassed the
// runner's 4 MiB cap: 60 MB cost 2.8 GB RSS and 32 s (the scan timed out and the 62 MB reply went into
// the inbox); 700 MB failed with "Invalid string length", was never set aside, and every later cycle
// read it again (590-660 MB RSS) with the fix "make the directory of the state file readable".
// A failure is: an exit code other than 0; a peak RSS of either cycle of 400 MiB or more (measured with
// /usr/bin/time -f %M where it exists, else sampled from /proc/<pid>/status VmHWM); the output not set
// aside as exactly one `.unreadable-` file of its full size with a warning naming that size and the
// 4 MiB cap; replies that end before the cap not delivered (64 KiB mode) or any reply delivered (one
// reply mode); the second cycle warning about it again or touching it.
// Scale 1: 4 trials (60 and 700 MB, each mode), about 1 min on 2 cores; STRESS_SCALE=n repeats them n times.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { clearInterval, setInterval } from 'node:timers';
import { join } from 'node:path';
import { bin, createCommittedRepo } from '../support.mjs';

export const name = 'GChat poll output over the 4 MiB cap (60 MB and 700 MB spools)';
export const command = 'npx -y pnpm@10.34.9 stress gchat-spool-cap';

const MAX_RSS_KB = 400 * 1024;
const TIME = '/usr/bin/time';

// Prints the poll JSON of plan.json once — `mb` MB of reply text, as one reply or as 64 KiB replies —
// streamed like a real poller, then resets the plan so the next run prints no reply.
const POLL = `import { readFileSync, writeFileSync } from 'node:fs';
const dir = process.argv[2];
const { mb, mode } = JSON.parse(readFileSync(dir + '/plan.json', 'utf8'));
writeFileSync(dir + '/plan.json', JSON.stringify({ mb: 0, mode: 'one' }));
const write = (s) => new Promise((r) => (process.stdout.write(s) ? r() : process.stdout.once('drain', r)));
const head = (id) => '{"question_id": "' + id + '", "session_id": "s", "sender_name": "Ana", "reply_text": "';
await write('{"replies": [');
const total = mb * 1000 * 1000;
if (mode === 'one' && total > 0) {
  await write(head('q-big'));
  const chunk = 'x'.repeat(1 << 20);
  for (let left = total; left > 0; left -= chunk.length) await write(left < chunk.length ? chunk.slice(0, left) : chunk);
  await write('"}');
} else if (total > 0) {
  const text = 'y'.repeat(64 * 1024);
  for (let i = 0; i * text.length < total; i++) await write((i > 0 ? ', ' : '') + head('q-' + i) + text + '"}');
}
await write('], "pending_count": 0}\\n');
`;

/** Peak RSS (KiB) of a process, sampled from /proc while it runs: a lower bound, used without /usr/bin/time. */
function sampleHighWater(pid, into) {
  const timer = setInterval(() => {
    try {
      const kb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
      into.kb = Math.max(into.kb, kb);
    } catch {
      // exited
    }
  }, 20);
  return () => clearInterval(timer);
}

function cycle(w) {
  return new Promise((resolve) => {
    const started = performance.now();
    const timed = existsSync(TIME);
    const rssFile = join(w.dir, 'rss');
    rmSync(rssFile, { force: true });
    const argv = [bin, 'cycle', '--cwd', w.repo, '--tmux-socket', w.socket, '--state', join(w.state, 'state.json')];
    const child = timed
      ? spawn(TIME, ['-f', '%M', '-o', rssFile, process.execPath, ...argv], { env: w.env, stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn(process.execPath, argv, { env: w.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const sampled = { kb: 0 };
    const stopSampling = timed ? () => undefined : sampleHighWater(child.pid, sampled);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => {
      stopSampling();
      const kb = timed && existsSync(rssFile) ? Number(readFileSync(rssFile, 'utf8').trim().split('\n').at(-1)) : sampled.kb;
      resolve({ code, stdout, stderr, kb, seconds: (performance.now() - started) / 1000, how: timed ? 'time -f %M' : 'VmHWM samples' });
    });
  });
}

function files(w) {
  return existsSync(w.state) ? readdirSync(w.state).filter((n) => n.includes('.gchat-spool-')) : [];
}

async function trial(w, mb, mode, log) {
  rmSync(w.state, { recursive: true, force: true });
  writeFileSync(join(w.poll, 'plan.json'), JSON.stringify({ mb, mode }));
  const problems = [];
  const first = await cycle(w);
  const spools = files(w);
  const aside = spools.filter((n) => n.includes('.unreadable-'));
  const size = aside.length === 1 ? statSync(join(w.state, aside[0])).size : -1;
  if (first.code !== 0) problems.push(`first cycle exit ${first.code}`);
  if (first.kb >= MAX_RSS_KB) problems.push(`first cycle peak RSS ${first.kb} KiB`);
  if (aside.length !== 1 || spools.length !== 1) problems.push(`spool files after it: ${spools.join(', ') || 'none'}`);
  if (size < mb * 1000 * 1000) problems.push(`set-aside file of ${size} bytes`);
  const warned = first.stderr.includes(`: ${size} bytes (${(size / 1048576).toFixed(1)} MiB), over the 4.0 MiB read cap;`);
  if (!warned) problems.push(`no warning naming ${size} bytes and the cap: ${first.stderr.slice(0, 600)}`);
  const delivered = (first.stdout.match(/Question ID: q-/g) ?? []).length;
  const deliveredWord = /; (\d+) whole repl/.exec(first.stderr)?.[1];
  if (mode === 'one' && (delivered !== 0 || !first.stderr.includes('no whole reply within it, none delivered')))
    problems.push(`one-reply mode delivered ${delivered}`);
  // 64 KiB replies: the ones that end before 4 MiB (63) are delivered; the report lists some and counts the rest.
  if (mode === 'many' && (deliveredWord === undefined || Number(deliveredWord) < 60))
    problems.push(`many mode: "${deliveredWord}" delivered`);
  const mtime = size >= 0 ? statSync(join(w.state, aside[0])).mtimeMs : 0;
  const second = await cycle(w);
  if (second.code !== 0) problems.push(`second cycle exit ${second.code}`);
  if (second.kb >= MAX_RSS_KB) problems.push(`second cycle peak RSS ${second.kb} KiB`);
  if (/GChat poll output|spool/.test(second.stderr)) problems.push(`second cycle warned again: ${second.stderr.slice(0, 400)}`);
  if (size >= 0 && (statSync(join(w.state, aside[0])).size !== size || statSync(join(w.state, aside[0])).mtimeMs !== mtime))
    problems.push('set-aside file changed');
  log(
    `${mb} MB, ${mode === 'one' ? 'one reply' : '64 KiB replies'}: spool ${size} bytes set aside, ${deliveredWord ?? 0} whole replies delivered; ` +
      `peak RSS ${(first.kb / 1024).toFixed(0)} MiB in ${first.seconds.toFixed(1)} s, next cycle ${(second.kb / 1024).toFixed(0)} MiB in ${second.seconds.toFixed(1)} s (${first.how})` +
      (problems.length > 0 ? ` — FAILED: ${problems.join('; ')}` : ''),
  );
  rmSync(w.state, { recursive: true, force: true });
  return { failed: problems.length > 0, rss: Math.max(first.kb, second.kb) };
}

export async function run({ scale, log }) {
  if (!existsSync(bin)) return { trials: 0, failures: 1, detail: `${bin} missing: run through \`pnpm stress\`, which builds first` };
  const dir = mkdtempSync(join(tmpdir(), 'hk-stress-spool-cap-'));
  const repo = join(dir, 'repo');
  const poll = join(dir, 'poll');
  createCommittedRepo(repo, {
    '.claude/HEARTBEAT.md': `# Heartbeat Configuration\n\n## GChat\n- Poll command: ${JSON.stringify([process.execPath, join(poll, 'poll.mjs'), poll])}\n`,
  });
  mkdirSync(poll);
  writeFileSync(join(poll, 'poll.mjs'), POLL);
  const w = { dir, repo, poll, state: join(dir, 'state'), socket: `hk-stress-spool-${process.pid}`, env: { ...process.env, TMUX: '' } };
  let trials = 0;
  let failures = 0;
  let peak = 0;
  try {
    for (let round = 0; round < Math.max(1, Math.round(scale)); round++) {
      for (const mb of [60, 700]) {
        for (const mode of ['one', 'many']) {
          const result = await trial(w, mb, mode, log);
          trials += 1;
          if (result.failed) failures += 1;
          peak = Math.max(peak, result.rss);
        }
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { trials, failures, detail: `highest peak RSS of a cycle ${(peak / 1024).toFixed(0)} MiB (bound ${MAX_RSS_KB / 1024} MiB)` };
}
