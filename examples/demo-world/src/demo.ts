import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
// The same world builder the CLI's end-to-end tests and the benchmark use.
import { createWorld, type World } from '../../../packages/cli/test/support/world.js';
import { frozenClockEnv } from '../../../packages/cli/test/support/fake-time.js';

/** One cycle of the demo: what the narrator said, the command line, and what the CLI printed. */
export interface DemoStep {
  readonly title: string;
  readonly argv: readonly string[];
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** A DOT pipeline whose review gate is `status` (Attractor's format: validated gates count toward Finalized). */
export function pipelineDot(status: 'active' | 'validated'): string {
  return `digraph "PRD-AUTH-001" {
  graph [label="Auth service" prd_ref="PRD-AUTH-001"]
  start [shape=Mdiamond handler=start status=validated label="start"]
  impl [shape=box handler=codergen status=validated bead_id="beads-a3m9" worker_type="backend-solutions-engineer" label="JWT middleware"]
  review [shape=hexagon handler="wait.human" status=${status} label="Review"]
  start -> impl -> review
}
`;
}

// The CLI a user runs: the package's bin as npm links it (`npx heartbeat-kit`), which loads the
// package's build (`pnpm demo` builds what changed first; the tests' global setup does the same).
const KIT = new URL('../node_modules/.bin/heartbeat-kit', import.meta.url).pathname;

/**
 * `heartbeat-kit cycle` over the world as a real process, with the world's fake bd first on PATH and
 * the OS clock stopped at `now` by libfaketime: a real cycle at that instant, whose state the next
 * step's cycle reads (`--now` would only rehearse and write nothing).
 */
function cycle(world: World, now: string): Promise<Omit<DemoStep, 'title'>> {
  const argv = ['cycle', '--cwd', world.project, '--tmux-socket', world.tmuxSocket];
  return new Promise((resolve, reject) => {
    const env = { ...world.env, ...frozenClockEnv(now) };
    const child = spawn(KIT, argv, { cwd: world.root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ argv, code: code ?? -1, stdout, stderr }));
  });
}

/**
 * Builds a throw-away world and runs five real cycles over it, changing the world in between:
 * quiet, quiet, a batched report, the same findings deduplicated, a pipeline transition.
 * `onStep` sees each step as it happens; the world is destroyed at the end, whatever happens.
 */
export async function runDemo(onStep: (step: DemoStep, world: World) => void = () => undefined): Promise<DemoStep[]> {
  const world = createWorld({
    sessions: ['orch-auth', 'editor'], // 'editor' is no orchestrator: it keeps the tmux server up after orch-auth dies
    inProgress: [{ id: 'beads-a3m9', title: 'JWT middleware', priority: 1, assignee: 'orch-auth', started_at: '2026-02-19T14:00:00Z' }],
    worktrees: [
      { dir: 'wt-auth', branch: 'feat/beads-a3m9', commitAt: new Date('2026-02-19T14:00:00Z') },
      { dir: 'wt-docs', branch: 'docs/cleanup', commitAt: new Date('2026-02-19T11:00:00Z') },
    ],
    pipelines: { 'auth.dot': pipelineDot('active') },
  });
  const steps: DemoStep[] = [];
  const run = async (title: string, now: string): Promise<void> => {
    const step = { title, ...(await cycle(world, now)) };
    steps.push(step);
    onStep(step, world);
  };
  try {
    await run('14:10 — everything healthy: orch-auth runs, its bead is in progress, worktrees are clean', '2026-02-19T14:10:00Z');
    await run('14:20 — still healthy: a quiet cycle prints exactly HEARTBEAT_OK and costs zero tokens', '2026-02-19T14:20:00Z');

    world.tmux('kill-session', '-t', '=orch-auth');
    world.setReady([{ id: 'beads-f7k2', title: 'Implement JWT validation', priority: 1 }]);
    writeFileSync(join(world.root, 'wt-docs', 'notes.md'), 'half-written\n');
    await run(
      '14:30 — orch-auth crashed, a P1 bead became ready, wt-docs has uncommitted work (last commit 11:00): ONE batched report',
      '2026-02-19T14:30:00Z',
    );
    await run('14:40 — nothing changed: the same findings are inside the 30-minute dedup window, so HEARTBEAT_OK', '2026-02-19T14:40:00Z');

    writeFileSync(join(world.project, '.pipelines', 'pipelines', 'auth.dot'), pipelineDot('validated'));
    await run('14:50 — the review gate of PRD-AUTH-001 was validated: a pipeline transition is reported', '2026-02-19T14:50:00Z');
  } finally {
    world.destroy();
  }
  return steps;
}
