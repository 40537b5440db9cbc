import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBuiltCli, useTempDirs } from './support/cli-world.js';
import { BUILT_CLI_BIN } from './support/built-cli.js';
import { parsePlist } from './support/plist.js';

const built = useBuiltCli();
const tempDir = useTempDirs();

/** A project whose path has what systemd treats specially: spaces, quotes, %, $, a backslash, a semicolon. */
const AWKWARD = `my proj %n $HOME "q" 's' \\x;y`;

interface Machine {
  readonly home: string;
  readonly project: string;
  /** PATH: a fake systemctl (logging its argv) and git, or git alone. */
  readonly env: Record<string, string>;
  readonly unitDir: string;
  readonly systemctlLog: () => string[];
}

function machine(options: { readonly systemctl: boolean; readonly projectName?: string }): Machine {
  const root = tempDir('hk-service-');
  const home = join(root, 'home');
  const project = join(root, options.projectName ?? AWKWARD);
  mkdirSync(home);
  mkdirSync(project);
  execFileSync('git', ['init', '-q', '--', project]);
  const bin = join(root, 'bin');
  mkdirSync(bin);
  symlinkSync(execFileSync('sh', ['-c', 'command -v git']).toString().trim(), join(bin, 'git'));
  const log = join(root, 'systemctl.log');
  if (options.systemctl) {
    // Never the real systemctl: this one records its arguments and answers like a running service.
    writeFileSync(
      join(bin, 'systemctl'),
      `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\ncase "$2" in is-active) printf 'active\\nactive\\n';; is-enabled) printf 'enabled\\nenabled\\n';; esac\n`,
    );
    chmodSync(join(bin, 'systemctl'), 0o755);
  }
  return {
    home,
    project: realpathSync(project),
    env: { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), PATH: bin },
    unitDir: join(home, '.config', 'systemd', 'user'),
    systemctlLog: () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []),
  };
}

function verify(files: readonly string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    execFile('systemd-analyze', ['verify', '--man=no', ...files], (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : (error.code as number), output: stdout + stderr }),
    );
  });
}

describe('heartbeat-kit service (the built bin)', () => {
  it('--help names every action and the exit codes; no action or no manager is a usage error writing nothing', async () => {
    const m = machine({ systemctl: true });
    const help = await built.run(['service', '--help'], m.env);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/service install \(--systemd \[--user\] \| --launchd\)/);
    expect(help.stdout).toMatch(/Exit codes:\n {2}0 {2}done/);
    expect((await built.run(['service'], m.env)).code).toBe(2);
    const none = await built.run(['service', 'install', '--cwd', m.project], m.env);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('Fix: add --systemd --user');
    const wrongFlag = await built.run(['service', 'status', '--systemd', '--user', '--print', '--cwd', m.project], m.env);
    expect(wrongFlag.code).toBe(2);
    expect(wrongFlag.stderr).toContain('--print is for install, not status');
    const bad = await built.run(['service', 'install', '--systemd', '--user', '--max-age', 'soon', '--cwd', m.project], m.env);
    expect(bad.code).toBe(2);
    expect(existsSync(join(m.home, '.config'))).toBe(false);
    expect(m.systemctlLog()).toEqual([]);
  });

  it('--print writes nothing and runs nothing; the units it prints are the ones install writes', async () => {
    const m = machine({ systemctl: true });
    const printed = await built.run(['service', 'install', '--systemd', '--user', '--print', '--json', '--cwd', m.project], m.env);
    expect(printed.code).toBe(0);
    const { files } = JSON.parse(printed.stdout) as { files: { path: string; text: string }[] };
    expect(files.map((f) => f.path.slice(m.unitDir.length + 1))).toEqual([
      expect.stringMatching(/^heartbeat-kit-my-proj-n-home-q-s-x-y-[0-9a-f]{8}\.service$/),
      expect.stringMatching(/-liveness\.service$/),
      expect.stringMatching(/-liveness\.timer$/),
    ]);
    expect(readdirSync(m.home)).toEqual([]);
    expect(m.systemctlLog()).toEqual([]);

    const installed = await built.run(['service', 'install', '--systemd', '--user', '--cwd', m.project], m.env);
    expect(installed.code).toBe(0);
    for (const file of files) expect(readFileSync(file.path, 'utf8')).toBe(file.text);
  });

  it('install writes units systemd-analyze verify accepts for an awkward path, runs systemctl, and status/uninstall round-trip', async () => {
    const m = machine({ systemctl: true });
    const install = await built.run(
      ['service', 'install', '--systemd', '--user', '--cwd', m.project, '--', '--sink', 'file:100% $X.jsonl'],
      m.env,
    );
    expect(install.stderr).toBe('');
    expect(install.code).toBe(0);
    const units = readdirSync(m.unitDir).sort();
    expect(units).toHaveLength(3);
    const [loopUnit = '', , timer = ''] = [units.find((u) => !u.includes('liveness')), undefined, units.find((u) => u.endsWith('.timer'))];
    const name = loopUnit.replace(/\.service$/, '');
    const checked = await verify(units.map((u) => join(m.unitDir, u)));
    expect(checked).toEqual({ code: 0, output: '' });

    const loop = readFileSync(join(m.unitDir, loopUnit), 'utf8');
    expect(loop.split('\n')[0]).toBe('# Written by heartbeat-kit service install; edits are replaced by the next install.');
    // The awkward part of the path as systemd.syntax(7) spells it: \\ and \" escaped, %% and $$ doubled.
    const spelled = m.project.replace(AWKWARD, () => `my proj %%n $$HOME \\"q\\" 's' \\\\x;y`);
    expect(loop).toContain(
      `ExecStart="${process.execPath}" "${realpathSync(BUILT_CLI_BIN)}" "loop" "--cwd" "${spelled}" "--sink" "file:100%% $$X.jsonl"\n`,
    );
    expect(loop).toContain(`WorkingDirectory=${m.project.replace(/%/g, '%%')}\n`);
    expect(loop).toContain(`EnvironmentFile=-${m.home}/.config/heartbeat-kit/${name}.env\n`);
    for (const line of ['Restart=on-failure', 'KillMode=mixed', 'TimeoutStopSec=120s', 'WantedBy=default.target'])
      expect(loop).toContain(`${line}\n`);
    expect(readFileSync(join(m.unitDir, timer), 'utf8')).toContain(`Unit=${name}-liveness.service\n`);
    expect(install.stdout).toContain(`ran: systemctl --user enable --now -- ${name}.service ${name}-liveness.timer\n`);
    expect(m.systemctlLog()).toEqual(['--user daemon-reload', `--user enable --now -- ${name}.service ${name}-liveness.timer`]);

    const status = await built.run(['service', 'status', '--systemd', '--user', '--json', '--cwd', m.project], m.env);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({
      installed: true,
      name,
      units: { [`${name}.service`]: 'active, enabled', [`${name}-liveness.timer`]: 'active, enabled' },
    });

    const uninstall = await built.run(['service', 'uninstall', '--systemd', '--user', '--cwd', m.project], m.env);
    expect(uninstall.code).toBe(0);
    expect(readdirSync(m.unitDir)).toEqual([]);
    expect(m.systemctlLog().slice(-2)).toEqual([`--user disable --now -- ${name}.service ${name}-liveness.timer`, '--user daemon-reload']);
    const after = await built.run(['service', 'status', '--systemd', '--user', '--cwd', m.project], m.env);
    expect(after.code).toBe(1);
    expect(after.stdout).toMatch(/not installed: heartbeat-kit-/);
  });

  it('without systemctl on PATH the files are written and what was not done is said', async () => {
    const m = machine({ systemctl: false, projectName: 'plain' });
    const install = await built.run(['service', 'install', '--systemd', '--user', '--cwd', m.project], m.env);
    expect(install.code).toBe(0);
    expect(install.stdout).toMatch(/^not done: systemctl --user daemon-reload \(systemctl not found on PATH; run it yourself\)$/m);
    expect(install.stdout).toMatch(/^not done: systemctl --user enable --now -- heartbeat-kit-plain-/m);
    const status = await built.run(['service', 'status', '--systemd', '--user', '--cwd', m.project], m.env);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain('not checked: whether it runs (systemctl not found on PATH)\n');
  });

  it('status: installed with other loop options is current; a unit running another node is out of date (exit 1)', async () => {
    const m = machine({ systemctl: false, projectName: 'moved' });
    expect((await built.run(['service', 'install', '--systemd', '--user', '--cwd', m.project, '--', '--interval', '5m'], m.env)).code).toBe(
      0,
    );
    expect((await built.run(['service', 'status', '--systemd', '--user', '--cwd', m.project], m.env)).code).toBe(0);
    const loop = join(m.unitDir, readdirSync(m.unitDir).find((u) => u.endsWith('.service') && !u.includes('liveness')) ?? '');
    writeFileSync(loop, readFileSync(loop, 'utf8').replace(`"${process.execPath}"`, '"/opt/old-node/bin/node"'));
    const status = await built.run(['service', 'status', '--systemd', '--user', '--json', '--cwd', m.project], m.env);
    expect(status.code).toBe(1);
    expect(JSON.parse(status.stdout)).toMatchObject({
      installed: false,
      files: [{ path: loop, state: 'outdated' }, { state: 'current' }, { state: 'current' }],
    });
  });

  it('refuses to replace or remove a unit it did not write; --force does', async () => {
    const m = machine({ systemctl: true, projectName: 'mine' });
    const printed = await built.run(['service', 'install', '--systemd', '--user', '--print', '--json', '--cwd', m.project], m.env);
    const target = (JSON.parse(printed.stdout) as { files: { path: string }[] }).files[0]?.path ?? '';
    mkdirSync(m.unitDir, { recursive: true });
    writeFileSync(target, '[Service]\nExecStart=/usr/bin/true\n');
    const refused = await built.run(['service', 'install', '--systemd', '--user', '--cwd', m.project], m.env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`not replacing ${target}: heartbeat-kit did not write it`);
    expect(readdirSync(m.unitDir)).toHaveLength(1);
    expect(readFileSync(target, 'utf8')).toBe('[Service]\nExecStart=/usr/bin/true\n');
    expect((await built.run(['service', 'uninstall', '--systemd', '--user', '--cwd', m.project], m.env)).code).toBe(1);
    expect(existsSync(target)).toBe(true);
    expect((await built.run(['service', 'status', '--systemd', '--user', '--cwd', m.project], m.env)).stdout).toContain(
      `foreign  ${target} (not written by heartbeat-kit)`,
    );
    expect(m.systemctlLog()).toEqual([]);

    const forced = await built.run(['service', 'install', '--systemd', '--user', '--force', '--no-enable', '--cwd', m.project], m.env);
    expect(forced.code).toBe(0);
    expect(readFileSync(target, 'utf8')).toMatch(/^# Written by heartbeat-kit/);
    expect(m.systemctlLog()).toEqual([]);
  });

  it('a system unit (--systemd without --user) verifies too, with User= and the multi-user target', async () => {
    const m = machine({ systemctl: true, projectName: 'sys' });
    const dir = join(m.home, 'system');
    const install = await built.run(['service', 'install', '--systemd', '--dir', dir, '--no-enable', '--cwd', m.project], m.env);
    expect(install.code).toBe(0);
    const units = readdirSync(dir).map((u) => join(dir, u));
    expect(await verify(units)).toEqual({ code: 0, output: '' });
    const loop = readFileSync(units.find((u) => !u.includes('liveness')) ?? '', 'utf8');
    expect(loop).toMatch(/^User=[A-Za-z_][\w.-]*$/m);
    expect(loop).toContain('WantedBy=multi-user.target\n');
    expect(loop).toMatch(/^EnvironmentFile=-\/etc\/heartbeat-kit\/heartbeat-kit-sys-[0-9a-f]{8}\.env$/m);
  });

  it('a path no unit line can carry is a usage error naming it, and nothing is written', async () => {
    const m = machine({ systemctl: true, projectName: 'p' });
    const bad = await built.run(
      ['service', 'install', '--systemd', '--user', '--environment-file', '/tmp/a\nb', '--cwd', m.project],
      m.env,
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('"/tmp/a\\nb" cannot go in a systemd unit: it contains a control character');
    expect(existsSync(m.unitDir)).toBe(false);
  });

  it('launchd: the plists parse and carry the keys launchd needs; status/uninstall round-trip without launchctl', async () => {
    const m = machine({ systemctl: false });
    const install = await built.run(['service', 'install', '--launchd', '--cwd', m.project, '--', '--state', 's.json'], m.env);
    expect(install.code).toBe(0);
    expect(install.stdout).toMatch(/^not done: launchctl bootstrap gui\/\d+ .*\.plist \(launchctl not found on PATH; run it yourself\)$/m);
    const agents = join(m.home, 'Library', 'LaunchAgents');
    const files = readdirSync(agents).sort();
    expect(files).toEqual([
      expect.stringMatching(/^dev\.heartbeat-kit\.heartbeat-kit-my-proj-n-home-q-s-x-y-[0-9a-f]{8}\.liveness\.plist$/),
      expect.stringMatching(/^dev\.heartbeat-kit\.heartbeat-kit-my-proj-n-home-q-s-x-y-[0-9a-f]{8}\.plist$/),
    ]);
    const loop = parsePlist(readFileSync(join(agents, files[1] ?? ''), 'utf8'));
    const label = (files[1] ?? '').replace(/\.plist$/, '');
    const logs = join(m.home, 'Library', 'Logs', 'heartbeat-kit');
    const name = label.replace(/^dev\.heartbeat-kit\./, '');
    expect(loop).toEqual({
      Label: label,
      ProgramArguments: [process.execPath, realpathSync(BUILT_CLI_BIN), 'loop', '--cwd', m.project, '--state', 's.json'],
      WorkingDirectory: m.project,
      EnvironmentVariables: { PATH: m.env.PATH },
      RunAtLoad: true,
      KeepAlive: { SuccessfulExit: false },
      ExitTimeOut: 120,
      StandardOutPath: join(logs, `${name}.out.log`),
      StandardErrorPath: join(logs, `${name}.err.log`),
    });
    const liveness = parsePlist(readFileSync(join(agents, files[0] ?? ''), 'utf8'));
    expect(liveness).toMatchObject({
      Label: `${label}.liveness`,
      ProgramArguments: [process.execPath, realpathSync(BUILT_CLI_BIN), 'check-liveness', '--cwd', m.project, '--state', 's.json'],
      StartInterval: 900,
    });
    expect(existsSync(logs)).toBe(true);

    expect((await built.run(['service', 'status', '--launchd', '--cwd', m.project], m.env)).code).toBe(0);
    const removed = await built.run(['service', 'uninstall', '--launchd', '--cwd', m.project], m.env);
    expect(removed.code).toBe(0);
    expect(readdirSync(agents)).toEqual([]);
  });
});
