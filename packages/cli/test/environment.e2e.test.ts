/**
 * The environment policy through the CLI (issue 10 item 1): tools get the user's environment
 * minus a short deny-list, and an opt-in allow-list hardens it. The fake bd here behaves like
 * the real one: it finds its database through BEADS_DIR and switches to its agent text format
 * when BD_AGENT_MODE or a CLAUDE_CODE* variable is set.
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WORLD_HEARTBEAT_MD } from './support/world.js';
import { runCli } from './support/run-cli.js';
import { useCliWorlds, type CliWorld } from './support/cli-world.js';

const BEADS_BD = `#!/usr/bin/env node
const fs = require('node:fs');
const path = require('node:path');
const args = process.argv.slice(2);
const seen = process.env.HK_TEST_ENV_LOG;
if (seen) fs.appendFileSync(seen, JSON.stringify(process.env) + '\\n');
const dir = process.env.BEADS_DIR;
if (!dir || !fs.existsSync(path.join(dir, 'beads.db'))) {
  process.stderr.write("Error: no beads database found\\nHint: run 'bd where' to see where bd looks\\nHint: run 'bd init' to create a database, or set BEADS_DIR\\n");
  process.exit(1);
}
const agent = process.env.BD_AGENT_MODE || Object.keys(process.env).some((k) => k.startsWith('CLAUDE_CODE') && process.env[k]);
const rows = JSON.parse(fs.readFileSync(path.join(dir, args[0] === 'ready' ? 'ready.json' : 'in_progress.json'), 'utf8'));
if (agent) { for (const r of rows) process.stdout.write(r.id + ': ' + r.title + '\\n'); process.exit(0); }
process.stdout.write(JSON.stringify(rows, null, 2) + '\\n');
`;

const READY = [
  {
    id: 'beads-p1x',
    title: 'Ship the fix',
    status: 'open',
    priority: 1,
    issue_type: 'task',
    created_at: '2026-02-19T08:00:00Z',
    updated_at: '2026-02-19T08:00:00Z',
    dependency_count: 0,
    dependent_count: 0,
    comment_count: 0,
  },
];

const createCliWorld = useCliWorlds();

/** A world whose bd database lives outside the project, found only through BEADS_DIR. */
function beadsDirWorld(heartbeatMd = WORLD_HEARTBEAT_MD): { world: CliWorld; beadsDir: string; envLog: string } {
  const w = createCliWorld({ heartbeatMd });
  writeFileSync(join(w.fakeBin, 'bd'), BEADS_BD);
  chmodSync(join(w.fakeBin, 'bd'), 0o755);
  const beadsDir = join(w.root, 'elsewhere', '.beads');
  mkdirSync(beadsDir, { recursive: true });
  writeFileSync(join(beadsDir, 'beads.db'), '');
  writeFileSync(join(beadsDir, 'ready.json'), JSON.stringify(READY));
  writeFileSync(join(beadsDir, 'in_progress.json'), '[]');
  return { world: w, beadsDir, envLog: join(w.root, 'bd-env.jsonl') };
}

function cycle(w: CliWorld, env: Record<string, string | undefined>, ...extra: string[]) {
  return runCli(['cycle', '--cwd', w.project, '--tmux-socket', w.tmuxSocket, '--now', '2026-02-19T14:50:00Z', '--json', ...extra], {
    cwd: w.root,
    env: { ...w.env, ...env },
  });
}

interface CycleJson {
  readonly categories: readonly string[];
  readonly scanners: readonly { name: string; status: string; reason?: string; error?: string }[];
}

function bdEnvs(envLog: string): Record<string, string>[] {
  return readFileSync(envLog, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, string>);
}

describe('heartbeat-kit cycle: the environment policy', () => {
  it('bd finds its database through the user’s BEADS_DIR, so a P1 is reported instead of HEARTBEAT_OK', async () => {
    const { world: w, beadsDir } = beadsDirWorld();
    const run = await cycle(w, { BEADS_DIR: beadsDir });
    const out = JSON.parse(run.stdout) as CycleJson;
    expect(out.scanners.find((s) => s.name === 'beads')?.status).toBe('ok');
    expect(out.categories).toContain('P1_WORK_READY');
  });

  it('an agent session’s BD_AGENT_MODE and CLAUDE_CODE* never reach bd, while the rest of the environment does', async () => {
    const { world: w, beadsDir, envLog } = beadsDirWorld();
    const run = await cycle(w, {
      BEADS_DIR: beadsDir,
      BD_AGENT_MODE: '1',
      CLAUDE_CODE_ENTRYPOINT: 'cli',
      HTTPS_PROXY: 'http://proxy.invalid:3128',
      TZ: 'Europe/Berlin',
      HK_TEST_ENV_LOG: envLog,
    });
    expect((JSON.parse(run.stdout) as CycleJson).categories).toContain('P1_WORK_READY');
    for (const env of bdEnvs(envLog)) {
      expect(env).not.toHaveProperty('BD_AGENT_MODE');
      expect(env).not.toHaveProperty('CLAUDE_CODE_ENTRYPOINT');
      expect(env).toMatchObject({ HTTPS_PROXY: 'http://proxy.invalid:3128', TZ: 'Europe/Berlin', BEADS_DIR: beadsDir });
      expect(env).not.toHaveProperty('LC_ALL'); // git's LC_ALL=C is for git only
    }
  });

  it('--env-allow passes only the essentials and the listed names', async () => {
    const { world: w, beadsDir, envLog } = beadsDirWorld();
    const run = await cycle(
      w,
      { BEADS_DIR: beadsDir, HK_TEST_ENV_LOG: envLog, HK_SECRET_TOKEN: 'xoxb-must-not-leak' },
      '--env-allow',
      'BEADS_DIR,HK_TEST_*',
    );
    expect((JSON.parse(run.stdout) as CycleJson).categories).toContain('P1_WORK_READY');
    for (const env of bdEnvs(envLog)) {
      const allowed = new Set(['PATH', 'HOME', 'USER', 'LANG', 'TMPDIR', 'TMUX_TMPDIR', 'BEADS_DIR', 'HK_TEST_ENV_LOG', 'NO_COLOR']);
      expect(Object.keys(env).filter((key) => !allowed.has(key))).toEqual([]);
    }
  });

  it('HEARTBEAT.md Environment → Allow hardens the same way; without BEADS_DIR listed bd finds no database', async () => {
    const { world: w, beadsDir } = beadsDirWorld(`${WORLD_HEARTBEAT_MD}\n## Environment\n- Allow: HTTPS_PROXY\n`);
    const run = await cycle(w, { BEADS_DIR: beadsDir });
    const out = JSON.parse(run.stdout) as CycleJson;
    expect(out.categories).not.toContain('P1_WORK_READY');
    expect(out.scanners.find((s) => s.name === 'beads')?.status).not.toBe('ok');
    const flag = await cycle(w, { BEADS_DIR: beadsDir }, '--env-allow', 'BEADS_DIR');
    expect((JSON.parse(flag.stdout) as CycleJson).categories).toContain('P1_WORK_READY');
  });

  it('a bad --env-allow name is a usage error that names the fix', async () => {
    const { world: w } = beadsDirWorld();
    const run = await w.cli('cycle', '--cwd', w.project, '--env-allow', 'BEADS_DIR,$(id)');
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/--env-allow: "\$\(id\)" is not a variable name\. Fix: /);
  });
});
