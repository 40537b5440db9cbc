// Issue 12 item 4, with the BUILT CLI (packages/cli/dist/bin.js) over a real temp git repository:
// a valid state file holding an undelivered GChat reply is poisoned at random — a field of the
// wrong type, a junk entry beside the reply, a newer version, a truncated file, random bytes —
// and one `cycle` runs on it. A failure is: a stack trace or an unexpected exit code; a damaged
// file not kept as state.json.corrupt-* byte for byte; the reply lost although it was
// salvageable (the poison was elsewhere); a newer version not refused with exit 3 naming the
// version, or touched. Before the fix a wrong-shaped or newer file was replaced by fresh state
// without a backup (5 of 5): counter restarted, reply gone.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bin, createCommittedRepo } from '../support.mjs';

export const name = 'poisoned state files: wrong types, newer versions, truncation, random bytes';
export const command = 'npx -y pnpm@10.34.9 stress poisoned-state';

const REPLY_LINE = 'Q-77: yes, ship the migration';
const reply = {
  category: 'GCHAT_REPLY_RECEIVED',
  priority: 'Immediate',
  fingerprint: 'GCHAT_REPLY_RECEIVED:q-77',
  subject: 'q-77',
  line: REPLY_LINE,
  action: 'Act on the reply to q-77',
  short: 'reply to q-77',
  details: {},
};
const valid = () => ({
  version: 3,
  cycle: 41,
  reportsSent: 5,
  reported: { 'P1_WORK_READY:b-1': 1 },
  reportedContent: { 'P1_WORK_READY:b-1': { hash: '0a1b2c3d4e5f60718293a4b5c6d7', repeats: 1 } },
  seen: { 'PIPELINE_STALLED:p': 1 },
  scannerSlices: {
    'idle-orchestrators': { version: 1, data: { panes: { o: { hash: 'h', sinceMs: 1 } } } },
    pipelines: { version: 1, data: { stages: { p: 'Validation' } } },
    orchestrators: { version: 1, data: { inProgressCount: 2 } },
  },
  undelivered: [reply],
});

// A tiny seeded PRNG, so a failing trial can be replayed with STRESS_SEED.
function prng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const JUNK = ['oops', -1, 1.5, null, true, [], [1, 'x'], { a: 1 }, '', 1e300, { hash: 3 }];
const FIELDS = ['cycle', 'reportsSent', 'reported', 'reportedContent', 'seen', 'scannerSlices'];

// One poisoned file and what must happen to it.
function poison(random) {
  const pick = (list) => list[Math.floor(random() * list.length)];
  const kind = pick(['wrong-type', 'wrong-type', 'bad-entry', 'bad-version', 'newer', 'truncated', 'random-bytes']);
  const doc = valid();
  switch (kind) {
    case 'wrong-type': {
      const field = pick(FIELDS);
      let junk = pick(JUNK);
      // An object is valid for the record fields; make sure it really does not fit.
      if (
        ['reported', 'reportedContent', 'seen', 'scannerSlices'].includes(field) &&
        typeof junk === 'object' &&
        junk !== null &&
        !Array.isArray(junk)
      )
        junk = 'not-an-object';
      doc[field] = junk;
      return { kind: `${kind}:${field}`, text: JSON.stringify(doc), expect: 'salvage' };
    }
    case 'bad-entry':
      doc.undelivered = random() < 0.5 ? [pick(JUNK), reply] : [reply, { ...reply, priority: 'Whenever' }];
      return { kind, text: JSON.stringify(doc), expect: 'salvage' };
    case 'bad-version':
      doc.version = pick([0, '1', null, 1.5, -3, '2', '3']);
      return { kind, text: JSON.stringify(doc), expect: 'salvage' };
    case 'newer': {
      const version = 4 + Math.floor(random() * 1000);
      doc.version = version;
      return { kind, text: JSON.stringify(doc), expect: 'refuse', version };
    }
    case 'truncated': {
      const full = JSON.stringify(doc);
      return { kind, text: full.slice(0, Math.floor(random() * (full.length - 1))), expect: 'aside' };
    }
    default: {
      const bytes = Buffer.alloc(1 + Math.floor(random() * 200));
      for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(random() * 256);
      return { kind, text: bytes, expect: 'aside' };
    }
  }
}

function world() {
  const dir = mkdtempSync(join(tmpdir(), 'hk-stress-poison-'));
  const repo = join(dir, 'repo');
  createCommittedRepo(repo);
  return { dir, repo, socket: `hk-stress-poison-${process.pid}` };
}

function cycle(w, state) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, 'cycle', '--cwd', w.repo, '--tmux-socket', w.socket, '--state', state], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, TMUX: '' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const STACK = /^\s+at .+(\(|:\d+:\d+)/m;

async function trial(w, index, random) {
  const p = poison(random);
  const stateDir = join(w.dir, `state-${index}`);
  mkdirSync(stateDir);
  const state = join(stateDir, 'state.json');
  writeFileSync(state, p.text);
  const original = readFileSync(state);
  const run = await cycle(w, state);
  const asides = readdirSync(stateDir).filter((f) => f.startsWith('state.json.corrupt-'));
  const problems = [];
  if (STACK.test(run.stderr) || /TypeError|ReferenceError|Unhandled/.test(run.stderr)) problems.push('stack trace on stderr');
  if (p.expect === 'refuse') {
    if (run.code !== 3) problems.push(`exit ${run.code}, not 3`);
    if (!run.stderr.includes(`state version ${p.version}`)) problems.push('refusal does not name the version');
    if (!readFileSync(state).equals(original)) problems.push('newer state was modified');
    if (asides.length > 0) problems.push('newer state set aside instead of refused');
  } else {
    if (run.code !== 0) problems.push(`exit ${run.code}, not 0`);
    if (asides.length !== 1) problems.push(`${asides.length} corrupt-* copies, not 1`);
    else if (!readFileSync(join(stateDir, asides[0])).equals(original)) problems.push('the copy set aside differs from the poisoned file');
    if (!existsSync(state)) problems.push('no state saved after the cycle');
    if (p.expect === 'salvage') {
      if (!run.stdout.includes(REPLY_LINE)) problems.push('the undelivered reply was lost');
      try {
        const saved = JSON.parse(readFileSync(state, 'utf8'));
        const counterPoisoned = p.kind === 'wrong-type:cycle';
        if (!counterPoisoned && saved.cycle !== 42) problems.push(`cycle counter ${saved.cycle}, not 42`);
      } catch (error) {
        problems.push(`saved state unreadable: ${error.message}`);
      }
    }
  }
  rmSync(stateDir, { recursive: true, force: true });
  return { kind: p.kind, problems };
}

export async function run({ scale, log }) {
  const trials = Math.max(1, Math.round(40 * scale));
  const seed = Number(process.env.STRESS_SEED ?? Date.now() % 1_000_000);
  const random = prng(seed);
  log(`seed ${seed} (replay with STRESS_SEED=${seed}), ${trials} poisoned files`);
  const w = world();
  let failures = 0;
  const kinds = {};
  try {
    for (let i = 0; i < trials; i++) {
      const result = await trial(w, i, random);
      const base = result.kind.split(':')[0];
      kinds[base] = (kinds[base] ?? 0) + 1;
      if (result.problems.length > 0) {
        failures++;
        if (failures <= 5) log(`trial ${i} (${result.kind}): ${result.problems.join('; ')}`);
      }
    }
  } finally {
    rmSync(w.dir, { recursive: true, force: true });
  }
  log(
    `by kind: ${Object.entries(kinds)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ')}`,
  );
  return { trials, failures, detail: `seed ${seed}` };
}
