import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../io.js';
import { EXIT } from '../exit-codes.js';
import { defineCommand, parseCommand, renderHelp, usageFailure, type CommandSpec } from './index.js';
import { ok } from 'neverthrow';
import { wrapWords } from './render-help.js';

const SPEC = {
  name: 'demo',
  usage: 'FILE [options]',
  description: 'Does a demo.',
  flags: {
    cwd: { type: 'string', value: 'DIR', help: 'the project directory' },
    'max-age': { type: 'string', value: 'DURATION', help: 'how old\nat most' },
    json: { type: 'boolean', help: 'print JSON' },
    tag: { type: 'string', multiple: true, value: 'T', help: 'a tag (repeatable)' },
  },
  positionals: { min: 1, max: 1, fix: 'heartbeat-kit demo cycles.jsonl' },
  examples: ['demo a.jsonl --json'],
  exitCodes: [
    [EXIT.ok, 'done'],
    [EXIT.usage, 'usage error'],
  ],
} as const satisfies CommandSpec;

function capture(): { io: CliIo; out: () => string; err: () => string } {
  let out = '';
  let err = '';
  const io: CliIo = {
    stdout: (t) => void (out += t),
    stderr: (t) => void (err += t),
    cwd: '/',
    env: {},
    shutdownSignal: new AbortController().signal,
  };
  return { io, out: () => out, err: () => err };
}

describe('renderHelp', () => {
  it('prints the usage, every flag with its placeholder, -h, the examples and the exit codes', () => {
    expect(renderHelp(SPEC)).toBe(
      [
        'Usage: heartbeat-kit demo FILE [options]',
        '',
        'Does a demo.',
        '',
        'Options:',
        '  --cwd DIR          the project directory',
        '  --max-age DURATION how old',
        '                     at most',
        '  --json             print JSON',
        '  --tag T            a tag (repeatable)',
        '  -h, --help         show this help',
        '',
        'Examples:',
        '  heartbeat-kit demo a.jsonl --json',
        '',
        'Exit codes: 0 done, 2 usage error.',
        '',
      ].join('\n'),
    );
  });

  it('in the list layout prints "Example:" with the output lines as given and one exit code a line', () => {
    const text = renderHelp({
      ...SPEC,
      omitHelpLine: true,
      helpLayout: 'list',
      examples: ['demo a.jsonl', '  a.jsonl: done'],
    });
    expect(text).toBe(
      [
        'Usage: heartbeat-kit demo FILE [options]',
        '',
        'Does a demo.',
        '',
        'Example:',
        '  heartbeat-kit demo a.jsonl',
        '    a.jsonl: done',
        '',
        'Exit codes:',
        '  0  done',
        '  2  usage error',
        '',
      ].join('\n'),
    );
  });

  it('puts a flag that reaches the help column on its own line', () => {
    const text = renderHelp({ ...SPEC, flags: { 'active-hours-only': { type: 'boolean', help: 'count only active time' } } });
    expect(text).toContain('  --active-hours-only\n                     count only active time\n');
  });

  it("lists the exit codes as a table when asked, a meaning's line break continuing under it", () => {
    const text = renderHelp({
      ...SPEC,
      exitCodeTable: true,
      exitCodes: [
        [EXIT.ok, 'done'],
        [EXIT.usage, 'usage error,\nnothing written'],
      ],
    });
    expect(text.endsWith('\n\nExit codes:\n  0  done\n  2  usage error,\n     nothing written\n')).toBe(true);
  });

  it('lists grouped flags as a block after Options, -h ending the last block; an empty block or exit-code list is left out', () => {
    const common = { redis: { type: 'string', value: 'URL', help: 'the Redis', group: 'Common options' } } as const;
    const page = (flags: CommandSpec['flags']): string => renderHelp({ ...SPEC, flags, notes: 'Notes.', examples: [], exitCodes: [] });
    expect(page({ json: SPEC.flags.json, ...common })).toBe(
      [
        'Usage: heartbeat-kit demo FILE [options]',
        '',
        'Does a demo.',
        '',
        'Options:',
        '  --json             print JSON',
        'Common options:',
        '  --redis URL        the Redis',
        '  -h, --help         show this help',
        '',
        'Notes.',
        '',
      ].join('\n'),
    );
    expect(page(common)).toContain('Does a demo.\n\nCommon options:\n  --redis URL        the Redis\n  -h, --help ');
  });

  it('wraps words into lines no longer than the width, losing none', () => {
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[a-z0-9(),]{1,12}$/), { maxLength: 60 }),
        fc.integer({ min: 12, max: 100 }),
        (words, width) => {
          const lines = wrapWords(words.join(' '), width);
          for (const line of lines) expect(line.length).toBeLessThanOrEqual(width);
          expect(
            lines
              .join(' ')
              .split(' ')
              .filter((w) => w !== ''),
          ).toEqual(words);
        },
      ),
    );
  });
});

describe('parseCommand', () => {
  it('gives every declared string flag its value back, whatever it holds', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (cwd, tag) => {
        const parsed = parseCommand(SPEC, ['f', `--cwd=${cwd}`, `--tag=${tag}`, '--json']);
        expect(parsed._unsafeUnwrap().flags).toEqual({ cwd, tag: [tag], json: true });
        expect(parsed._unsafeUnwrap().positionals).toEqual(['f']);
      }),
    );
  });

  it('refuses an unknown flag with exit 2, the flag meant and the help page', () => {
    const parsed = parseCommand(SPEC, ['f', '--jsno']);
    expect(parsed._unsafeUnwrapErr()).toEqual({
      exit: EXIT.usage,
      message: "Unknown option '--jsno'. Did you mean `--json`? Fix: see 'heartbeat-kit demo --help'.",
    });
    expect(parseCommand(SPEC, ['f', '--frobnicate'])._unsafeUnwrapErr().message).not.toContain('Did you mean');
  });

  it('refuses a wrong number of positional arguments with the fix', () => {
    expect(parseCommand(SPEC, [])._unsafeUnwrapErr().message).toBe('expected exactly one FILE. Fix: heartbeat-kit demo cycles.jsonl');
    expect(parseCommand(SPEC, ['a', 'b']).isErr()).toBe(true);
    const { positionals: _none, ...noPositionals } = SPEC;
    expect(parseCommand(noPositionals, ['a']).isErr()).toBe(true);
  });

  it("refuses a sibling subcommand's flag as not applying to this one, naming the help page; --help still wins", () => {
    const sub = { ...SPEC, name: 'demo list', siblingFlags: { concurrency: { type: 'string', help: 'jobs' } } } as const;
    expect(parseCommand(sub, ['f', '--concurrency', '3'])._unsafeUnwrapErr()).toEqual({
      exit: EXIT.usage,
      message: "--concurrency does not apply to 'list'. Fix: see 'heartbeat-kit demo list --help'.",
    });
    expect(parseCommand(sub, ['--concurrency', '3', '--help'])._unsafeUnwrap().flags.help).toBe(true);
    // Its value is the flag's, not a positional; an unknown flag is still unknown.
    expect(parseCommand(sub, ['f', '--json'])._unsafeUnwrap().positionals).toEqual(['f']);
    expect(parseCommand(sub, ['f', '--concurency', '3'])._unsafeUnwrapErr().message).toMatch(/^Unknown option '--concurency'/);
  });

  it('lets --help through whatever the positionals', () => {
    expect(parseCommand(SPEC, ['--help'])._unsafeUnwrap().flags.help).toBe(true);
  });
});

describe('defineCommand', () => {
  const demo = defineCommand(SPEC, ({ flags, positionals, io }) => {
    if (flags.cwd === 'bad') return Promise.resolve(usageFailure('--cwd bad is bad. Fix: pass a good one.'));
    io.stdout(`${positionals.join(',')}\n`);
    return Promise.resolve(ok(EXIT.ok));
  });

  it('prints the help derived from the spec and exits 0', async () => {
    const c = capture();
    expect(await demo(['--help'], c.io)).toBe(EXIT.ok);
    expect(c.out()).toBe(renderHelp(SPEC));
    expect(demo.spec).toBe(SPEC);
  });

  it("prints a body's failure as one line naming the command, with its exit code", async () => {
    const c = capture();
    expect(await demo(['f', '--cwd', 'bad'], c.io)).toBe(EXIT.usage);
    expect(c.err()).toBe('heartbeat-kit demo: --cwd bad is bad. Fix: pass a good one.\n');
    expect(c.out()).toBe('');
  });

  it('runs the body with the parsed arguments', async () => {
    const c = capture();
    expect(await demo(['f'], c.io)).toBe(EXIT.ok);
    expect(c.out()).toBe('f\n');
  });
});
