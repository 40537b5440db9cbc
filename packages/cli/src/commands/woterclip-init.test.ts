import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createProcessRunner } from '@heartbeat-kit/core/node';
import { INIT_LABELS, loadWoterclipConfig } from '@heartbeat-kit/woterclip';
import { createDirectoryWorkspace } from '@heartbeat-kit/woterclip/node';
import { describe, expect, it } from 'vitest';
import { useFileTempDir } from '../../test/support/cli-world.js';
import { runCommand, type CliRun } from '../../test/support/run-cli.js';
import type { CliIo } from '../io.js';
import { main } from '../main.js';
import { createWoterclipCommand } from './woterclip.js';

const fixtures = join(import.meta.dirname, '..', '..', '..', 'woterclip', 'test', 'fixtures');
const fakeGh = join(fixtures, 'fake-gh', 'gh.mjs');
const agent = join(fixtures, 'fake-agent', 'agent.mjs');
chmodSync(fakeGh, 0o755);
chmodSync(agent, 0o755);
const root = useFileTempDir('woterclip-init-');
let n = 0;

function world(labels: string[] = [], issues: object[] = []): { dir: string; state: string; run: (argv: string[]) => Promise<CliRun> } {
  n += 1;
  const dir = join(root, `repo-${n}`);
  mkdirSync(dir, { recursive: true });
  const state = join(root, `gh-${n}.json`);
  writeFileSync(state, JSON.stringify({ repo: 'o/r', login: 'octocat', authMode: 'ok', seq: 100, argv: [], labels, issues }));
  const command = createWoterclipCommand({
    gh: fakeGh,
    pid: 4242,
    runner: createProcessRunner({ baseEnv: { PATH: process.env.PATH, FAKE_GH_STATE: state } }),
  });
  const run = (argv: string[]) => runCommand(command, argv, { cwd: dir, env: { PATH: process.env.PATH } });
  return { dir, state, run };
}

const FILES = [
  '.woterclip/config.yaml',
  '.woterclip/personas/orchestrator/SOUL.md',
  '.woterclip/personas/orchestrator/TOOLS.md',
  '.woterclip/personas/orchestrator/config.yaml',
];

describe('heartbeat-kit woterclip init (issue 11 item 5)', () => {
  it('is listed in the help and has its own --help', async () => {
    const out: string[] = [];
    const io: CliIo = {
      stdout: (t) => out.push(t),
      stderr: (t) => out.push(t),
      cwd: root,
      env: {},
      shutdownSignal: new AbortController().signal,
    };
    expect(await main(['woterclip', '--help'], io)).toBe(0);
    expect(out.join('')).toContain('  init ');
    expect(await main(['woterclip', 'init', '--help'], io)).toBe(0);
    expect(out.join('')).toContain('Never overwrites');
  });

  it('writes a v2 config and the Orchestrator persona that the beat loads; the first beat runs', async () => {
    const w = world();
    const r = await w.run(['init', '--repo', 'o/r', '--board-user', 'boss']);
    expect(r.code).toBe(0);
    for (const f of FILES) expect(existsSync(join(w.dir, f))).toBe(true);
    const loaded = (await loadWoterclipConfig(createDirectoryWorkspace(join(w.dir, '.woterclip'))))._unsafeUnwrap();
    expect(loaded.config).toMatchObject({ version: 2, github: { repo: 'o/r', board_user: 'boss' } });
    const orchestrator = loaded.personas.get('orchestrator');
    expect(orchestrator?.config).toMatchObject({ is_default: true, runtime: { model: 'haiku', max_turns: 50 } });
    expect(orchestrator?.soul).toContain('never code');
    const beat = await w.run(['beat', '--now', '2026-07-22T10:00:00Z']);
    expect(beat.code).toBe(0);
    expect(beat.stdout).toContain('No issues in queue');
  });

  it('without --repo/--board-user it writes the placeholders and says so; the beat then names the key to set', async () => {
    const w = world();
    const r = await w.run(['init']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Set github.repo and github.board_user');
    const beat = await w.run(['beat']);
    expect(beat.code).toBe(2);
    expect(beat.stderr).toContain('still holds the init placeholder');
  });

  it('refuses to overwrite: one existing file means nothing is written, exit 1', async () => {
    const w = world();
    mkdirSync(join(w.dir, '.woterclip'), { recursive: true });
    writeFileSync(join(w.dir, '.woterclip', 'config.yaml'), '# mine\n');
    const r = await w.run(['init', '--repo', 'o/r', '--labels']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('refusing to overwrite .woterclip/config.yaml');
    expect(readFileSync(join(w.dir, '.woterclip', 'config.yaml'), 'utf8')).toBe('# mine\n');
    expect(existsSync(join(w.dir, FILES[1]!))).toBe(false);
    expect((JSON.parse(readFileSync(w.state, 'utf8')) as { argv: unknown[] }).argv).toEqual([]);
    const j = await w.run(['init', '--json']);
    expect(JSON.parse(j.stdout)).toEqual({ status: 'exists', files: ['.woterclip/config.yaml'] });
  });

  it('--dry-run shows every file and label and writes nothing, calls no gh', async () => {
    const w = world();
    const r = await w.run(['init', '--repo', 'o/r', '--board-user', 'boss', '--labels', '--dry-run']);
    expect(r.code).toBe(0);
    for (const f of FILES) expect(r.stdout).toContain(`--- ${f}`);
    expect(r.stdout).toContain('agent-working #0E8A16');
    expect(existsSync(join(w.dir, '.woterclip'))).toBe(false);
    expect((JSON.parse(readFileSync(w.state, 'utf8')) as { argv: unknown[] }).argv).toEqual([]);
    const j = JSON.parse((await w.run(['init', '--dry-run', '--json'])).stdout) as { status: string; files: { path: string }[] };
    expect(j.status).toBe('dry-run');
    expect(j.files.map((f) => f.path)).toEqual(FILES);
  });

  it('--labels creates the reference labels with their colours through gh, skipping existing ones', async () => {
    const w = world(['backend', 'bug']);
    const r = await w.run(['init', '--repo', 'o/r', '--board-user', 'boss', '--labels', '--json']);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as { labelsCreated: string[]; labelsSkipped: string[] };
    expect(report.labelsSkipped).toEqual(['backend']);
    expect(report.labelsCreated).toEqual(INIT_LABELS.map((l) => l.name).filter((l) => l !== 'backend'));
    const state = JSON.parse(readFileSync(w.state, 'utf8')) as { labels: string[]; labelColors: Record<string, string> };
    expect(state.labelColors).toMatchObject({ 'agent-working': '0E8A16', 'agent-blocked': 'B60205', frontend: '5319E7' });
    expect(state.labels).toEqual(
      expect.arrayContaining(['agent-working', 'agent-blocked', 'in-progress', 'in-review', 'priority:high', 'priority:low', 'frontend']),
    );
  });

  it('usage errors: --labels without --repo, a bad --repo', async () => {
    const w = world();
    expect((await w.run(['init', '--labels'])).code).toBe(2);
    expect((await w.run(['init', '--repo', '--help=x'])).code).toBe(2);
    expect(existsSync(join(w.dir, '.woterclip'))).toBe(false);
  });
});
