import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm'],
  dts: true,
  sourcemap: true,
  // Maps without the sources inside (src/ is not published): under --enable-source-maps a stack trace
  // still names the src/ file and line, which is what a bug report needs, at a fraction of the size.
  esbuildPlugins: [{ name: 'lean-source-maps', setup: (build) => void (build.initialOptions.sourcesContent = false) }],
  clean: true,
  target: 'node20',
});
