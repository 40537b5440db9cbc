// `pnpm stress`: fault loops too long or too many for the unit suite (SIGKILLs of the built CLI, lock
// races, hung grandchildren, full disks, poisoned state). Each scenario in ./scenarios prints what it
// did as figures — trials, failures and the command that reproduces it — and the run exits 1 if any
// scenario counted a failure. The unit suite keeps small deterministic versions of each fault.
//
// A scenario module exports `name` (string), `command` (how to rerun it alone) and
// `run({ scale, log })` resolving to `{ trials, failures, detail? }`. `scale` (STRESS_SCALE, default 1)
// multiplies trial counts so CI can run the full loops and a developer a quick pass. CI gives the whole
// run 1800 s (.ci/run): a scenario's default (scale 1) must finish in 5 min on 2 cores at load 15;
// say in its header what scale 1 does and which STRESS_SCALE reaches the counts its issue asks for.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const only = process.argv[2];
const scale = Number(process.env.STRESS_SCALE ?? '1');
if (!Number.isFinite(scale) || scale <= 0) {
  console.error(`stress: STRESS_SCALE must be a positive number, got ${process.env.STRESS_SCALE}`);
  process.exit(2);
}
const dir = join(import.meta.dirname, 'scenarios');
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.mjs') && (only === undefined || f.startsWith(only)))
  .sort();

const rows = [];
for (const file of files) {
  const scenario = await import(pathToFileURL(join(dir, file)).href);
  const started = performance.now();
  console.log(`\n## ${scenario.name}  (${file})`);
  let result;
  try {
    result = await scenario.run({ scale, log: (line) => console.log(`  ${line}`) });
  } catch (error) {
    result = {
      trials: 0,
      failures: 1,
      detail: `scenario threw: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    };
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  rows.push({ name: scenario.name, ...result, seconds, command: scenario.command });
  console.log(`  trials ${result.trials}, failures ${result.failures}, ${seconds} s${result.detail ? ` — ${result.detail}` : ''}`);
}

console.log('\n| scenario | trials | failures | seconds | command |\n|---|---:|---:|---:|---|');
for (const r of rows) console.log(`| ${r.name} | ${r.trials} | ${r.failures} | ${r.seconds} | \`${r.command}\` |`);
const failed = rows.filter((r) => r.failures > 0 || r.trials === 0);
console.log(`\n${rows.length - failed.length} passed, ${failed.length} failed`);
process.exit(failed.length > 0 ? 1 : 0);
