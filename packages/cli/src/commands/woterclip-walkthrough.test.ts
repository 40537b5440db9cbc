import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createProcessRunner } from '@heartbeat-kit/core/node';
import { describe, expect, it } from 'vitest';
import { useFileTempDir } from '../../test/support/cli-world.js';
import type { CliIo } from '../io.js';
import { createWoterclipCommand } from './woterclip.js';

// Runs the WoterClip walkthrough of docs/getting-started.md line by line, with the fake gh in
// place of GitHub: the doc's commands are read from the doc, so the two cannot drift apart.
const repoRoot = join(import.meta.dirname, '..', '..', '..', '..');
const fakeGh = join(repoRoot, 'packages', 'woterclip', 'test', 'fixtures', 'fake-gh', 'gh.mjs');
chmodSync(fakeGh, 0o755);
const root = useFileTempDir('woterclip-walkthrough-');

function walkthroughLines(): string[] {
  const doc = readFileSync(join(repoRoot, 'docs', 'getting-started.md'), 'utf8');
  const at = doc.indexOf('<!-- woterclip-walkthrough');
  const block = /```sh\n([\s\S]*?)```/.exec(doc.slice(at));
  return (block?.[1] ?? '')
    .split('\n')
    .map((l) => l.replace(/\s+#.*$/, '').trim())
    .filter((l) => l !== '');
}

describe('docs/getting-started.md §5 (WoterClip walkthrough)', () => {
  it('every line runs, from an empty directory to a first queue_empty beat and a status', async () => {
    const lines = walkthroughLines();
    expect(lines[0]).toMatch(/^mkdir my-project && cd my-project && git init$/);
    expect(lines.filter((l) => l.startsWith('npx heartbeat-kit woterclip ')).length).toBe(lines.length - 1);
    const dir = join(root, 'my-project');
    mkdirSync(dir);
    execFileSync('git', ['init', '-q'], { cwd: dir });
    const state = join(root, 'gh-state.json');
    writeFileSync(
      state,
      JSON.stringify({ repo: 'OWNER/NAME', login: 'octocat', authMode: 'ok', seq: 100, argv: [], labels: [], issues: [] }),
    );
    const command = createWoterclipCommand({
      gh: fakeGh,
      runner: createProcessRunner({ baseEnv: { PATH: process.env.PATH, FAKE_GH_STATE: state } }),
    });
    const outputs: string[] = [];
    for (const line of lines.slice(1)) {
      // The fake gh serves "OWNER/NAME" (a valid owner/name); YOUR_LOGIN becomes a real-shaped login.
      const argv = line.replace('YOUR_LOGIN', 'boss').split(/\s+/).slice(3);
      const out: string[] = [];
      const io: CliIo = {
        stdout: (t) => out.push(t),
        stderr: (t) => out.push(t),
        cwd: dir,
        env: { PATH: process.env.PATH },
        shutdownSignal: new AbortController().signal,
      };
      const code = await command(argv, io);
      expect({ line, code, out: out.join('') }).toEqual({ line, code: 0, out: out.join('') });
      outputs.push(out.join(''));
    }
    expect(outputs.some((o) => o.includes('No issues in queue. Heartbeat complete.'))).toBe(true);
    expect(existsSync(join(dir, '.woterclip', 'personas', 'orchestrator', 'SOUL.md'))).toBe(true);
    const log = readFileSync(join(dir, '.woterclip', 'heartbeat-log.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { stop_reason?: string });
    expect(log).toEqual([expect.objectContaining({ stop_reason: 'queue_empty' })]);
    expect((JSON.parse(readFileSync(state, 'utf8')) as { labels: string[] }).labels).toContain('agent-working');
    expect(execFileSync('git', ['status', '--porcelain'], { cwd: dir, encoding: 'utf8' })).toContain('.woterclip/');
  });
});
