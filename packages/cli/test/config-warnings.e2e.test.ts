/**
 * Issue 12 item 7 end to end: a 10,000-line HEARTBEAT.md full of lines heartbeat-kit does not
 * know prints the first 10 warnings and one summary line per cycle, from the CLI's real entry
 * (`src/bin.ts` bundled, run as a process), not 10,000 lines.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bundleCli, type BundledCli } from './support/bundle-cli.js';
import { WORLD_HEARTBEAT_MD, createWorld, type World } from './support/world.js';

let world: World | undefined;
let bundle: BundledCli | undefined;
beforeAll(async () => {
  bundle = await bundleCli();
});
afterAll(() => bundle?.dispose());
afterEach(() => {
  world?.destroy();
  world = undefined;
});

function runBin(args: readonly string[], env: Record<string, string | undefined>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bundle!.bin, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('a HEARTBEAT.md of 10,000 unknown lines', () => {
  it('prints the first 10 warnings, then one summary line, and still runs the cycle', async () => {
    const junk = Array.from({ length: 10_000 }, (_, i) => `- Bogus ${i}: yes`).join('\n');
    world = createWorld({ heartbeatMd: `${WORLD_HEARTBEAT_MD}${junk}\n` });
    const statePath = join(world.root, 'state', 'state.json');
    const run = await runBin(['cycle', '--cwd', world.project, '--tmux-socket', world.tmuxSocket, '--state', statePath, '--now', '2026-02-19T14:00:00Z'], world.env);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('HEARTBEAT_OK\n');
    const lines = run.stderr.trimEnd().split('\n');
    const config = lines.filter((line) => line.includes('HEARTBEAT.md:') || line.includes('more warnings'));
    expect(config).toHaveLength(11);
    for (const [i, line] of config.slice(0, 10).entries()) expect(line).toMatch(new RegExp(`^heartbeat-kit cycle: warning: .*HEARTBEAT\\.md:\\d+: unknown key "Bogus ${i}" under Active Hours — ignored\\.$`));
    expect(config[10]).toBe('heartbeat-kit cycle: warning: … and 9990 more warnings like these in the config file (fix the ones above, then run again to see the rest)');
    expect(lines.length).toBeLessThan(20);
  }, 120_000);
});
