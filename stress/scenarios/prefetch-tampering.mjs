// Issue 25 item 1, with the BUILT CLI (packages/cli/dist/bin.js) over a real temp git repository:
// the prefetch plan a cycle leaves in <git-common-dir>/heartbeat-kit/ is tampered with at random
// and one `cycle` runs on it (a dry run or a real one, with --json). Tamperings: every attack the
// issue tried (an extra `sh -c` entry, `git -c core.fsmonitor=…`, `--upload-pack=…`, LD_PRELOAD,
// BASH_ENV or GIT_SSH_COMMAND in a request's env, a double-forked payload), commands in other
// places (an id, a top-level field, an env field, an allow-list entry with a value), random JSON in
// any field, a wrong version, truncation, random bytes, and the file itself: owned by another user
// (as root), a group-writable directory, a world-writable plan, a symbolic link, a FIFO, the
// directory replaced by a link. Every payload would create a marker file. A failure is: a marker
// (checked after each cycle, and for double-forked payloads once more at the end); an exit other
// than 0, a stack trace, a cycle that hangs on the plan (120 s); and for a tampering that must be
// refused: other than exactly one `prefetch plan … ignored` warning, or more than the project
// lookup's own git rev-parse started early. Before the fix every attack ran (9 of 9, silently).
import { execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { bin, createCommittedRepo } from '../support.mjs';

export const name = 'prefetch plan tampering: commands, foreign owners, links and junk in the plan';
export const command = 'npx -y pnpm@10.34.9 stress prefetch-tampering';

const euid = process.geteuid?.() ?? -1;
const isRoot = euid === 0;

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

function hasCc() {
  try {
    execFileSync('cc', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function world() {
  const dir = mkdtempSync(join(tmpdir(), 'hk-stress-prefetch-'));
  const repo = join(dir, 'repo');
  createCommittedRepo(repo);
  // A bd that is a bash script (BASH_ENV reaches it) and answers every listing with no beads.
  const fakeBin = join(dir, 'bin');
  mkdirSync(fakeBin);
  writeFileSync(join(fakeBin, 'bd'), '#!/usr/bin/env bash\necho "[]"\n');
  chmodSync(join(fakeBin, 'bd'), 0o755);
  return {
    dir,
    repo,
    socket: `hk-stress-prefetch-${process.pid}`,
    env: { ...process.env, TMUX: '', PATH: `${fakeBin}:${process.env.PATH ?? ''}` },
  };
}

function cycle(w, extra) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, 'cycle', '--cwd', w.repo, '--tmux-socket', w.socket, '--json', ...extra], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: w.env,
    });
    let stdout = '';
    let stderr = '';
    let hung = false;
    const guard = setTimeout(() => {
      hung = true;
      child.kill('SIGKILL');
    }, 120_000);
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.once('close', (code) => {
      clearTimeout(guard);
      resolve({ code, stdout, stderr, hung });
    });
  });
}

/** The plan file under `dir`, wherever this version keeps it. */
function findPlan(dir) {
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

// Tamperings of the plan's JSON: `refuse` when the plan must be refused with a warning.
function contentTamperings(w, cc) {
  const request = (r) => (json) => {
    json.requests = [...(Array.isArray(json.requests) ? json.requests : []), r];
  };
  const list = {
    'sh-entry': (m) => ({ refuse: true, apply: request({ file: 'sh', args: ['-c', `touch '${m}'`] }) }),
    fsmonitor: (m) => ({
      refuse: true,
      apply: request({ file: 'git', args: ['-C', w.repo, '-c', `core.fsmonitor=touch '${m}'; false`, 'status'], profile: 'git' }),
    }),
    'upload-pack': (m) => ({
      refuse: true,
      apply: request({ file: 'git', args: ['ls-remote', `--upload-pack=touch '${m}'; false`, w.repo] }),
    }),
    'env-BASH_ENV': (m) => {
      const payload = `${m}.sh`;
      writeFileSync(payload, `touch '${m}'\n`);
      return {
        refuse: true,
        apply: request({ file: 'bd', args: ['ready', '--json'], cwd: w.repo, env: { BASH_ENV: payload }, profile: 'bd' }),
      };
    },
    'env-GIT_SSH_COMMAND': (m) => ({
      refuse: true,
      apply: request({
        file: 'git',
        args: ['-C', w.repo, 'ls-remote', 'ssh://example.invalid/x'],
        env: { GIT_SSH_COMMAND: `touch '${m}'; false` },
      }),
    }),
    'double-fork': (m) => ({ refuse: true, apply: request({ file: 'sh', args: ['-c', `(sleep 1; touch '${m}') >/dev/null 2>&1 &`] }) }),
    'id-command': (m) => ({
      refuse: true,
      apply: (json) => {
        json.ids = [...(Array.isArray(json.ids) ? json.ids : []), `sh -c touch '${m}'`];
      },
    }),
    'id-object': (m) => ({
      refuse: true,
      apply: (json) => {
        json.ids = [{ file: 'sh', args: ['-c', `touch '${m}'`] }];
      },
    }),
    'top-level-command': (m) => ({
      refuse: true,
      apply: (json) => {
        json.file = 'sh';
        json.args = ['-c', `touch '${m}'`];
      },
    }),
    'env-field': (m) => ({
      refuse: true,
      apply: (json) => {
        json.env = { BASH_ENV: `${m}.sh` };
      },
    }),
    'allow-with-value': () => ({
      refuse: true,
      apply: (json) => {
        json.envAllow = ['LD_PRELOAD=/tmp/x.so'];
      },
    }),
    version: () => ({
      refuse: true,
      apply: (json) => {
        json.version = 1;
      },
    }),
  };
  if (cc) {
    list['env-LD_PRELOAD'] = (m) => {
      const source = `${m}.c`;
      const library = `${m}.so`;
      writeFileSync(
        source,
        `#include <fcntl.h>\n#include <unistd.h>\n__attribute__((constructor)) static void payload(void) { int fd = open(${JSON.stringify(m)}, O_CREAT | O_WRONLY, 0644); if (fd >= 0) close(fd); }\n`,
      );
      execFileSync('cc', ['-shared', '-fPIC', '-o', library, source]);
      return { refuse: true, apply: request({ file: 'git', args: ['--version'], env: { LD_PRELOAD: library } }) };
    };
  }
  return list;
}

const JUNK = ['oops', -1, 1.5, null, true, [], ['bd-ready-json', 'x'], { a: 1 }, '', 1e300, { file: 'sh' }, ['bd-ready', 'bd-ready']];
const FIELDS = ['version', 'kit', 'key', 'config', 'validUntilMs', 'envAllow', 'ids'];

// Tamperings of the file and its directory, after the content is written: all must be refused.
function fileTamperings(w, plan, marker) {
  const list = {
    'group-writable-dir': () => chmodSync(dirname(plan), 0o770),
    'world-writable-plan': () => chmodSync(plan, 0o666),
    symlink: () => {
      const elsewhere = `${marker}.plan.json`;
      writeFileSync(elsewhere, readFileSync(plan));
      rmSync(plan);
      symlinkSync(elsewhere, plan);
    },
    fifo: () => {
      rmSync(plan);
      execFileSync('mkfifo', [plan]);
    },
    'dir-symlink': () => {
      const elsewhere = `${marker}.dir`;
      mkdirSync(elsewhere, { mode: 0o700 });
      writeFileSync(join(elsewhere, plan.split('/').pop()), readFileSync(plan), { mode: 0o600 });
      rmSync(dirname(plan), { recursive: true });
      symlinkSync(elsewhere, dirname(plan));
    },
  };
  if (isRoot) {
    list['foreign-plan'] = () => chownSync(plan, 65534, 65534);
    list['foreign-dir'] = () => chownSync(dirname(plan), 65534, 65534);
  }
  return list;
}

/** Puts the good plan back where it was, as this user's own file in this user's own directory. */
function restore(plan, text) {
  const dir = dirname(plan);
  try {
    if (lstatSync(dir).isSymbolicLink()) rmSync(dir);
  } catch {
    // gone
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (isRoot) chownSync(dir, 0, 0);
  chmodSync(dir, 0o700);
  rmSync(plan, { force: true });
  writeFileSync(plan, text, { mode: 0o600 });
}

const STACK = /^\s+at .+(\(|:\d+:\d+)/m;

async function trial(w, index, random, plan, goodText, cc) {
  const pick = (list) => list[Math.floor(random() * list.length)];
  const marker = join(w.dir, `PAYLOAD-RAN-${index}`);
  restore(plan, goodText);
  const content = contentTamperings(w, cc);
  const files = fileTamperings(w, plan, marker);
  const kinds = [];
  let refuse = false;
  const json = JSON.parse(goodText);
  // The first trials go through every tampering once; after that, 1–2 at random, sometimes with junk.
  const names = [...Object.keys(content), ...Object.keys(files), 'random-value', 'truncated', 'random-bytes'];
  // Two picks may be the same tampering (seed 152283 made 'dir-symlink' twice, whose second mkdir threw): once each.
  const chosen =
    index < names.length ? [names[index]] : [...new Set(Array.from({ length: 1 + Math.floor(random() * 2) }, () => pick(names)))];
  for (const kind of chosen) {
    kinds.push(kind);
    if (content[kind] !== undefined) {
      const t = content[kind](marker);
      t.apply(json);
      refuse ||= t.refuse;
    } else if (kind === 'random-value') {
      // May still be a plan (a `kit` of another version is ignored silently): only "nothing ran" holds.
      json[pick(FIELDS)] = pick(JUNK);
    }
  }
  let text = JSON.stringify(json);
  if (chosen.includes('truncated')) {
    text = text.slice(0, Math.floor(random() * (text.length - 1)));
    refuse = true;
  }
  if (chosen.includes('random-bytes')) {
    text = Buffer.from(Array.from({ length: 1 + Math.floor(random() * 200) }, () => Math.floor(random() * 256)));
    refuse = true;
  }
  writeFileSync(plan, text);
  // The fifo goes last: the other file tamperings read the plan, and reading a fifo with no writer never returns.
  for (const kind of [...chosen].sort((a, b) => Number(a === 'fifo') - Number(b === 'fifo'))) {
    if (files[kind] === undefined) continue;
    files[kind]();
    refuse = true;
  }

  const dry = random() < 0.5;
  const run = await cycle(w, dry ? ['--dry-run'] : []);
  const problems = [];
  if (run.hung) problems.push('the cycle hung (killed after 120 s)');
  if (run.code !== 0) problems.push(`exit ${run.code}, not 0`);
  if (STACK.test(run.stderr) || /TypeError|ReferenceError|Unhandled|internal error/.test(run.stderr))
    problems.push('stack trace on stderr');
  if (existsSync(marker)) problems.push('A PAYLOAD RAN');
  const warnings = run.stderr.split('\n').filter((line) => line.includes('prefetch plan'));
  let started;
  try {
    started = JSON.parse(run.stdout).prefetch?.started;
  } catch {
    problems.push('stdout is not the cycle JSON');
  }
  if (refuse) {
    if (warnings.length !== 1) problems.push(`${warnings.length} prefetch warnings, not 1`);
    if (started !== 1) problems.push(`${started} runs started early, not 1 (git rev-parse)`);
  } else if (warnings.length > 1 || !(started >= 1 && started <= 10)) {
    problems.push(`${warnings.length} warnings, ${started} runs started early`);
  }
  return { kind: `${kinds.join('+')}${dry ? ' (dry run)' : ''}`, problems };
}

export async function run({ scale, log }) {
  // Default (scale 1): 100 tampered plans, every kind at least once (≈ 1–3 min on 2 busy cores: one
  // CLI cycle per trial). STRESS_SCALE=5: 500.
  const trials = Math.max(1, Math.round(100 * scale));
  const seed = Number(process.env.STRESS_SEED ?? Date.now() % 1_000_000);
  const random = prng(seed);
  const cc = hasCc();
  log(
    `seed ${seed} (replay with STRESS_SEED=${seed}), ${trials} tampered plans${cc ? '' : ' (no C compiler: no LD_PRELOAD payload)'}${isRoot ? '' : ' (not root: no foreign-owner cases)'}`,
  );
  const w = world();
  let failures = 0;
  const kinds = {};
  try {
    const first = await cycle(w, []);
    if (first.code !== 0) return { trials: 0, failures: 1, detail: `the first cycle exited ${first.code}: ${first.stderr.slice(0, 300)}` };
    const plan = findPlan(join(w.repo, '.git', 'heartbeat-kit'));
    if (plan === undefined) return { trials: 0, failures: 1, detail: 'the first cycle left no plan' };
    const goodText = readFileSync(plan, 'utf8');
    for (let i = 0; i < trials; i++) {
      const result = await trial(w, i, random, plan, goodText, cc);
      for (const k of result.kind.replace(' (dry run)', '').split('+')) kinds[k] = (kinds[k] ?? 0) + 1;
      if (result.problems.length > 0) {
        failures++;
        if (failures <= 5) log(`trial ${i} (${result.kind}): ${result.problems.join('; ')}`);
      }
    }
    // A double-forked payload outlives its cycle (it waits 1 s): one more look, after one more cycle and 2 s.
    await cycle(w, ['--dry-run']);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const late = readdirSync(w.dir).filter((f) => /^PAYLOAD-RAN-\d+$/.test(f));
    if (late.length > 0) {
      failures += late.length;
      log(`payloads that ran after their cycle ended: ${late.join(', ')}`);
    }
  } finally {
    rmSync(w.dir, { recursive: true, force: true });
  }
  log(
    `by kind: ${Object.entries(kinds)
      .sort()
      .map(([k, n]) => `${k} ${n}`)
      .join(', ')}`,
  );
  return { trials, failures, detail: `seed ${seed}` };
}
