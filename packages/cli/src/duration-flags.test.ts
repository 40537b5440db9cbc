import { describe, expect, it } from 'vitest';
import { useFileTempDir } from '../test/support/cli-world.js';
import { runCli } from '../test/support/run-cli.js';

const dir = useFileTempDir('hk-duration-');
const run = (argv: readonly string[]) => runCli(argv, { cwd: dir, env: { PATH: process.env.PATH, HOME: dir } });

// Every flag that takes a duration, with the operands it needs to get that far; each is read before
// the command touches Redis or a repository (test/fleet-flags.e2e.test.ts proves it for the fleet).
const DURATION_FLAGS: readonly (readonly [readonly string[], string])[] = [
  [['history'], '--since'],
  [['woterclip', 'history'], '--since'],
  [['fleet', 'history', 'my-repo'], '--since'],
  [['check-liveness'], '--max-age'],
  [['fleet', 'liveness', 'my-repo'], '--max-age'],
  [['fleet', 'add', 'my-repo', '--scanners', 'fake'], '--interval'],
  [['fleet', 'add', 'my-repo', '--scanners', 'fake'], '--scan-ms'],
  [['fleet', 'worker'], '--lock-ttl'],
  [['loop'], '--interval'],
  [['loop'], '--jitter'],
  [['plan'], '--interval'],
  [['plan'], '--jitter'],
];

describe('duration flags', () => {
  it.each(DURATION_FLAGS)(
    '%j %s: the whole value is the duration; prose after it is exit 2 naming the flag and the fix',
    async (argv, flag) => {
      for (const [bad, what] of [
        ['30 minutes of nothing', 'has "of nothing" after the duration.'],
        ['2 hours ago', 'has "ago" after the duration.'],
        ['about 5m', 'has "about" before the duration.'],
      ] as const) {
        const r = await run([...argv, flag, bad]);
        expect(r.code, `${argv.join(' ')} ${flag} ${bad}: ${r.stderr}`).toBe(2);
        expect(r.stderr).toContain(`${flag} ${JSON.stringify(bad)} ${what} Fix: `);
        expect(r.stdout).toBe('');
      }
    },
  );
});
