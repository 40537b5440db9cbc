/**
 * The cycle prefetch runs while Node loads the command, so what the bin loads before it can start
 * `git rev-parse` must stay small: the prefetch's chunk and what it imports, never zod or core's
 * index (docs/performance.md, "Starting the first listings while Node loads"). Checked on the
 * built bin, which is what ships.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILT_CLI_BIN } from './support/built-cli.js';

const DIST = join(dirname(BUILT_CLI_BIN), '..', 'dist');

/** The chunk file and every chunk it imports statically, transitively. */
function staticClosure(file: string, seen = new Map<string, string>()): Map<string, string> {
  if (seen.has(file)) return seen;
  const text = readFileSync(file, 'utf8');
  seen.set(file, text);
  for (const [, path] of text.matchAll(/(?:from|import)\s*"(\.\/[^"]+\.js)"/g)) staticClosure(join(dirname(file), path ?? ''), seen);
  return seen;
}

describe('the chunk the bin loads to start the prefetch', () => {
  it('holds the process runner, the plan and the option table: no zod, no core index, under 64 KiB', () => {
    const bin = readFileSync(join(DIST, 'bin.js'), 'utf8');
    const entry = /import\("(\.\/bin-chunks\/cycle-prefetch-[^"]+\.js)"\)/.exec(bin)?.[1];
    expect(entry, 'bin.js imports the prefetch chunk on its own').toBeDefined();
    const chunks = staticClosure(join(DIST, entry ?? ''));
    const all = [...chunks.values()].join('\n');
    expect(all).not.toMatch(/ZodError|\$ZodType|zod/i);
    // Core's index would bring the config parser and the cycle engine.
    expect(all).not.toContain('parseHeartbeatConfig');
    expect(all).not.toContain('runCycle');
    const bytes = [...chunks.values()].reduce((sum, text) => sum + Buffer.byteLength(text), 0);
    expect(bytes).toBeLessThan(64 * 1024);
  });
});

describe('what the bin loads before it knows the command', () => {
  // bin.ts's static imports run for every command, `--version` and `--help` included. One import of
  // core/node's index from them (force-exit.ts) once put zod and every file store there: --version
  // loaded 520 KB instead of 46 KB and its cold start went from 1.2x to 1.8x `node -e 0` (bench).
  it('holds no zod, no core index and no command, under 64 KiB', () => {
    const chunks = staticClosure(join(DIST, 'bin.js'));
    const all = [...chunks.values()].join('\n');
    // zod's own classes (the bin itself names zod once: it sets zod's jitless switch for one-shot commands).
    expect(all).not.toMatch(/ZodError|\$ZodType/);
    expect(all).not.toContain('parseHeartbeatConfig');
    expect(all).not.toContain('createFileStateStore');
    expect(all).not.toContain('runCycle');
    const bytes = [...chunks.values()].reduce((sum, text) => sum + Buffer.byteLength(text), 0);
    expect(bytes).toBeLessThan(64 * 1024);
  });
});
