/**
 * The built bin (what `npm install heartbeat-kit` runs) loads every command. The tests of the
 * commands themselves mostly run `main` in-process from the sources; a bundling mistake only shows
 * in the built chunks, as when yaml's CommonJS build made plan, check-liveness and every woterclip
 * command crash with exit 70 while every in-process test passed.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { walkHelp, type HelpText } from '../../../scripts/cli-help-walk.js';
import { BUILT_CLI_BIN } from './support/built-cli.js';

const DIST = join(dirname(BUILT_CLI_BIN), '..', 'dist');

/** `node bin ...argv` with no project around it; stdout and stderr together, as the in-process walk reads them. */
function runBin(argv: readonly string[]): Promise<HelpText> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BUILT_CLI_BIN, ...argv], { cwd: '/', env: { PATH: process.env.PATH } }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      resolve({ code, text: `${stdout}${stderr}` });
    });
  });
}

/** Every JavaScript file the build wrote, recursively. */
function builtFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? builtFiles(join(dir, entry.name)) : entry.name.endsWith('.js') ? [join(dir, entry.name)] : [],
  );
}

describe('the built bin', () => {
  it('holds no require() that an ES bundle cannot serve (esbuild\'s "Dynamic require" shim)', () => {
    const shimmed = builtFiles(DIST).filter((file) => readFileSync(file, 'utf8').includes('Dynamic require of'));
    expect(shimmed.map((file) => file.slice(DIST.length + 1))).toEqual([]);
  });

  // One walk of each kind for both tests below: the built walk starts ~45 processes.
  let built: Awaited<ReturnType<typeof walkHelp>>;
  let sources: Awaited<ReturnType<typeof walkHelp>>;
  beforeAll(async () => {
    built = await walkHelp(runBin);
    sources = await walkHelp();
  });

  it('prints every command and subcommand page, walked from its own help, with exit 0 and no internal error', () => {
    expect(built.top.code).toBe(0);
    expect(built.pages.length).toBeGreaterThan(10);
    const broken = built.pages
      .filter((page) => page.code !== 0 || !page.text.startsWith('Usage: heartbeat-kit') || /internal error|\n\s+at /.test(page.text))
      .map((page) => `${page.argv.join(' ')}: exit ${page.code}: ${page.text.slice(0, 300)}`);
    expect(broken).toEqual([]);
  });

  it('prints the same pages as the sources run in-process', () => {
    expect(built.pages.map((page) => [page.argv.join(' '), page.text])).toEqual(
      sources.pages.map((page) => [page.argv.join(' '), page.text]),
    );
  });
});
