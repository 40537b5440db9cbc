import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { environmentAssignment, execArgument, isUnitValueError, pathValue, textValue } from './systemd-syntax.js';

// A reading of a unit-file value written from systemd's documented rules, independent of the
// writer: specifiers first (systemd.unit(5): only %% is used here, any other % is a mistake),
// then words split with quotes and C escapes (systemd.syntax(7)), then, for command lines,
// $$ → $ (systemd.service(5): a lone $NAME would be expanded).
function expandSpecifiers(raw: string): string {
  return raw.replace(/%(.)/gs, (_, c: string) => {
    if (c !== '%') throw new Error(`specifier %${c} would be expanded`);
    return '%';
  });
}

const C_ESCAPES: Record<string, string> = { '\\': '\\', '"': '"', "'": "'", n: '\n', t: '\t', s: ' ' };

function splitWords(line: string): string[] {
  const words: string[] = [];
  let i = 0;
  while (i < line.length) {
    while (line[i] === ' ') i++;
    if (i >= line.length) break;
    let word = '';
    let quote: string | undefined;
    for (; i < line.length; i++) {
      const c = line[i] as string;
      if (c === '\\') {
        const next = line[++i] ?? '';
        const escaped = C_ESCAPES[next];
        if (escaped === undefined) throw new Error(`unknown escape \\${next}`);
        word += escaped;
      } else if (quote !== undefined) {
        if (c === quote) quote = undefined;
        else word += c;
      } else if (c === '"' || c === "'") quote = c;
      else if (c === ' ') break;
      else word += c;
    }
    if (quote !== undefined) throw new Error('unbalanced quoting');
    words.push(word);
  }
  return words;
}

function expandDollars(word: string): string {
  return word.replace(/\$(\$|[A-Za-z_{])/g, (_, c: string) => {
    if (c !== '$') throw new Error('a variable would be expanded');
    return '$';
  });
}

/** What systemd hands the process for an ExecStart= line. */
function execArgv(line: string): string[] {
  return splitWords(expandSpecifiers(line)).map(expandDollars);
}

const printable = fc.string({
  unit: fc.oneof(
    fc.constantFrom('%', '$', '"', "'", '\\', ' ', ';', '{', 'n', 'a'),
    fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }),
    fc.constantFrom('é', '☃'),
  ),
});

function must(value: ReturnType<typeof execArgument>): string {
  if (isUnitValueError(value)) throw new Error(value.reason);
  return value;
}

describe('systemd unit values', () => {
  it('an ExecStart= argument reaches the process as it was (property)', () => {
    fc.assert(
      fc.property(fc.array(printable, { minLength: 1, maxLength: 5 }), (args) => {
        expect(execArgv(args.map((a) => must(execArgument(a))).join(' '))).toEqual(args);
      }),
    );
  });

  it('escapes the path of a project with spaces, quotes, % and $ (example)', () => {
    expect(execArgument(`/home/me/my "x" 50% $HOME\\y`)).toBe(`"/home/me/my \\"x\\" 50%% $$HOME\\\\y"`);
  });

  it('an Environment= assignment is one word with its value as it was, $ untouched (property)', () => {
    fc.assert(
      fc.property(printable, (value) => {
        expect(splitWords(expandSpecifiers(must(environmentAssignment('PATH', value))))).toEqual([`PATH=${value}`]);
      }),
    );
  });

  it('a path setting reads back as the path, or is refused with the reason (property)', () => {
    fc.assert(
      fc.property(printable, (tail) => {
        const path = `/${tail}`;
        const value = pathValue(path);
        if (isUnitValueError(value)) {
          expect(path !== path.trim() || path.endsWith('\\')).toBe(true);
          return;
        }
        expect(expandSpecifiers(value)).toBe(path);
        expect(value).not.toMatch(/[\n\r]/);
      }),
    );
  });

  it('refuses what no unit line can carry: control characters, relative paths, edge spaces, a final backslash', () => {
    expect(execArgument('a\nb')).toHaveProperty('reason', expect.stringContaining('control character') as string);
    expect(environmentAssignment('PATH', 'a\u0000b')).toHaveProperty('reason', expect.stringContaining('control character') as string);
    expect(pathValue('/a\tb')).toHaveProperty('reason', expect.stringContaining('control character') as string);
    expect(pathValue('relative/dir')).toMatchObject({ reason: 'it is not absolute' });
    expect(pathValue('/dir ')).toHaveProperty('reason', expect.stringContaining('space') as string);
    expect(pathValue('/dir\\')).toHaveProperty('reason', expect.stringContaining('backslash') as string);
  });

  it('free text keeps to one line and its % are not specifiers', () => {
    expect(textValue('50%\nnext\\')).toBe('50%%?next?');
  });
});
