/**
 * Issue 24 item 4, through the built bin: a runbook whose tracked sections hold only headers,
 * comments and empty list items is effectively empty. `runbook check` accepts it with no tracked
 * item, and `runbook tick` skips it (`runbook-empty`) without running the gate. Before the fix
 * `check` counted `- [ ]` and `-` as tracked items and `tick` refused the file (exit 2).
 */
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_CLI_BIN } from './support/built-cli.js';

const NOW = ['--now', '2026-10-20T10:00:00Z', '--tz', 'UTC'];

const EMPTY_RUNBOOK = `# Heartbeat runbook
<!-- Tracked sections: one line per live item, with a lift trigger and a bare MM-DD. -->

## Active Blockers
- [ ]

## Watch Items
<!--
- Example. Lift when x (check 10-20)
-->
-
*
+ [ ]

## Open Discussion
### later
- [ ]
`;
const ONE_ITEM_RUNBOOK = EMPTY_RUNBOOK.replace(
  '## Watch Items\n',
  '## Watch Items\n- Webhook retries. Lift when 0 retries for 48 h (check 10-20).\n',
);

// A previous checklist an hour ago: the interval has passed and nothing is open, so the runbook
// check is what decides the tick.
const STATUS = {
  version: 1,
  generatedAt: '2026-10-20T10:00:00Z',
  agents: [{ id: 'lead', name: 'lead', isLead: true, status: 'online' }],
  tasks: [
    {
      id: 'checklist-1',
      task: 'Heartbeat checklist',
      status: 'completed',
      taskType: 'heartbeat-checklist',
      agentId: 'lead',
      createdAt: '2026-10-20T09:00:00Z',
      lastUpdatedAt: '2026-10-20T09:02:00Z',
      finishedAt: '2026-10-20T09:02:00Z',
      output: 'All clear.',
    },
  ],
};

interface BinRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the built bin with an argument array (no shell) in `cwd`. */
function runBin(argv: readonly string[], cwd: string): Promise<BinRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BUILT_CLI_BIN, ...argv], { cwd, env: { PATH: process.env.PATH, TZ: 'UTC' } }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      resolve({ code, stdout, stderr });
    });
  });
}

let dir = '';

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'hb-runbook-empty-items-'));
  writeFileSync(join(dir, 'empty.md'), EMPTY_RUNBOOK);
  writeFileSync(join(dir, 'one-item.md'), ONE_ITEM_RUNBOOK);
  writeFileSync(join(dir, 'status.json'), JSON.stringify(STATUS, null, 2));
});

afterAll(() => {
  if (dir !== '') rmSync(dir, { recursive: true, force: true });
});

/**
 * Runs `runbook tick` on `file` with a command gate that leaves a trace in its own file, so "runs
 * no gate" is observed rather than assumed; `gateCalled` reads the trace.
 */
async function tick(file: string): Promise<BinRun & { readonly gateCalled: boolean }> {
  const gate = join(dir, `gate-${file}.sh`);
  const calls = join(dir, `gate-${file}.calls`);
  writeFileSync(
    gate,
    `#!/bin/sh\ncat >/dev/null\necho called >> '${calls}'\necho '{"quiet": false, "reason": "wake", "summary": "due item"}'\n`,
  );
  chmodSync(gate, 0o755);
  const run = await runBin(['runbook', 'tick', '--runbook', file, '--status', 'status.json', '--gate', gate, ...NOW], dir);
  return { ...run, gateCalled: existsSync(calls) };
}

describe('heartbeat-kit runbook (built bin): empty list items are not items', () => {
  it('check accepts tracked sections of headers, comments and empty items with 0 tracked items (exit 0)', async () => {
    const run = await runBin(['runbook', 'check', 'empty.md', ...NOW], dir);
    expect(run).toEqual({ code: 0, stdout: 'empty.md: accepted (0 tracked item(s), 0 error(s), 0 warning(s))\n', stderr: '' });
  });

  it('tick skips it as runbook-empty (exit 0) and runs no gate', async () => {
    const run = await tick('empty.md');
    expect(run).toEqual({
      code: 0,
      stdout: 'skip: runbook-empty (the runbook holds only headers, comments or empty items)\n',
      stderr: '',
      gateCalled: false,
    });
  });

  it('due, prune and quiet agree: nothing due, nothing to prune, quiet', async () => {
    expect(await runBin(['runbook', 'due', 'empty.md', ...NOW], dir)).toEqual({
      code: 0,
      stdout: 'empty.md: nothing due (UTC)\n',
      stderr: '',
    });
    expect(await runBin(['runbook', 'prune', 'empty.md', '--offline', ...NOW], dir)).toEqual({
      code: 0,
      stdout: 'empty.md: nothing to prune\n',
      stderr: '',
    });
    const quiet = await runBin(['runbook', 'quiet', '--runbook', 'empty.md', '--status', 'status.json', ...NOW], dir);
    expect(quiet).toEqual({
      code: 0,
      stdout: 'Quiet. Same as checklist-1: 0 failures (triaged), schedule-health 0/0, controls ok.\n',
      stderr: '',
    });
  });

  it('one real item makes the same file a runbook: one tracked item, and the tick asks the gate', async () => {
    const check = await runBin(['runbook', 'check', 'one-item.md', ...NOW], dir);
    expect(check).toEqual({ code: 0, stdout: 'one-item.md: accepted (1 tracked item(s), 0 error(s), 0 warning(s))\n', stderr: '' });
    const run = await tick('one-item.md');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^create heartbeat-checklist for lead \[checklist, auto-generated, heartbeat-gate:wake\] priority 60\n/);
    expect(run.gateCalled).toBe(true);
  });
});
