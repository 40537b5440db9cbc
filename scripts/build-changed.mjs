// Builds only the packages whose inputs changed since their last build, so README line 1
// (`node scripts/build-changed.mjs && node packages/cli/bin/heartbeat-kit.js cycle`) costs one build on
// a fresh clone and a hash of the inputs afterwards.
// A package's key is a hash of its build inputs (sources without tests, package.json, tsup and
// tsconfig files, the shared tsconfig) and of the keys of the workspace packages it depends on;
// it is stored in dist/.build-key after a successful build. Content, not mtimes: a checkout or
// `git stash` changes mtimes without changing what tsup would produce.
// Usage: node scripts/build-changed.mjs [--quiet] [--root DIR]   (progress goes to stderr; stdout stays clean)
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const rootFlag = process.argv.indexOf('--root');
// --root points the script at another workspace (its test builds a tiny one in a temp dir).
const root = rootFlag > 0 ? process.argv[rootFlag + 1] : join(import.meta.dirname, '..');
const quiet = process.argv.includes('--quiet');
const say = (line) => {
  if (!quiet) process.stderr.write(`${line}\n`);
};

/** Every file under `dir` (sorted, recursive), skipping tests. */
function filesUnder(dir) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(path));
    else if (!entry.name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

const packagesDir = join(root, 'packages');
const packages = readdirSync(packagesDir)
  .map((name) => join(packagesDir, name))
  .filter((dir) => existsSync(join(dir, 'package.json')) && statSync(dir).isDirectory())
  .map((dir) => {
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const deps = { ...manifest.dependencies, ...manifest.devDependencies, ...manifest.peerDependencies, ...manifest.optionalDependencies };
    return { dir, name: manifest.name, hasBuild: manifest.scripts?.build !== undefined, deps: Object.keys(deps) };
  });
const byName = new Map(packages.map((p) => [p.name, p]));

// Dependencies before dependents.
const ordered = [];
const visit = (pkg, seen = new Set()) => {
  if (ordered.includes(pkg) || seen.has(pkg)) return;
  seen.add(pkg);
  for (const dep of pkg.deps) if (byName.has(dep)) visit(byName.get(dep), seen);
  ordered.push(pkg);
};
for (const pkg of packages) visit(pkg);

const keys = new Map();
const stale = [];
for (const pkg of ordered) {
  const hash = createHash('sha256').update('js-only\0');
  const inputs = [
    ...['package.json', 'tsup.config.ts', 'tsconfig.json'].map((f) => join(pkg.dir, f)).filter((f) => existsSync(f)),
    ...[join(root, 'tsconfig.base.json')].filter((f) => existsSync(f)),
    ...filesUnder(join(pkg.dir, 'src')),
  ];
  for (const file of inputs)
    hash
      .update(`${relative(root, file)}\0`)
      .update(readFileSync(file))
      .update('\0');
  for (const dep of pkg.deps) if (keys.has(dep)) hash.update(`${dep}=${keys.get(dep)}\0`);
  const key = hash.digest('hex');
  keys.set(pkg.name, key);
  const stampFile = join(pkg.dir, 'dist', '.build-key');
  const built = existsSync(stampFile) && readFileSync(stampFile, 'utf8').trim() === key;
  if (pkg.hasBuild && !built) stale.push({ ...pkg, key, stampFile });
}

if (stale.length > 0) {
  const fresh = !packages.some((p) => existsSync(join(p.dir, 'dist', '.build-key')));
  say(
    `heartbeat-kit: ${fresh ? 'first build' : 'rebuilding what changed'}: ${stale.length} of ${packages.length} packages (later runs skip unchanged ones)`,
  );
}
// JavaScript only: the declaration files take most of a full build and running the CLI needs none
// (`pnpm build` still makes them). One process, tsup's API, so six packages pay one start-up.
const { build } = await import('tsup');
for (const [index, pkg] of stale.entries()) {
  const started = performance.now();
  if (!quiet) process.stderr.write(`  [${index + 1}/${stale.length}] ${pkg.name} … `);
  process.chdir(pkg.dir);
  try {
    // esbuild keeps the working directory it started in; tell it the package's.
    await build({ dts: false, silent: true, esbuildOptions: (options) => void (options.absWorkingDir = pkg.dir) });
  } catch (error) {
    say('failed');
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.stderr.write(`build of ${pkg.name} failed; rerun it alone with: npx -y pnpm@10.34.9 --filter ${pkg.name} build\n`);
    process.exit(1);
  }
  writeFileSync(pkg.stampFile, `${pkg.key}\n`);
  say(`${((performance.now() - started) / 1000).toFixed(1)} s`);
}
