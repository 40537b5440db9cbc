// `pnpm test` (README line 2): every check of the repository, in phases, with each step's wall
// time printed at the end so anyone can see where the time goes. Steps of one phase are independent
// and run together, at most --jobs at a time (default: the machine's CPU count): a 2-core CI
// machine then has both cores busy during the single-threaded checks (tsc, eslint, prettier,
// typedoc), which ran one after the other before. A phase starts when the one before it ended; the
// run stops after a phase in which a step failed (later phases need the earlier ones: the package
// checks need the build). A step running alone streams its output; steps running together print
// theirs when they end, so lines never interleave.
// Usage: node scripts/test-steps.mjs [--jobs N] [--only STEP,STEP]
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { argv, env, execPath, exit, stdout } from 'node:process';

/** The phases, in order; each step is a script of the root package.json. */
const PHASES = [
  { name: 'static checks', steps: ['lint', 'typecheck', 'api:check', 'format:check', 'knip'] },
  // vitest's global setup builds the packages' JavaScript (scripts/build-once-for-tests.ts).
  { name: 'tests', steps: ['test:unit'] },
  // The full build (declarations too), after the tests: the e2e tests run dist/, which it rewrites.
  { name: 'build', steps: ['build'] },
  // docs:check loads the sources through Vite, which resolves a workspace package's dependencies
  // on other packages through their builds.
  { name: 'package checks', steps: ['pack:check', 'check:packages', 'docs', 'docs:check'] },
];

const flag = (name) => {
  const at = argv.indexOf(name);
  return at > 0 ? argv[at + 1] : undefined;
};
const jobs = Number(flag('--jobs') ?? availableParallelism());
if (!Number.isInteger(jobs) || jobs < 1) {
  process.stderr.write(`test-steps: --jobs must be a whole number >= 1, got ${flag('--jobs')}\n`);
  exit(2);
}
const only = flag('--only')?.split(',');
const known = PHASES.flatMap((phase) => phase.steps);
const unknown = only?.filter((step) => !known.includes(step)) ?? [];
if (unknown.length > 0) {
  process.stderr.write(`test-steps: unknown step ${unknown.join(', ')}; the steps are ${known.join(', ')}\n`);
  exit(2);
}

// pnpm sets npm_execpath to its own entry when it runs a script; run the steps with the same pnpm.
const pnpm = env.npm_execpath?.includes('pnpm') ? [execPath, env.npm_execpath] : ['npx', '-y', 'pnpm@10.34.9'];

/** Runs `pnpm run --silent <step>`; resolves with its exit code, wall time and (when buffered) its output. */
function runStep(step, buffered) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(pnpm[0], [...pnpm.slice(1), 'run', '--silent', step], {
      stdio: buffered ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    let output = '';
    if (buffered) {
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
    }
    const done = (code) => resolve({ step, code, seconds: (performance.now() - started) / 1000, output });
    child.on('error', (error) => {
      output += `${error.message}\n`;
      done(127);
    });
    child.on('close', (code, signal) => done(code ?? (signal === null ? 1 : 128)));
  });
}

/** Runs the steps at most `jobs` at a time, in the order given. */
async function runPhase(steps) {
  const buffered = steps.length > 1 && jobs > 1;
  const queue = [...steps];
  const results = [];
  const worker = async () => {
    for (let step = queue.shift(); step !== undefined; step = queue.shift()) {
      if (buffered) stdout.write(`> ${step} …\n`);
      else stdout.write(`\n> ${step}\n`);
      const result = await runStep(step, buffered);
      if (buffered)
        stdout.write(
          `\n> ${step}: ${result.code === 0 ? 'ok' : `FAILED (exit ${result.code})`}, ${result.seconds.toFixed(1)} s\n${result.output}`,
        );
      results.push(result);
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, steps.length) }, worker));
  return results;
}

const started = performance.now();
const rows = [];
let failed = [];
for (const phase of PHASES) {
  const steps = phase.steps.filter((step) => only === undefined || only.includes(step));
  if (steps.length === 0) continue;
  const phaseStarted = performance.now();
  const results = await runPhase(steps);
  rows.push({ phase: phase.name, seconds: (performance.now() - phaseStarted) / 1000, results });
  failed = results.filter((result) => result.code !== 0).map((result) => result.step);
  if (failed.length > 0) break;
}

const load = await import('node:os').then((os) => os.loadavg()[0].toFixed(2));
stdout.write(`\nWhere the time went (--jobs ${jobs}; load average now ${load}):\n`);
for (const row of rows) {
  stdout.write(`  ${row.phase.padEnd(16)} ${row.seconds.toFixed(1).padStart(7)} s\n`);
  for (const result of row.results.sort((a, b) => b.seconds - a.seconds))
    stdout.write(
      `    ${result.step.padEnd(14)} ${result.seconds.toFixed(1).padStart(7)} s  ${result.code === 0 ? 'ok' : `FAILED (exit ${result.code})`}\n`,
    );
}
stdout.write(`  ${'total'.padEnd(16)} ${((performance.now() - started) / 1000).toFixed(1).padStart(7)} s\n`);
if (failed.length > 0) {
  stdout.write(`\npnpm test: ${failed.join(', ')} failed\n`);
  exit(1);
}
