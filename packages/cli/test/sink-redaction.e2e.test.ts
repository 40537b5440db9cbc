/**
 * Issue 25 item 3, through the built bin: a command sink that fails prints secrets on its stderr,
 * and the delivery warning quotes that stderr — on stderr and in `--json`. Each secret printed in
 * full before (only the word after `Authorization:` was masked); now none of their values appears.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBuiltCli, useCliWorlds } from './support/cli-world.js';

const createCliWorld = useCliWorlds();
const built = useBuiltCli();

/** The shapes issue 25 saw printed, each with the value that must not be. */
const SECRETS = [
  ['Authorization: token ', 'ghx8Kd92jdQ0aaaaZZZZ'],
  ['', 'glpat-Xy7Kq2mN9pLr4sT8vW1z'],
  ['', 'AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY'],
  ['', 'ya29.a0AfH6SMBx3kQ9vT2mL8nP4rW7yZ1cE5'],
  ['', 'npm_Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7c'],
  ['', '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'],
  ['', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U'],
  ['password ', 'hunter2XY99'],
  ['X-Api-Key: ', 'k3yV4lu3abcdef'],
] as const;

describe('a failing command sink prints secrets on its stderr', () => {
  it('the delivery warning holds none of them, in text and in --json', async () => {
    const world = createCliWorld({ ready: [{ id: 'bd-p0', title: 'Prod down', priority: 0 }] });
    const sink = join(world.root, 'sink.mjs');
    const line = SECRETS.map(([before, value]) => `${before}${value}`).join(' ');
    writeFileSync(sink, `process.stderr.write(${JSON.stringify(`curl: (22) 401\n${line}\n`)});\nprocess.exitCode = 1;\n`);
    const cycle = (now: string, ...extra: string[]) =>
      built.runAt(
        now,
        ['cycle', '--cwd', world.project, '--tmux-socket', world.tmuxSocket, '--sink', `command:${process.execPath} ${sink}`, ...extra],
        world.env,
      );

    const text = await cycle('2026-02-19T14:00:00Z');
    expect(text.code).toBe(3);
    const warning = text.stderr.split('\n').find((l) => l.includes('delivery failed: sink command exited 1: '));
    expect(warning).toBeDefined();
    // Every shape was redacted in place (none was merely cut off by the 300-character cap).
    expect(warning?.match(/\[REDACTED\]/g)).toHaveLength(SECRETS.length);
    expect(warning).toContain('Authorization: token [REDACTED] ');
    expect(warning).toContain('X-Api-Key: [REDACTED]');

    const json = await cycle('2026-02-19T14:10:00Z', '--json');
    expect(json.code).toBe(3);
    const warnings = (JSON.parse(json.stdout) as { warnings: string[] }).warnings;
    expect(warnings.find((w) => w.startsWith('delivery failed: sink command exited 1: '))?.match(/\[REDACTED\]/g)).toHaveLength(
      SECRETS.length,
    );
    expect(json.stderr).toContain('delivery failed: sink command exited 1: ');

    for (const [, value] of SECRETS) {
      for (const output of [text.stdout, text.stderr, json.stdout, json.stderr]) expect(output).not.toContain(value);
    }
  });
});
