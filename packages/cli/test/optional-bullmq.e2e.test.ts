import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleCli, type BundledCli } from './support/bundle-cli.js';

// The CLI bundled with @heartbeat-kit/bullmq left as an import nothing can resolve: what a user
// gets from `npm install heartbeat-kit` without the optional fleet package.
let cli: BundledCli;
beforeAll(async () => {
  cli = await bundleCli({ external: ['@heartbeat-kit/bullmq'] });
});
afterAll(() => cli.dispose());

const run = (...argv: string[]) => spawnSync(process.execPath, [cli.bin, ...argv], { encoding: 'utf8', cwd: process.cwd() });

describe('fleet without @heartbeat-kit/bullmq installed', () => {
  it('says how to add it and exits 2, without a stack trace', () => {
    const fleet = run('fleet', 'list');
    expect(fleet.status).toBe(2);
    expect(fleet.stdout).toBe('');
    expect(fleet.stderr).toMatch(
      /^heartbeat-kit fleet: needs the optional package @heartbeat-kit\/bullmq \(BullMQ and the Redis client\), which is not installed\. Fix: npm install @heartbeat-kit\/bullmq@\d+\.\d+\.\d+\n$/,
    );
  });

  it('with --json the same error is one JSON object on stderr', () => {
    const fleet = run('fleet', 'list', '--json');
    expect(fleet.status).toBe(2);
    expect(JSON.parse(fleet.stderr)).toMatchObject({
      command: 'fleet',
      fix: expect.stringMatching(/^npm install @heartbeat-kit\/bullmq@/) as unknown,
    });
  });

  it('every other command works without it', () => {
    expect(run('cycle', '--help').status).toBe(0);
    expect(run('--version').status).toBe(0);
  });
});
