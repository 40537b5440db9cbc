// The installed bin is bundled (packages/cli/tsup.config.ts): a cycle loads the bin's own files
// and no module of another package (not zod's ~95 files, not neverthrow's CommonJS build, whose ES
// import starts Node's WebAssembly export lexer), and no chunk holds esbuild's require shim, which
// throws "Dynamic require of "…" is not supported" when a bundled CommonJS module calls require().
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Checks, run } from './report.mjs';

const SHIM = 'Dynamic require of "';

/** Lists every module a cycle of the installed bin loads, through a load hook. */
export async function binBundle(ctx) {
  const checks = new Checks();
  const own = join(ctx.cwd, 'node_modules/heartbeat-kit');
  const shimmed = readdirSync(join(own, 'dist'), { recursive: true })
    .filter((f) => f.endsWith('.js') && readFileSync(join(own, 'dist', f), 'utf8').includes(SHIM))
    .sort();
  checks.check(shimmed.length === 0, "no file of the installed bin holds esbuild's dynamic-require shim", shimmed.join('\n'));

  const repo = await ctx.newRepo('modules');
  const list = join(ctx.work, 'cycle-modules.txt');
  writeFileSync(
    join(ctx.work, 'list-modules.mjs'),
    "import { register } from 'node:module';\nregister('./list-modules-hooks.mjs', import.meta.url);\n",
  );
  writeFileSync(
    join(ctx.work, 'list-modules-hooks.mjs'),
    "import { appendFileSync } from 'node:fs';\nexport async function load(url, context, next) {\n" +
      '  appendFileSync(process.env.HK_MODULE_LIST, `${url}\\n`);\n  return next(url, context);\n}\n',
  );
  const cycle = await run(
    process.execPath,
    [
      '--import',
      join(ctx.work, 'list-modules.mjs'),
      join(own, 'bin/heartbeat-kit.js'),
      'cycle',
      '--cwd',
      repo,
      '--tmux-socket',
      ctx.tmuxSocket,
    ],
    { cwd: ctx.cwd, env: { ...ctx.env, HK_MODULE_LIST: list } },
  );
  const ownDir = `${pathToFileURL(own).href}/`;
  checks.run('cycle loads only the bundled bin (no module from another package)', cycle, 0, () => {
    const foreign = readFileSync(list, 'utf8')
      .split('\n')
      .filter((url) => url !== '' && !url.startsWith('node:') && !url.startsWith(ownDir));
    return foreign.length === 0 ? '' : `loaded ${foreign.length} module(s) from elsewhere:\n${foreign.join('\n')}`;
  });
  return checks;
}
