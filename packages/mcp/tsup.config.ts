import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', 'node/index': 'src/node/index.ts' },
  format: ['esm'],
  dts: true,
  sourcemap: true,
  // Maps without the sources inside (src/ is not published), as in the other packages.
  esbuildPlugins: [{ name: 'lean-source-maps', setup: (build) => void (build.initialOptions.sourcesContent = false) }],
  clean: true,
  target: 'node20',
});
