import { describe, expect, it } from 'vitest';
import { useBuiltCli } from './support/cli-world.js';

// The built CLI installed without @heartbeat-kit/bullmq, which then resolves from nowhere: what a user
// gets from `npm install heartbeat-kit` without the optional fleet package.
const cli = useBuiltCli({ without: ['@heartbeat-kit/bullmq'] });

const run = (...argv: string[]) => cli.run(argv, process.env);

describe('fleet without @heartbeat-kit/bullmq installed', () => {
  it('says how to add it and exits 2, without a stack trace', async () => {
    const fleet = await run('fleet', 'list');
    expect(fleet.code).toBe(2);
    expect(fleet.stdout).toBe('');
    expect(fleet.stderr).toMatch(
      /^heartbeat-kit fleet: needs the optional package @heartbeat-kit\/bullmq \(BullMQ and the Redis client\), which is not installed\. Fix: npm install @heartbeat-kit\/bullmq@\d+\.\d+\.\d+\n$/,
    );
  });

  it('with --json the same error is one JSON object on stderr', async () => {
    const fleet = await run('fleet', 'list', '--json');
    expect(fleet.code).toBe(2);
    expect(JSON.parse(fleet.stderr)).toMatchObject({
      command: 'fleet',
      fix: expect.stringMatching(/^npm install @heartbeat-kit\/bullmq@/) as unknown,
    });
  });

  it('every other command works without it', async () => {
    expect((await run('cycle', '--help')).code).toBe(0);
    expect((await run('--version')).code).toBe(0);
  });
});
