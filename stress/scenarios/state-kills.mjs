// The file state store under SIGKILL at random moments (the unit suite's
// packages/core/test/file-state-crash.test.ts kills at each step of a save deterministically; this
// is the long loop). A writer saving counter documents in a loop is SIGKILLed 0–25 ms after it
// loaded, again and again, in 4 independent lanes (one state file each). A failure is a kill
// after which the file does not parse, holds neither the last nor the previous counter it wrote,
// has a bad checksum or padding, or the next writer did not resume from it; or a final load that
// warns or leaves a killed writer's temp file. The run only proves something if kills land inside
// saves: fewer than a quarter of kills between "saving" and "saved" counts as a failure.
// Default (scale 1): 200 kills, 224 s measured on 2 cores at load ~15 (STRESS_SCALE=2: 400).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const name = 'file state store: SIGKILLs at random moments';
export const command = 'npx -y pnpm@10.34.9 stress state-kills';

const root = join(import.meta.dirname, '..', '..');
const child = join(import.meta.dirname, '..', 'children', 'state-writer.mjs');
const core = join(root, 'packages', 'core', 'dist', 'node', 'index.js');
const LANES = 4;

function runAndKill(path, killAfterMs) {
  return new Promise((resolve, reject) => {
    const writer = spawn(process.execPath, [child, path], { stdio: ['ignore', 'pipe', 'pipe'] });
    let buffered = '';
    let stderr = '';
    let armed = false;
    writer.stdout.setEncoding('utf8');
    writer.stderr.on('data', (d) => (stderr += d));
    writer.stdout.on('data', (chunk) => {
      buffered += chunk;
      if (!armed && buffered.includes('loaded ')) {
        armed = true;
        setTimeout(() => writer.kill('SIGKILL'), killAfterMs);
      }
    });
    writer.once('error', reject);
    writer.once('close', (_code, signal) => resolve({ lines: buffered.split('\n').filter((line) => line !== ''), signal, stderr }));
  });
}

const lastNumber = (lines, prefix) => {
  for (let i = lines.length - 1; i >= 0; i -= 1) if (lines[i].startsWith(prefix)) return Number(lines[i].slice(prefix.length));
  return undefined;
};

/** A small seeded generator so a failing run can be replayed (the seed is printed). */
function seeded(seed) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

async function lane(base, index, kills, random, problems) {
  const dir = mkdtempSync(join(base, `lane-${index}-`));
  const path = join(dir, 'state.json');
  let expected = 0;
  let failures = 0;
  let midWriteKills = 0;
  const fail = (what) => {
    failures += 1;
    if (problems.length < 5) problems.push(`lane ${index}: ${what}`);
  };
  for (let kill = 0; kill < kills; kill += 1) {
    const where = `kill ${kill}`;
    const outcome = await runAndKill(path, Math.floor(random() * 25));
    if (outcome.signal !== 'SIGKILL')
      fail(`${where}: writer ended with ${outcome.signal ?? 'an exit'}: ${outcome.stderr.trim().split('\n').at(-1) ?? ''}`);
    const bad = outcome.lines.filter((line) => line.startsWith('error') || line.startsWith('warning'));
    if (bad.length > 0) fail(`${where}: ${bad[0]}`);
    if (lastNumber(outcome.lines, 'loaded ') !== expected)
      fail(`${where}: loaded ${lastNumber(outcome.lines, 'loaded ')}, expected ${expected}`);
    const saving = lastNumber(outcome.lines, 'saving ') ?? expected;
    const saved = lastNumber(outcome.lines, 'saved ') ?? expected;
    if (saving !== saved) midWriteKills += 1;
    if (!existsSync(path)) {
      // Killed before the very first save finished: no file is the only right answer.
      if (saved !== 0) fail(`${where}: file missing after "saved ${saved}"`);
      continue;
    }
    let document;
    try {
      document = JSON.parse(readFileSync(path, 'utf8'));
    } catch (error) {
      fail(`${where}: torn document: ${error.message}`);
      break;
    }
    if (document.counter !== saved && document.counter !== saving)
      fail(`${where}: counter ${document.counter}, neither saved ${saved} nor saving ${saving}`);
    if (document.checksum !== document.counter * 7 || document.padding?.length !== 20_000) fail(`${where}: checksum or padding wrong`);
    expected = document.counter;
  }
  const orphans = readdirSync(dir).filter((name) => name.includes('.tmp-')).length;
  // A load (what the next heartbeat does first) sweeps temp files of killed writers.
  const { createFileStateStore } = await import(core);
  const loaded = await createFileStateStore({ path }).load();
  if (loaded.isErr()) {
    fail(`final load failed: ${loaded.error.message}`);
    return { failures, midWriteKills, orphans };
  }
  const reloaded = loaded.value;
  if (reloaded.warnings.length > 0) fail(`final load warned: ${reloaded.warnings.join(' | ')}`);
  if (readdirSync(dir).some((name) => name.includes('.tmp-'))) fail('final load left temp files');
  return { failures, midWriteKills, orphans };
}

export async function run({ scale, log }) {
  if (!existsSync(core)) return { trials: 0, failures: 1, detail: `${core} missing: run through \`pnpm stress\`, which builds first` };
  const kills = Math.max(LANES, Math.round(200 * scale));
  const seed = Number(process.env.STRESS_SEED ?? Date.now() % 1_000_000);
  const base = mkdtempSync(join(tmpdir(), 'hk-stress-state-'));
  const problems = [];
  try {
    const perLane = Math.ceil(kills / LANES);
    // Independent lanes overlap process start-up on the cores.
    const results = await Promise.all(
      Array.from({ length: LANES }, (_, index) => lane(base, index, perLane, seeded(seed + index), problems)),
    );
    const total = perLane * LANES;
    const failures = results.reduce((sum, r) => sum + r.failures, 0);
    const midWriteKills = results.reduce((sum, r) => sum + r.midWriteKills, 0);
    const orphans = results.reduce((sum, r) => sum + r.orphans, 0);
    log(
      `seed ${seed} (STRESS_SEED=${seed} replays it): ${total} kills, ${midWriteKills} between "saving" and "saved", ${orphans} orphaned temp files before the final sweep`,
    );
    for (const p of problems) log(p);
    // The loop only proves something if kills actually land inside saves.
    const tooFewInside = midWriteKills > total / 4 ? 0 : 1;
    if (tooFewInside) log(`only ${midWriteKills} of ${total} kills landed inside a save (needs more than a quarter)`);
    return {
      trials: total,
      failures: failures + tooFewInside,
      detail: `${total} SIGKILLs, ${midWriteKills} inside a save, ${failures} torn/lost documents`,
    };
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
