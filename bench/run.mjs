// `pnpm bench`: every benchmark of the repository, each printing figures and ratios against a
// baseline measured in the same run. Run after a build (the root script builds first).
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const only = process.argv[2];
const benches = ['cycle-bench.mjs', 'fleet-bench.mjs', 'fleet-capacity.mjs'].filter(
  (b) => existsSync(join(import.meta.dirname, b)) && (only === undefined || b.startsWith(only)),
);
for (const bench of benches) {
  console.log(`\n## ${bench}\n`);
  await import(`./${bench}`);
}
