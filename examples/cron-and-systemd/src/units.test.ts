import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { heartbeatArgs, parseCrontabLine, parseTimeSpan, parseUnitFile, unitValue } from './units.js';

const here = (path: string): string => new URL(`../${path}`, import.meta.url).pathname;
const serviceText = readFileSync(here('systemd/heartbeat-kit.service'), 'utf8');
const timerText = readFileSync(here('systemd/heartbeat-kit.timer'), 'utf8');
const crontabText = readFileSync(here('crontab.txt'), 'utf8');

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'hk-cron-'));
  temps.push(dir);
  return dir;
}

// What `npx --no-install heartbeat-kit` runs in a project with the package installed: its bin as npm
// links it, built by the test run's global setup (scripts/build-once-for-tests.ts).
const KIT = here('node_modules/.bin/heartbeat-kit');

/** `heartbeat-kit ...argv` as a process in `cwd`, with cron's short PATH. */
function runCli(argv: readonly string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const run = spawnSync(KIT, argv, { cwd, encoding: 'utf8', env: { ...process.env, PATH: '/usr/bin:/bin' }, timeout: 240_000 });
  return Promise.resolve({ code: run.status, stdout: run.stdout, stderr: run.stderr });
}

describe('systemd units', () => {
  const service = parseUnitFile(serviceText);
  const timer = parseUnitFile(timerText);

  it('the service is a oneshot heartbeat-kit cycle in a working directory', () => {
    expect(unitValue(service, 'Service', 'Type')).toBe('oneshot');
    expect(unitValue(service, 'Service', 'WorkingDirectory')).toMatch(/^%h\//);
    const exec = unitValue(service, 'Service', 'ExecStart') ?? '';
    expect(exec).toMatch(/^\/usr\/bin\/env heartbeat-kit cycle\b/);
    expect(unitValue(service, 'Unit', 'Description')).toBeTruthy();
  });

  // Spec 000's SHUTDOWN PROTOCOL: "Complete current scan if in-progress (do not interrupt mid-scan)".
  it('stopping the unit lets the cycle in flight finish ("do not interrupt mid-scan")', () => {
    // The first SIGTERM goes to heartbeat-kit alone (control-group would kill the tools it waits for)…
    expect(unitValue(service, 'Service', 'KillMode')).toBe('mixed');
    // …which is the main process: env execs the project's own bin (npx would put `sh -c` in between
    // and hand the signal only to that shell).
    expect(unitValue(service, 'Service', 'ExecStart')).not.toMatch(/\bnpx\b|\bsh -c\b/);
    expect(unitValue(service, 'Service', 'Environment')).toMatch(/^PATH=%h\/src\/my-project\/node_modules\/\.bin:/);
    // Each scanner gives up after 30 s (core's DEFAULT_SCANNER_TIMEOUT_MS), and a command: sink,
    // the slowest, after 60 s: systemd waits for both before its SIGKILL.
    expect(parseTimeSpan(unitValue(service, 'Service', 'TimeoutStopSec') ?? '0')).toBeGreaterThan(30 + 60);
  });

  it('time spans read as systemd reads them, and an unknown unit throws', () => {
    expect(parseTimeSpan('2min')).toBe(120);
    expect(parseTimeSpan('90')).toBe(90);
    expect(parseTimeSpan('1min 30s')).toBe(90);
    expect(parseTimeSpan('500ms')).toBe(0.5);
    expect(() => parseTimeSpan('2 fortnights')).toThrow(/unknown time unit/);
    expect(() => parseTimeSpan('soon')).toThrow(/not a systemd time span/);
  });

  it('the timer is persistent, randomized, every 10 minutes, and installable', () => {
    expect(unitValue(timer, 'Timer', 'OnCalendar')).toBe('*:0/10');
    expect(unitValue(timer, 'Timer', 'Persistent')).toBe('true');
    expect(Number(unitValue(timer, 'Timer', 'RandomizedDelaySec'))).toBeGreaterThan(0);
    expect(unitValue(timer, 'Timer', 'Unit')).toBe('heartbeat-kit.service');
    expect(unitValue(timer, 'Install', 'WantedBy')).toBe('timers.target');
  });

  it('the parser rejects a key outside a section and a line that is not Key=Value', () => {
    expect(() => parseUnitFile('Type=oneshot\n')).toThrow(/line 1/);
    expect(() => parseUnitFile('[Service]\nnot a pair\n')).toThrow(/line 2/);
  });

  it('systemd-analyze verify accepts both units without a warning (when systemd is installed)', () => {
    const probe = spawnSync('systemd-analyze', ['--version'], { encoding: 'utf8' });
    if (probe.error !== undefined) {
      // No systemd on this machine: the INI checks above are the test.
      expect(probe.error.message).toMatch(/ENOENT/);
      return;
    }
    const dir = tempDir();
    for (const name of ['heartbeat-kit.service', 'heartbeat-kit.timer']) copyFileSync(here(`systemd/${name}`), join(dir, name));
    const verify = spawnSync('systemd-analyze', ['verify', join(dir, 'heartbeat-kit.timer'), join(dir, 'heartbeat-kit.service')], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(verify.stderr.split('\n').filter((line) => line.includes('heartbeat-kit'))).toEqual([]);
    expect(verify.status).toBe(0);
    // And it does catch a broken unit, so the check above means something.
    writeFileSync(join(dir, 'broken.service'), serviceText.replace('Type=oneshot', 'Type=sometimes'));
    const broken = spawnSync('systemd-analyze', ['verify', join(dir, 'broken.service')], { encoding: 'utf8', timeout: 30_000 });
    expect(broken.stderr).toMatch(/broken\.service:\d+: Failed to parse service type/);
  });
});

describe('crontab', () => {
  const entries = crontabText
    .split('\n')
    .map(parseCrontabLine)
    .filter((e) => e !== undefined);

  it('has one entry with five time fields, every 10 minutes', () => {
    expect(entries).toHaveLength(1);
    expect(entries[0]?.fields).toEqual(['*/10', '8-21', '*', '*', '1-5']);
    expect(entries[0]?.command).toMatch(/heartbeat-kit cycle/);
  });
});

describe('the scheduled command works as written', () => {
  it.each([
    ['systemd', () => heartbeatArgs(unitValue(parseUnitFile(serviceText), 'Service', 'ExecStart') ?? '')],
    [
      'cron',
      () => heartbeatArgs(parseCrontabLine(crontabText.split('\n').find((l) => l.includes('heartbeat-kit cycle')) ?? '')?.command ?? ''),
    ],
  ])(
    '%s: heartbeat-kit <args> runs a cycle, keeps state in .git/heartbeat-kit/state.json, and a second run dedups',
    async (_name, args) => {
      const argv = args();
      expect(argv[0]).toBe('cycle');
      const project = tempDir();
      spawnSync('git', ['init', '-q', project], { encoding: 'utf8' });
      mkdirSync(join(project, '.claude'));
      // An always-active window, and a GChat poll script that always has a reply: a finding every run.
      writeFileSync(
        join(project, '.claude', 'HEARTBEAT.md'),
        '# Heartbeat Configuration\n## Active Hours\n- Start: 0\n- End: 0\n- Weekend: true\n- Timezone: UTC\n',
      );
      writeFileSync(
        join(project, 'poll.mjs'),
        'process.stdout.write(JSON.stringify({ replies: [{ question_id: "q-1", session_id: "s-1", reply_text: "ship it", replied_at: "2026-02-19T14:21:07.000Z", sender_name: "Alice" }], pending_count: 0 }));\n',
      );
      writeFileSync(
        join(project, '.claude', 'HEARTBEAT.md'),
        `${readFileSync(join(project, '.claude', 'HEARTBEAT.md'), 'utf8')}## GChat\n- Poll command: ${JSON.stringify([process.execPath, join(project, 'poll.mjs')])}\n`,
      );
      const first = await runCli(argv, project);
      expect(first.stderr).not.toMatch(/error|usage/i);
      expect(first.code).toBe(0);
      expect(existsSync(join(project, '.git', 'heartbeat-kit', 'state.json'))).toBe(true);
      const reports = (): string[] =>
        readFileSync(join(project, '.heartbeat', 'reports.jsonl'), 'utf8')
          .trim()
          .split('\n');
      expect(reports()).toHaveLength(1);
      expect(reports()[0]).toMatch(/GCHAT_REPLY_RECEIVED/);
      const second = await runCli(argv, project);
      expect(second.code).toBe(0);
      expect(reports()).toHaveLength(1);
    },
  );
});

describe('liveness examples (systemd and Kubernetes)', () => {
  const livenessService = parseUnitFile(readFileSync(here('systemd/heartbeat-kit-liveness.service'), 'utf8'));
  const livenessTimer = parseUnitFile(readFileSync(here('systemd/heartbeat-kit-liveness.timer'), 'utf8'));
  const k8s = readFileSync(here('kubernetes/heartbeat-kit.yaml'), 'utf8');
  const probe = JSON.parse(/livenessProbe:\s*\n\s*exec:\s*\n\s*command: (\[.*\])/.exec(k8s)?.[1] ?? '[]') as string[];

  it('the cycle service checks liveness after each run; a timer checks a loop', () => {
    expect(heartbeatArgs(unitValue(parseUnitFile(serviceText), 'Service', 'ExecStartPost') ?? '')).toEqual([
      'check-liveness',
      '--max-age',
      '30m',
    ]);
    expect(heartbeatArgs(unitValue(livenessService, 'Service', 'ExecStart') ?? '')).toEqual(['check-liveness', '--max-age', '30m']);
    expect(unitValue(livenessTimer, 'Timer', 'Unit')).toBe('heartbeat-kit-liveness.service');
    expect(k8s).toMatch(/concurrencyPolicy: Forbid/);
    expect(k8s).toMatch(/startingDeadlineSeconds: \d+/);
  });

  it('kubernetes: a stopped pod lets the scan in flight finish ("do not interrupt mid-scan")', () => {
    // heartbeat-kit is PID 1 and gets the SIGTERM itself, in both the loop and the cycle.
    const commands = [...k8s.matchAll(/^\s*command: (\[.*\])$/gm)].map((m) => JSON.parse(m[1] ?? '[]') as string[]);
    const runs = commands.filter((c) => c.includes('loop') || c.includes('cycle'));
    expect(runs).toHaveLength(2);
    for (const command of runs) expect(command[0]).toBe('/project/node_modules/.bin/heartbeat-kit');
    // A scan (30 s) and a webhook delivery (15 s) fit before the kubelet's SIGKILL.
    const graces = [...k8s.matchAll(/terminationGracePeriodSeconds: (\d+)/g)].map((m) => Number(m[1]));
    expect(graces).toHaveLength(2);
    for (const grace of graces) expect(grace).toBeGreaterThan(30 + 15);
  });

  it.each([
    ['systemd', () => heartbeatArgs(unitValue(livenessService, 'Service', 'ExecStart') ?? '')],
    ['kubernetes probe', () => probe.slice(probe.indexOf('heartbeat-kit') + 1)],
  ])('%s: the check exits 1 before any cycle and 0 right after one', async (_name, args) => {
    const argv = args();
    expect(argv[0]).toBe('check-liveness');
    const project = tempDir();
    spawnSync('git', ['init', '-q', project], { encoding: 'utf8' });
    const before = await runCli(argv, project);
    expect(before.code).toBe(1);
    expect(before.stdout).toMatch(/^not alive \(never-ran\)/);
    expect((await runCli(['cycle'], project)).code).toBe(0);
    const after = await runCli(argv, project);
    expect(after.stdout).toMatch(/^alive: cycle #1 ran at /);
    expect(after.code).toBe(0);
  });
});
