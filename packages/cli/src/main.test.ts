import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BUILT_CLI_BIN } from '../test/support/built-cli.js';
import { useFileTempDir } from '../test/support/cli-world.js';
import { captureIo, runCli } from '../test/support/run-cli.js';
import packageJson from '../package.json' with { type: 'json' };
import { suggestName } from './errors.js';
import { main } from './main.js';

const dir = useFileTempDir('hk-main-');
const run = (...argv: string[]) => runCli(argv, { cwd: dir, env: { PATH: process.env.PATH, HOME: dir } });

// One invocation per command (and subcommand router) with a flag none of them knows.
const BAD_FLAG: readonly (readonly string[])[] = [
  ['cycle'],
  ['loop'],
  ['init'],
  ['replay'],
  ['woterclip', 'beat'],
  ['woterclip', 'status'],
  ['fleet', 'list'],
  ['runbook', 'check'],
];

describe('CLI conventions', () => {
  it('help <command> prints the same text as <command> --help, for commands and subcommands', async () => {
    for (const argv of [['cycle'], ['init'], ['fleet'], ['fleet', 'add'], ['woterclip', 'beat'], ['runbook']]) {
      const viaHelp = await run('help', ...argv);
      const viaFlag = await run(...argv, '--help');
      expect(viaHelp.code).toBe(0);
      expect(viaHelp.stdout).toBe(viaFlag.stdout);
      expect(viaHelp.stdout).toMatch(/^Usage: heartbeat-kit /);
    }
  });

  it('-V, --version and -v print the package version', async () => {
    for (const flag of ['-V', '--version', '-v'])
      expect(await run(flag)).toEqual({ code: 0, stdout: `${packageJson.version}\n`, stderr: '' });
  });

  it('a typo gets "did you mean", in text and as JSON with --json', async () => {
    const typo = await run('cyle');
    expect(typo.code).toBe(2);
    expect(typo.stderr).toBe("heartbeat-kit: unknown command 'cyle'. Did you mean `cycle`? Fix: run 'heartbeat-kit help' for the list.\n");
    const json = await run('cyle', '--json');
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stderr)).toEqual({
      error: "unknown command 'cyle'. Did you mean `cycle`?",
      command: null,
      fix: "run 'heartbeat-kit help' for the list.",
      didYouMean: 'cycle',
    });
    const sub = await run('runbook', 'chek');
    expect(sub.stderr).toBe(
      "heartbeat-kit runbook: unknown subcommand 'chek'. Did you mean `check`? Fix: run 'heartbeat-kit help runbook' for the list.\n",
    );
    const far = await run('help', 'frobnicate');
    expect(far.stderr).toBe("heartbeat-kit: unknown command 'frobnicate'. Fix: run 'heartbeat-kit help' for the list.\n");
  });

  it('every command reports a bad flag in one style: one line, exit 2, naming the fix; as one JSON object with --json', async () => {
    for (const argv of BAD_FLAG) {
      const text = await run(...argv, '--no-such-flag');
      expect(text.code, argv.join(' ')).toBe(2);
      expect(text.stderr, argv.join(' ')).toMatch(new RegExp(`^heartbeat-kit ${argv[0]}( [a-z-]+)?: [^\\n]+ Fix: [^\\n]+\\n$`));
      const json = await run(...argv, '--no-such-flag', '--json');
      expect(json.code, argv.join(' ')).toBe(2);
      const parsed = JSON.parse(json.stderr) as { error: string; command: string; fix: string };
      expect(parsed.command.startsWith(argv[0]!), argv.join(' ')).toBe(true);
      expect(parsed.error).toMatch(/no-such-flag/);
      expect(parsed.fix.length).toBeGreaterThan(0);
    }
  });

  it('with --json a warning is a JSON object too', async () => {
    const json = await run('init', '--cwd', join(dir, 'x'), '--json');
    expect(json.code).toBe(0);
    const config = join(dir, 'x', '.claude', 'HEARTBEAT.md');
    expect(JSON.parse(json.stdout)).toEqual({ status: 'written', file: config, stateDir: null });
    expect(json.stderr).toBe('');
  });
});

describe('suggestName', () => {
  const names = ['cycle', 'loop', 'init', 'replay', 'woterclip', 'fleet', 'runbook'];

  it('offers the command for one typo and nothing for unrelated words', () => {
    expect(suggestName('cyle', names)).toBe('cycle');
    expect(suggestName('cylce', names)).toBe('cycle');
    expect(suggestName('wotreclip', names)).toBe('woterclip');
    expect(suggestName('run', names)).toBe('runbook');
    expect(suggestName('frobnicate', names)).toBeUndefined();
    expect(suggestName('x', names)).toBeUndefined();
  });

  it('a single edit of any command name suggests that command (property)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...names), fc.nat(), fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'), (name, at, letter) => {
        const i = at % name.length;
        const typo = name.slice(0, i) + letter + name.slice(i + 1);
        const guess = suggestName(typo, names);
        return typo === name ? guess === name : guess === undefined || guess === name;
      }),
    );
  });
});

describe('a bug in a command', () => {
  it('exits 70 (internal) with "internal error" and the stack on stderr, never 1 ("no") or a throw', async () => {
    const io = captureIo(
      { cwd: dir, env: { PATH: process.env.PATH, HOME: dir } },
      {
        // A sink that throws stands in for any bug a command did not anticipate.
        stdout: () => {
          throw new TypeError('boom from a broken writer');
        },
      },
    );
    expect(await main(['woterclip', '--help'], io)).toBe(70);
    expect(io.err()).toMatch(
      /^heartbeat-kit woterclip: internal error \(a bug in heartbeat-kit; please report it\): TypeError: boom from a broken writer\n\s+at /,
    );
  });

  it('a crash outside main (an unhandled rejection in the binary) exits 70 too', () => {
    const BIN = pathToFileURL(BUILT_CLI_BIN).href;
    const crashed = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `process.argv.splice(2, 0, '--version'); await import(${JSON.stringify(BIN)}); setTimeout(() => Promise.reject(new Error('late boom')), 0);`,
      ],
      { encoding: 'utf8' },
    );
    expect(crashed.status).toBe(70);
    expect(crashed.stderr).toContain('heartbeat-kit: internal error (a bug in heartbeat-kit; please report it): Error: late boom');
  });
});
