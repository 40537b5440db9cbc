// A CommonJS project (what `npm init -y` writes: "type": "commonjs") using the ES-module-only
// packages the three ways their READMEs say: require() (Node >= 20.19 loads ES modules with
// require: every code entry has a `default` condition for it), import() from a .cjs file, and
// TypeScript in a .mts file (the README's embed example, `module` node16) — `tsc` on a .ts file
// there fails with TS1295/TS1309, which is why the READMEs say .mts.
import { createRequire } from 'node:module';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Checks, parseJson, run } from './report.mjs';

/** npm without its network side trips (audit, fund, update check). */
const npmEnv = { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };

/** The code entries (import specifiers) of the installed packages, from their package.json `exports`. */
function codeEntries(project, names) {
  return names.flatMap((name) => {
    const { exports } = JSON.parse(readFileSync(join(project, 'node_modules', name, 'package.json'), 'utf8'));
    return Object.entries(exports)
      .filter(([key, target]) => key !== './package.json' && typeof target === 'object')
      .map(([key]) => (key === '.' ? name : `${name}${key.slice(1)}`));
  });
}

// Requires each entry; prints [entry, number of exports or the error code].
const REQUIRE = `const out = process.argv.slice(1).map((s) => { try { return [s, Object.keys(require(s)).length]; } catch (e) { return [s, e.code ?? String(e)]; } });
console.log(JSON.stringify(out));`;

const DYNAMIC_CJS = `'use strict';
import('@heartbeat-kit/core').then((core) => console.log(typeof core.runCycle, typeof require));
`;

/** The CommonJS project: `npm init -y`, the CLI's tarballs installed, then the three routes. */
export async function commonjsProject(ctx, tarballs, names) {
  const checks = new Checks();
  const project = join(ctx.work, 'my-cjs-project');
  mkdirSync(project);
  const init = await run('npm', ['init', '-y'], { cwd: project, env: npmEnv });
  const type = (parseJson(readFileSync(join(project, 'package.json'), 'utf8')) ?? {}).type ?? 'commonjs';
  checks.check(init.status === 0 && type === 'commonjs', `npm init -y writes a CommonJS project (type: ${type})`);
  const install = await run('npm', ['install', ...tarballs], { cwd: project, env: npmEnv, timeoutMs: 600_000 });
  if (!checks.check(install.status === 0, 'npm install of the CLI tarballs into it', `exit ${install.status}\n${install.stderr}`))
    return checks;

  const entries = codeEntries(project, names);
  const required = await run(process.execPath, ['-e', REQUIRE, ...entries], { cwd: project, env: ctx.env });
  const failed = (parseJson(required.stdout.trim()) ?? []).filter(([, n]) => typeof n !== 'number' || n === 0);
  checks.run(`require() of every code entry (${entries.length}) on Node ${process.versions.node}`, required, 0, () =>
    failed.length === 0 ? '' : failed.map(([s, e]) => `${s}: ${e}`).join('; '),
  );

  writeFileSync(join(project, 'dynamic.cjs'), DYNAMIC_CJS);
  const dynamic = await run(process.execPath, ['dynamic.cjs'], { cwd: project, env: ctx.env });
  checks.run("import('@heartbeat-kit/core') from a .cjs file", dynamic, 0, (r) =>
    r.stdout.trim() === 'function function' ? '' : 'not "function function"',
  );

  writeFileSync(
    join(project, 'embed.mts'),
    readFileSync(join(ctx.root, 'examples/embed-custom-orchestrator/src/readme-example.ts'), 'utf8'),
  );
  const tsconfig = {
    compilerOptions: {
      module: 'node16',
      moduleResolution: 'node16',
      target: 'es2022',
      lib: ['es2022'],
      strict: true,
      skipLibCheck: false,
      types: ['node'],
      typeRoots: [join(ctx.root, 'node_modules/@types')],
      noEmit: true,
    },
    files: ['embed.mts'],
  };
  writeFileSync(join(project, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
  const tsc = createRequire(join(ctx.root, 'package.json')).resolve('typescript/bin/tsc');
  const typed = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: project, env: ctx.env, timeoutMs: 600_000 });
  checks.run("tsc --noEmit of the README's embed example as embed.mts (module node16)", typed, 0);
  return checks;
}
