import { describe, expect, it } from 'vitest';
import { useFileTempDir } from '../test/support/cli-world.js';
import { runCli } from '../test/support/run-cli.js';

const dir = useFileTempDir('hk-now-');
const run = (argv: readonly string[]) => runCli(argv, { cwd: dir, env: { PATH: process.env.PATH, HOME: dir } });

// Every command and subcommand of the CLI, with the operands it needs to get as far as reading its
// flags. The first test keeps this list complete, so a new command cannot slip past the check of
// its `--now`.
const COMMANDS: readonly (readonly string[])[] = [
  ['cycle'],
  ['loop'],
  ['history'],
  ['check-liveness'],
  ['pause'],
  ['resume'],
  ['plan'],
  ['ack'],
  ['unack'],
  ['check', 'run', 'disk'],
  ['init'],
  ['replay'],
  ['inbox', 'drain', 'inbox-dir'],
  ['inbox', 'list', 'inbox-dir'],
  ['woterclip', 'init'],
  ['woterclip', 'beat'],
  ['woterclip', 'status'],
  ['woterclip', 'history'],
  ['woterclip', 'pause'],
  ['woterclip', 'resume'],
  ['fleet', 'worker'],
  ['fleet', 'add'],
  ['fleet', 'list'],
  ['fleet', 'remove'],
  ['fleet', 'status'],
  ['fleet', 'history', 'my-repo'],
  ['fleet', 'liveness', 'my-repo'],
  ['fleet', 'ack', 'my-repo', 'GIT_STALE'],
  ['fleet', 'unack', 'my-repo', 'GIT_STALE'],
  ['fleet', 'pause', 'my-repo'],
  ['fleet', 'resume', 'my-repo'],
  ['runbook', 'init'],
  ['runbook', 'check', 'runbook.md'],
  ['runbook', 'due', 'runbook.md'],
  ['runbook', 'prune', 'runbook.md'],
  ['runbook', 'tick', '--runbook', 'runbook.md', '--status', 'status.json'],
  ['runbook', 'quiet', '--runbook', 'runbook.md', '--status', 'status.json'],
  ['runbook', 'boot-triage', '--status', 'status.json'],
  ['runbook', 'gate-report', 'gate.log'],
  ['service', 'install', '--systemd', '--print'],
  ['service', 'status'],
  ['service', 'uninstall'],
  ['mcp'],
];

// The commands whose help offers `--now`.
const WITH_NOW = [
  'cycle',
  'loop',
  'history',
  'check-liveness',
  'pause',
  'plan',
  'ack',
  'check run',
  'woterclip beat',
  'woterclip status',
  'woterclip history',
  'woterclip pause',
  'fleet history',
  'fleet liveness',
  'fleet ack',
  'fleet pause',
  'runbook init',
  'runbook check',
  'runbook due',
  'runbook prune',
  'runbook tick',
  'runbook quiet',
  'runbook boot-triage',
  'runbook gate-report',
];

describe('--now', () => {
  it('the list above names every command and subcommand the CLI has', async () => {
    const top = (await run(['help'])).stdout;
    const listed = [...top.matchAll(/^ {2}([a-z][a-z-]+) {2,}/gm)].map((m) => m[1]);
    expect(new Set(listed)).toEqual(new Set(COMMANDS.map((argv) => argv[0])));
    for (const group of ['woterclip', 'fleet', 'runbook']) {
      const help = (await run(['help', group])).stdout;
      const subcommands = [...help.matchAll(/^ {2}([a-z][a-z-]+)(?= )/gm)].map((m) => m[1]).filter((name) => name !== 'heartbeat-kit');
      expect(subcommands, group).toEqual(COMMANDS.filter((argv) => argv[0] === group).map((argv) => argv[1]));
    }
    // `service` lists its subcommands on its usage lines.
    const service = (await run(['help', 'service'])).stdout;
    const usage = [...service.matchAll(/heartbeat-kit service ([a-z]+)/g)].map((m) => m[1]);
    expect(new Set(usage)).toEqual(new Set(COMMANDS.filter((argv) => argv[0] === 'service').map((argv) => argv[1])));
  });

  it('every command that takes --now reads it with the one strict parser: an impossible date is exit 2 with the same fix', async () => {
    const offered: string[] = [];
    for (const argv of COMMANDS) {
      const name = argv.slice(0, 2).join(' ');
      const help = await run([...argv.slice(0, 2), '--help']);
      expect(help.code, name).toBe(0);
      if (!/^ +--now\b/m.test(help.stdout)) continue; // an option line, not prose such as 'enable --now'
      offered.push(name);
      for (const bad of ['2026-02-30T10:00:00Z', '2026-02-19T14:50:00', 'yesterday']) {
        const r = await run([...argv, '--now', bad]);
        expect(r.code, `${name} --now ${bad}: ${r.stderr}`).toBe(2);
        expect(r.stderr, name).toContain(`--now ${JSON.stringify(bad)}`);
        expect(r.stderr, name).toContain('Fix: use an ISO-8601 instant with a zone, e.g. --now 2026-02-19T14:50:00Z.');
        expect(r.stdout, name).toBe('');
      }
    }
    expect(offered).toEqual(WITH_NOW);
  });
});
