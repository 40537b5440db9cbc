/**
 * Issue 29 items 3 and 4 at the built bin: `cycle --sink tmux:SESSION` on the world's private tmux
 * server, into a fake agent REPL. A half-typed line holds the report (delivery `held` with why in
 * --json, the receipt and `history`; exit 3, nothing typed over it); after Enter the next cycle
 * delivers it once. A pane that does not exist fails clearly; a bad session name exits 2.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBuiltCli, useCliWorlds } from './support/cli-world.js';
import { fakeAgentReplArgv } from './support/fake-agent-repl.js';

const createCliWorld = useCliWorlds();
const built = useBuiltCli();

async function until(what: string, check: () => boolean): Promise<void> {
  for (let i = 0; i < 1200; i += 1) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('cycle --sink tmux: into a live agent pane', () => {
  it('holds while a line is half typed (said in --json, receipt, history), delivers once after Enter', async () => {
    const world = createCliWorld({
      worktrees: [{ dir: 'wt-feature', branch: 'feature-x', commitAt: new Date('2026-02-19T10:00:00Z'), dirty: true }],
    });
    const log = join(world.project, '..', 'agent.log');
    world.tmux('new-session', '-d', '-s', 'agent', '-x', '150', '-y', '40', ...fakeAgentReplArgv(log));
    const pane = () => world.tmux('capture-pane', '-p', '-t', '=agent:');
    const logged = () =>
      readFileSync(log, 'utf8')
        .split('\n')
        .filter((l) => l !== '');
    await until('the prompt', () => /^>$/m.test(pane()));
    world.tmux('send-keys', '-t', '=agent:', '-l', '--', 'half typed');
    await until('the half-typed line', () => /^> half typed$/m.test(pane()));

    // Idle for 0 s: two captures back to back (the wait itself is the sink test's business).
    const env = { ...world.env, HEARTBEAT_TMUX_IDLE_SECONDS: '0' };
    const scope = ['--cwd', world.project, '--tmux-socket', world.tmuxSocket, '--sink', 'tmux:agent'];
    const held = await built.runAt('2026-02-19T14:50:00Z', ['cycle', ...scope, '--json'], env);
    expect(held.code).toBe(3);
    const heldJson = JSON.parse(held.stdout) as { delivery: string; deliveryWhy?: string };
    expect(heldJson.delivery).toBe('held');
    expect(heldJson.deliveryWhy).toMatch(/^tmux pane =agent: has typed-but-unsent input/);
    expect(logged()).toEqual([]);
    expect(pane()).toMatch(/^> half typed$/m);

    const history1 = await built.runAt('2026-02-19T14:55:00Z', ['history', '--cwd', world.project], world.env);
    expect(history1.stdout).toMatch(/delivery held \(tmux pane =agent: has typed-but-unsent input/);

    world.tmux('send-keys', '-t', '=agent:', 'Enter');
    await until('the line sent', () => logged().includes('half typed'));

    const delivered = await built.runAt('2026-02-19T15:00:00Z', ['cycle', ...scope], env);
    expect(delivered.stderr).not.toMatch(/delivery held/);
    expect(delivered.code).toBe(0);
    await until('the report in the agent', () => logged().some((l) => l.includes('wt-feature')));
    const again = await built.runAt('2026-02-19T15:10:00Z', ['cycle', ...scope], env);
    expect(again.code).toBe(0);
    const reportLines = logged().filter((l) => l.includes('wt-feature'));
    expect(reportLines.length).toBeGreaterThan(0);
    expect(new Set(reportLines).size).toBe(reportLines.length);

    const history2 = await built.runAt('2026-02-19T15:15:00Z', ['history', '--cwd', world.project, '--json'], world.env);
    const receipts = (JSON.parse(history2.stdout) as { receipts: { delivery?: string; why?: string }[] }).receipts;
    expect(JSON.stringify(receipts)).toMatch(/"delivery":"held","why":"tmux pane =agent: has typed-but-unsent input/);
    expect(JSON.stringify(receipts)).toMatch(/"delivery":"delivered"/);
  });

  it('a pane that does not exist fails clearly (exit 3); a hostile session name exits 2', async () => {
    const world = createCliWorld({
      worktrees: [{ dir: 'wt-feature', branch: 'feature-x', commitAt: new Date('2026-02-19T10:00:00Z'), dirty: true }],
    });
    const scope = ['--cwd', world.project, '--tmux-socket', world.tmuxSocket];
    const missing = await built.runAt('2026-02-19T14:50:00Z', ['cycle', ...scope, '--sink', 'tmux:nobody:0.1', '--json'], world.env);
    expect(missing.code).toBe(3);
    const json = JSON.parse(missing.stdout) as { delivery: string; deliveryWhy?: string };
    expect(json.delivery).toBe('failed');
    expect(json.deliveryWhy).toMatch(/tmux pane =nobody:0\.1 does not exist .*Fix:/);
    const bad = await built.run(['cycle', ...scope, '--sink', 'tmux:$(touch x)'], world.env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--sink tmux: "\$\(touch x\)" is not a tmux session name/);
  });
});
