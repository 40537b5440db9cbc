// Writes the generated references: docs/reference/configuration.md and docs/schemas/*.json from
// the zod schemas, docs/reference/cli.md from every command's --help (see docs-gen-sources.ts).
//   node scripts/docs-gen.mjs           write them
//   node scripts/docs-gen.mjs --check   exit 1 when a committed file differs from what the code gives
// Vite's module runner loads the TypeScript sources; the dependencies it leaves external (a
// workspace package imported by another) resolve to their builds, so run it after `pnpm build`.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { argv, exit, stderr, stdout } from 'node:process';
import { fileURLToPath } from 'node:url';
import { runnerImport } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));
const check = argv.includes('--check');
const conditions = ['source', 'module', 'node', 'import', 'default'];

/** @type {{ module: { generatedDocs: readonly { path: string, text: string }[] } }} */
const loaded = await runnerImport(join(root, 'scripts/docs-gen-sources.ts'), {
  configFile: false,
  logLevel: 'silent',
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: conditions } },
});
const files = loaded.module.generatedDocs;

const stale = [];
for (const file of files) {
  const target = join(root, file.path);
  const current = await readFile(target, 'utf8').catch(() => undefined);
  if (current === file.text) continue;
  if (check) {
    stale.push(file.path);
    continue;
  }
  await mkdir(dirname(target), { recursive: true });
  await writeFile(target, file.text);
  stdout.write(`wrote ${file.path}\n`);
}
if (check) {
  if (stale.length > 0) {
    stderr.write(
      `docs:check: generated references are stale:\n${stale.map((p) => `  ${p}`).join('\n')}\nRun: npx -y pnpm@10.34.9 docs:gen\n`,
    );
    exit(1);
  }
  stdout.write(`docs:check: ${files.length} generated files are up to date\n`);
}
