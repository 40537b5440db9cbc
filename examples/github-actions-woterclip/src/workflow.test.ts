import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';

interface Step {
  readonly uses?: string;
  readonly run?: string;
  readonly env?: Record<string, string>;
  readonly with?: Record<string, unknown>;
}
interface Workflow {
  readonly name?: string;
  readonly on?: { readonly schedule?: readonly { cron: string }[]; readonly workflow_dispatch?: unknown };
  readonly concurrency?: { readonly group?: string; readonly 'cancel-in-progress'?: boolean };
  readonly permissions?: Record<string, string>;
  readonly jobs?: Record<string, { readonly 'runs-on'?: string; readonly 'timeout-minutes'?: number; readonly steps?: readonly Step[] }>;
}

const text = readFileSync(new URL('../.github/workflows/woterclip.yml', import.meta.url), 'utf8');
// `yaml` would read `on:` as the key "on" (YAML 1.2), as GitHub does; parse strictly so a typo fails.
const workflow = parse(text, { strict: true, uniqueKeys: true }) as Workflow;
const steps = workflow.jobs?.beat?.steps ?? [];
const beatStep = steps.find((step) => step.run?.includes('woterclip beat') === true);
const dir = mkdtempSync(join(tmpdir(), 'hk-gha-'));
// What the workflow's `npx heartbeat-kit` runs: the package's bin as npm links it, built by the test
// run's global setup (scripts/build-once-for-tests.ts).
const KIT = new URL('../node_modules/.bin/heartbeat-kit', import.meta.url).pathname;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The words after `heartbeat-kit[@version]` in a `run:` line. */
function cliArgs(run: string): string[] {
  const words = run.trim().split(/\s+/);
  const at = words.findIndex((word) => /^heartbeat-kit(@[\w.-]+)?$/.test(word));
  if (at === -1) throw new Error(`no heartbeat-kit in: ${run}`);
  return words.slice(at + 1);
}

describe('github-actions-woterclip workflow', () => {
  it('runs on a schedule of valid five-field cron lines and on demand', () => {
    const schedule = workflow.on?.schedule ?? [];
    expect(schedule.length).toBeGreaterThan(0);
    for (const { cron } of schedule) expect(cron.split(' ')).toHaveLength(5);
    expect(workflow.on).toHaveProperty('workflow_dispatch');
  });

  it('has a concurrency group that queues instead of cancelling a running beat', () => {
    expect(workflow.concurrency?.group).toMatch(/^woterclip-/);
    expect(workflow.concurrency?.['cancel-in-progress']).toBe(false);
  });

  it('may write issues and nothing else', () => {
    expect(workflow.permissions).toEqual({ contents: 'read', issues: 'write' });
  });

  it('checks out, sets up Node 20 and runs the beat with a GH_TOKEN, under a job timeout above the 1200 s ceiling', () => {
    expect(steps.map((step) => step.uses).filter(Boolean)).toEqual(['actions/checkout@v4', 'actions/setup-node@v4']);
    expect(steps.find((step) => step.uses === 'actions/setup-node@v4')?.with?.['node-version']).toBe(20);
    expect(beatStep?.env?.GH_TOKEN).toMatch(/^\$\{\{ secrets\.\w+ \}\}$/);
    expect((workflow.jobs?.beat?.['timeout-minutes'] ?? 0) * 60).toBeGreaterThan(1200);
  });

  it('every heartbeat-kit step uses options the CLI accepts (it only misses the repository config here)', () => {
    const runs = steps.map((step) => step.run).filter((run): run is string => run?.includes('heartbeat-kit') === true);
    expect(runs).toHaveLength(2);
    for (const run of runs) {
      const ran = spawnSync(KIT, cliArgs(run), { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH }, timeout: 240_000 });
      expect(ran.stderr).not.toMatch(/unknown (option|command)|usage|internal error/i);
      expect(ran.stderr).toMatch(/No \.woterclip\/config\.yaml found/);
      expect(ran.status).toBe(2);
    }
  });

  it('a strict parse rejects a duplicated key, so the checks above read what GitHub reads', () => {
    expect(() => void parse('concurrency: a\nconcurrency: b\n', { strict: true, uniqueKeys: true })).toThrow();
  });
});
