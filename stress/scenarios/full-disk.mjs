// Issue 12 (full disk), with the BUILT CLI (packages/cli/dist/bin.js) over a real temp git
// repository. The state directory is a small tmpfs when `mount -t tmpfs` is permitted (root),
// filled to a random few pages of free space, so the disk runs out at a different step each
// trial (the lock, the receipt, the state save); otherwise ENOSPC is injected into every write
// under the state directory by a preloaded module. A state file holds an undelivered GChat reply.
// A failure is: exit 0 or a stack trace on the full disk; nothing on stderr naming the full disk;
// the state file not the one before or a whole newer one (torn, empty); cycle.lock left behind
// (the next cycle, with space again, skips with exit 4); the reply lost after space returns.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bin, createCommittedRepo } from '../support.mjs';

export const name = 'full disk: cycles with no space left in the state directory';
export const command = 'npx -y pnpm@10.34.9 stress full-disk';

const REPLY_LINE = 'Q-9: disk is fine now';
const reply = {
  category: 'GCHAT_REPLY_RECEIVED',
  priority: 'Immediate',
  fingerprint: 'GCHAT_REPLY_RECEIVED:q-9',
  subject: 'q-9',
  line: REPLY_LINE,
  action: 'Act on the reply to q-9',
  short: 'reply to q-9',
  details: {},
};
const STATE = JSON.stringify({
  version: 1,
  cycle: 41,
  reportsSent: 5,
  reported: {},
  seen: {},
  panes: {},
  pipelines: {},
  undelivered: [reply],
});

// Preloaded into the CLI when tmpfs is not permitted: every write-open under HK_ENOSPC_DIR fails.
const INJECT = `
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
const dir = process.env.HK_ENOSPC_DIR;
const full = (path, flags) => typeof path === 'string' && path.startsWith(dir) && /[wa+]/.test(String(flags ?? 'r'));
const enospc = (path) => Object.assign(new Error(\`ENOSPC: no space left on device, open '\${path}'\`), { code: 'ENOSPC', errno: -28, syscall: 'open', path });
const open = fs.promises.open;
fs.promises.open = async (path, flags, mode) => { if (full(path, flags)) throw enospc(path); return open(path, flags, mode); };
const writeFile = fs.promises.writeFile;
fs.promises.writeFile = async (path, data, options) => { if (full(path, typeof options === 'object' ? options?.flag ?? 'w' : 'w')) throw enospc(path); return writeFile(path, data, options); };
const appendFile = fs.promises.appendFile;
fs.promises.appendFile = async (path, data, options) => { if (full(path, 'a')) throw enospc(path); return appendFile(path, data, options); };
const openSync = fs.openSync;
fs.openSync = (path, flags, mode) => { if (full(path, flags)) throw enospc(path); return openSync(path, flags, mode); };
syncBuiltinESMExports();
`;

function world() {
  const dir = mkdtempSync(join(tmpdir(), 'hk-stress-disk-'));
  const repo = join(dir, 'repo');
  createCommittedRepo(repo);
  return { dir, repo, socket: `hk-stress-disk-${process.pid}` };
}

function tryMount(mountPoint) {
  if (process.getuid?.() !== 0) return false;
  return spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=512k', 'tmpfs', mountPoint], { stdio: 'ignore' }).status === 0;
}

// Fills the tmpfs, then frees `pages` pages (0 or 1), so the next writes fail somewhere along the cycle.
function fill(mountPoint, pages) {
  const filler = join(mountPoint, 'filler');
  const fd = openSync(filler, 'w');
  const chunk = Buffer.alloc(4096, 1);
  try {
    for (;;) writeSync(fd, chunk);
  } catch {
    // ENOSPC: the disk is full
  } finally {
    closeSync(fd);
  }
  if (pages > 0) {
    const size = readFileSync(filler).length;
    rmSync(filler);
    const fd2 = openSync(filler, 'w');
    writeSync(fd2, Buffer.alloc(Math.max(0, size - pages * 4096), 1));
    closeSync(fd2);
  }
}

function cycle(w, stateDir, env) {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        ...(env.inject ? ['--import', env.inject] : []),
        bin,
        'cycle',
        '--cwd',
        w.repo,
        '--tmux-socket',
        w.socket,
        '--state',
        join(stateDir, 'state.json'),
      ],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, TMUX: '', ...(env.inject ? { HK_ENOSPC_DIR: stateDir } : {}) },
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const STACK = /^\s+at .+(\(|:\d+:\d+)/m;

export async function run({ scale, log }) {
  const trials = Math.max(1, Math.round(12 * scale));
  const w = world();
  const mountPoint = join(w.dir, 'disk');
  mkdirSync(mountPoint);
  const tmpfs = tryMount(mountPoint);
  const injectFile = join(w.dir, 'enospc.mjs');
  if (!tmpfs) writeFileSync(injectFile, INJECT);
  log(
    tmpfs
      ? 'state directory on a 512 KiB tmpfs, filled to 0 or 1 free page per trial'
      : 'tmpfs not permitted: ENOSPC injected into every write under the state directory',
  );
  let failures = 0;
  const failedAt = {};
  try {
    for (let i = 0; i < trials; i++) {
      const stateDir = join(mountPoint, `s${i}`);
      mkdirSync(stateDir);
      const state = join(stateDir, 'state.json');
      writeFileSync(state, STATE);
      const pages = i % 2;
      if (tmpfs) fill(mountPoint, pages);
      const full = await cycle(w, stateDir, tmpfs ? {} : { inject: injectFile });
      const problems = [];
      if (full.code === 0) problems.push('exit 0 on a full disk');
      if (STACK.test(full.stderr)) problems.push('stack trace on stderr');
      if (!/ENOSPC|no space/i.test(full.stderr)) problems.push('stderr does not say the disk is full');
      const text = readFileSync(state, 'utf8');
      let saved;
      try {
        saved = JSON.parse(text);
      } catch {
        problems.push('state file torn or empty');
      }
      if (saved !== undefined && text !== STATE && saved.cycle !== 42)
        problems.push(`state neither the old one nor the next (cycle ${saved.cycle})`);
      const where = /cannot take the cycle lock/.test(full.stderr)
        ? 'lock'
        : /could not save state/.test(full.stderr)
          ? 'state save'
          : /receipt/.test(full.stderr)
            ? 'receipt'
            : 'other';
      failedAt[where] = (failedAt[where] ?? 0) + 1;
      // Space again: the next cycle must run (no lock left behind) and deliver the reply.
      rmSync(join(mountPoint, 'filler'), { force: true });
      const after = await cycle(w, stateDir, {});
      if (after.code === 4) problems.push('cycle.lock left behind: the next cycle skipped');
      else if (after.code !== 0) problems.push(`next cycle with space exited ${after.code}`);
      const delivered = full.stdout.includes(REPLY_LINE) || after.stdout.includes(REPLY_LINE);
      if (!delivered) problems.push('the undelivered reply was lost');
      if (existsSync(join(stateDir, 'cycle.lock'))) problems.push('cycle.lock exists after the cycles');
      if (problems.length > 0) {
        failures++;
        if (failures <= 5)
          log(
            `trial ${i} (${pages} free pages): ${problems.join('; ')} — stderr: ${full.stderr.trim().split('\n').slice(-2).join(' | ').slice(0, 300)}`,
          );
      }
      rmSync(stateDir, { recursive: true, force: true });
    }
  } finally {
    if (tmpfs) spawnSync('umount', [mountPoint], { stdio: 'ignore' });
    rmSync(w.dir, { recursive: true, force: true });
  }
  log(
    `the disk ran out at: ${Object.entries(failedAt)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ')}`,
  );
  return { trials, failures, detail: tmpfs ? 'tmpfs' : 'injected ENOSPC' };
}
