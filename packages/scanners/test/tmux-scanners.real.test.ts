import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createProcessRunner } from '@heartbeat-kit/core/node';
import {
  createBeadsScanner,
  createBeadsSource,
  createIdleOrchestratorsScanner,
  createOrchestratorsScanner,
  hashPaneCapture,
  readPipelineOwners,
} from '../src/index.js';
import { createNodePipelineFiles } from '../src/node/index.js';
import { makeContext } from './support/context.js';
import { envWithFakeBin, tempDir } from './support/temp.js';

const socket = `hk-test-${randomBytes(6).toString('hex')}`;
const tmp = tempDir('hk-tmux-');
// No dots or colons: tmux would rewrite them in a session name.
const marker = join(tmp.path, `pwned${randomBytes(4).toString('hex')}`);
const hostile = `orch-$(touch ${marker})`;
const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, ...args], { stdio: ['ignore', 'pipe', 'pipe'] }).toString();
const printer = (text: string) => [process.execPath, '-e', `process.stdout.write(${JSON.stringify(text)}); setInterval(() => {}, 1e6)`];

beforeAll(() => {
  tmux('new-session', '-d', '-s', hostile, '-x', '80', '-y', '24', ...printer('working on auth\n'));
  tmux('new-session', '-d', '-s', '-x', '-x', '80', '-y', '24', ...printer('not an orchestrator\n'));
  tmux('new-session', '-d', '-s', 'orch-auth-2', ...printer('second auth\n'));
  tmux('new-session', '-d', '-s', 'orch-bd-p0c4', ...printer('docs\n'));
  tmux('new-session', '-d', '-s', 'orch-bd-7xq1x', ...printer('a different bead\n'));
  tmux('new-session', '-d', '-s', 'orch-impl_dark-4242', ...printer('engine spawn\n'));
  mkdirSync(join(tmp.path, '.fake-bd'));
  writeFileSync(
    join(tmp.path, '.fake-bd', 'ready.json'),
    JSON.stringify([{ id: 'beads-f7k2', title: 'Implement JWT validation', priority: 1, status: 'open' }]),
  );
});

afterAll(() => {
  try {
    tmux('kill-server');
  } catch {
    // already gone
  }
  // kill-server leaves the socket file behind; remove ours only.
  const uid = process.getuid?.() ?? 0;
  rmSync(join(process.env.TMUX_TMPDIR ?? '/tmp', `tmux-${uid}`, socket), { force: true });
  tmp.remove();
});

// The agent-mode variables would make the fake bd fail: the runner's deny-list for bd must keep them out.
const runner = createProcessRunner({ baseEnv: envWithFakeBin({ BD_AGENT_MODE: '1', CLAUDE_CODE_ENTRYPOINT: 'cli' }) });

describe('orchestrators scanner against a real tmux server', () => {
  it('lists hostile names exactly and reports only the truly missing sessions', async () => {
    const scanner = createOrchestratorsScanner({ runner, tmuxArgs: ['-L', socket], beads: createBeadsSource({ runner, cwd: tmp.path }) });
    const result = await scanner.scan(
      makeContext({ config: { expectedOrchestrators: [hostile, '-x', 'orch-auth', 'orch-bd-p0c4', 'orch-bd-7xq1'] } }),
    );
    expect(result.status).toBe('ok');
    if (result.status !== 'ok') return;
    // Both beads are owned through Expected: orch-<id>. bd-p0c4 runs in orch-bd-p0c4; bd-7xq1's
    // session is missing (orch-bd-7xq1x is not it); orch-auth is not orch-auth-2.
    expect(result.findings.map((f) => f.line)).toEqual([
      'CRASHED: orch-bd-7xq1 (bead bd-7xq1 still in_progress)',
      'MISSING: orch-auth (expected in HEARTBEAT.md)',
    ]);
    expect(existsSync(marker)).toBe(false);
  });

  it('sees zero sessions on a socket with no server: each expected session is missing, and one TMUX_DOWN says why (the cycle lets it stand for them)', async () => {
    const scanner = createOrchestratorsScanner({
      runner,
      tmuxArgs: ['-L', `${socket}-none`],
      beads: createBeadsSource({ runner, cwd: tmp.path }),
    });
    const result = await scanner.scan(makeContext({ config: { expectedOrchestrators: ['orch-bd-p0c4', 'orch-bd-7xq1'] } }));
    expect(result.status === 'ok' && result.findings.map((f) => `${f.category} ${f.subject}`)).toEqual([
      'TMUX_DOWN tmux',
      'ORCH_FAILURE orch-bd-p0c4',
      'ORCH_FAILURE orch-bd-7xq1',
    ]);
  });

  it('never cries CRASHED for beads assigned to people (claude, bob) that no orchestrator owns', async () => {
    const scanner = createOrchestratorsScanner({ runner, tmuxArgs: ['-L', socket], beads: createBeadsSource({ runner, cwd: tmp.path }) });
    const result = await scanner.scan(makeContext());
    expect(result).toMatchObject({ status: 'ok', findings: [], warnings: [] });
  });

  it('owns beads through active pipeline nodes: orch-<node_id>-<pid> alive, orch-<node_id> gone', async () => {
    const project = tempDir('hk-pipe-owners-');
    try {
      mkdirSync(join(project.path, '.pipelines', 'pipelines'), { recursive: true });
      writeFileSync(
        join(project.path, '.pipelines', 'pipelines', 'p.dot'),
        [
          'digraph "P" {',
          '  impl_docs [shape=box handler="codergen" bead_id="bd-p0c4x" status="active"];',
          '  impl_dark [shape=box handler="codergen" bead_id="bd-7xq1" status="active"];',
          '  impl_done [shape=box handler="codergen" bead_id="bd-p0c4" status="validated"];',
          '}',
        ].join('\n'),
      );
      const files = createNodePipelineFiles();
      const scanner = createOrchestratorsScanner({
        runner,
        tmuxArgs: ['-L', socket],
        beads: createBeadsSource({ runner, cwd: tmp.path }),
        pipelineOwners: (now) => readPipelineOwners(project.path, files, now),
      });
      const result = await scanner.scan(makeContext());
      // bd-7xq1 runs in the engine's orch-impl_dark-4242; bd-p0c4 is only on a validated node: not owned.
      expect(result).toMatchObject({ status: 'ok', findings: [], warnings: [] });
      writeFileSync(
        join(project.path, '.pipelines', 'pipelines', 'q.dot'),
        'digraph "Q" {\n  impl_docs2 [shape=box handler="codergen" bead_id="bd-p0c4" status="active"];\n}\n',
      );
      const crashed = await scanner.scan(makeContext());
      expect(crashed.status === 'ok' && crashed.findings.map((f) => f.line)).toEqual([
        'CRASHED: orch-impl_docs2 (bead bd-p0c4 still in_progress)',
      ]);
    } finally {
      project.remove();
    }
  });
});

describe('idle-orchestrators scanner against a real tmux server', () => {
  it('hashes each orchestrator pane, hostile name included, without running it as a shell', async () => {
    const result = await createIdleOrchestratorsScanner({ runner, tmuxArgs: ['-L', socket] }).scan(makeContext());
    expect(result.status).toBe('ok');
    if (result.status !== 'ok') return;
    expect(result.warnings).toEqual([]);
    const panes = (result.slice?.data as { panes: Record<string, { hash: string }> }).panes;
    const bySession = new Map(Object.entries(panes).map(([session, pane]) => [session, pane.hash]));
    expect([...bySession.keys()].sort()).toEqual([hostile, 'orch-auth-2', 'orch-bd-7xq1x', 'orch-bd-p0c4', 'orch-impl_dark-4242'].sort());
    expect(bySession.get(hostile)).toBe(hashPaneCapture('working on auth\n'));
    expect(bySession.get('orch-bd-p0c4')).toBe(hashPaneCapture('docs\n'));
    expect(existsSync(marker)).toBe(false);
  });
});

describe('beads scanner through the execa runner and the fake bd', () => {
  it('reads ready work with the agent-mode variables held back', async () => {
    const result = await createBeadsScanner({ source: createBeadsSource({ runner, cwd: tmp.path }) }).scan(makeContext());
    expect(result.status === 'ok' && result.findings.map((f) => f.line)).toEqual(["P1 READY: beads-f7k2 'Implement JWT validation'"]);
  });

  it('falls back to text with a legacy bd', async () => {
    const legacy = tempDir('hk-bd-legacy-');
    mkdirSync(join(legacy.path, '.fake-bd'));
    writeFileSync(join(legacy.path, '.fake-bd', 'legacy'), '');
    try {
      const result = await createBeadsScanner({ source: createBeadsSource({ runner, cwd: legacy.path }) }).scan(makeContext());
      expect(result.status === 'ok' && result.findings.map((f) => f.subject)).toEqual(['bd-k2m9', 'bd-a3f8', 'bd-a3f8.1']);
    } finally {
      legacy.remove();
    }
  });
});
