/**
 * Issue 25 item 10c end to end (the built bin): an `Expected:` orchestrator name with a character
 * outside the allowed set (`orch-\`touch X\``) is a config warning naming file:line, the key and the
 * fix, and is left out whole: never cut at the backtick into `orch-\`touch X`, never reported as a
 * MISSING session; the valid names of the same line are kept.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBuiltCli, useCliWorlds } from './support/cli-world.js';
import { WORLD_HEARTBEAT_MD } from './support/world.js';

const createCliWorld = useCliWorlds();
const built = useBuiltCli();

describe('Orchestrators → Expected with a name outside the allowed set (issue 25 item 10c)', () => {
  it('warns with file:line, key and fix; the name is neither cut nor reported; the other names still are', async () => {
    const md = `${WORLD_HEARTBEAT_MD}\n## Orchestrators\n- Expected: orch-\`touch X\`, orch-real\n`;
    const w = createCliWorld({ heartbeatMd: md });
    const run = await built.run(
      [
        'cycle',
        '--cwd',
        w.project,
        '--tmux-socket',
        w.tmuxSocket,
        '--state',
        join(w.root, 'hb', 'state.json'),
        '--now',
        '2026-02-19T14:00:00Z',
        '--dry-run',
      ],
      w.env,
    );
    expect(run.code).toBe(0);
    const line = md.split('\n').indexOf('- Expected: orch-`touch X`, orch-real') + 1;
    expect(run.stderr).toContain(
      `heartbeat-kit cycle: warning: .claude/HEARTBEAT.md:${line}: Orchestrators → Expected: "orch-\`touch X\`" is not a tmux session name (letters, digits, '.', '_', '-' and spaces inside a name) — ignored. Fix: write the name as \`tmux ls\` shows it, e.g. orch-auth, and separate names with commas.\n`,
    );
    expect(run.stdout).toContain('MISSING: orch-real (expected in HEARTBEAT.md)');
    expect(run.stdout).not.toContain('touch');
  }, 900_000);
});
