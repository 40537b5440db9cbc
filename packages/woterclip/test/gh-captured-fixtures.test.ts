import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createProcessRunner } from '@heartbeat-kit/core/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DoubleFault } from './support/github-api-double.js';
import { CAPTURED_DIR, CAPTURE_SCENARIOS, type CapturedRun } from './support/gh-captures.js';
import { fixtureRepo, REAL_GH, startRealGhWorld, type RealGhWorld } from './support/real-gh.js';

// Re-runs every captured scenario through the real gh and the API double and compares with the
// committed fixture, so a fixture can never drift from what gh prints. UPDATE_GH_FIXTURES=1
// rewrites them (then review the diff).
const update = process.env.UPDATE_GH_FIXTURES === '1';
let world: RealGhWorld;
beforeAll(async () => {
  world = await startRealGhWorld(fixtureRepo());
});
afterAll(async () => {
  await world.close();
});

async function capture(
  argv: readonly string[],
  input: string | undefined,
  fault: DoubleFault | undefined,
  dropToken: boolean,
): Promise<CapturedRun> {
  world.double.fault(fault);
  const env: Record<string, string> = { ...world.env };
  if (dropToken) {
    // A user who never logged in: no token, no host, a config directory gh has never written to
    // (with GH_HOST set, gh 2.23 counts the host as logged in with a missing token and calls it).
    delete env.GH_ENTERPRISE_TOKEN;
    delete env.GH_HOST;
    env.GH_CONFIG_DIR = mkdtempSync(join(world.dir, 'fresh-config-'));
  }
  const runner = createProcessRunner({ baseEnv: env });
  const out = (
    await runner.run({ file: REAL_GH, args: [...argv], profile: 'gh', ...(input === undefined ? {} : { input }) })
  )._unsafeUnwrap();
  world.double.fault(undefined);
  const port = (text: string): string =>
    text
      .replaceAll(world.double.host, 'localhost:PORT')
      .replaceAll(world.dir, '$TMP')
      .replace(/fresh-config-\w+/g, 'fresh-config-X');
  return { argv: argv.map(port), exitCode: out.exitCode, stdout: port(out.stdout), stderr: port(out.stderr) };
}

describe('gh fixtures captured from real gh 2.23.0 (test/fixtures/gh-captured)', () => {
  for (const scenario of CAPTURE_SCENARIOS) {
    it(`${scenario.name}: real gh still prints the committed fixture`, async () => {
      const argv = scenario.argv.map((a) => a.replaceAll('localhost:PORT', world.double.host));
      const run = await capture(argv, scenario.input, scenario.fault, scenario.dropToken === true);
      const file = join(CAPTURED_DIR, `${scenario.name}.json`);
      if (update) {
        const header = `captured: real gh 2.23.0 (Debian) against test/support/github-api-double.ts${scenario.fault === undefined ? '' : ` answering ${scenario.fault}`}${scenario.dropToken === true ? ', no token in the environment' : ''}; re-capture with UPDATE_GH_FIXTURES=1 npx vitest run packages/woterclip/test/gh-captured-fixtures.test.ts`;
        writeFileSync(file, `${JSON.stringify({ source: header, ...run }, null, 2)}\n`);
      }
      const committed = JSON.parse(readFileSync(file, 'utf8')) as CapturedRun & { source: string };
      expect(committed.source).toMatch(/^captured: real gh 2\.23\.0/);
      expect(run).toEqual({ argv: committed.argv, exitCode: committed.exitCode, stdout: committed.stdout, stderr: committed.stderr });
    });
  }
  it('the double received no request it has no recorded answer for', () => {
    expect(world.double.unknown).toEqual([]);
  });
});
