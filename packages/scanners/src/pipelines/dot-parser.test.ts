import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeDotParseError, parseDot, type DotGraph, type DotParseError } from './dot-parser.js';

function parsed(text: string): DotGraph {
  const result = parseDot(text);
  if (result.isErr()) throw new Error(`unexpected parse error: ${describeDotParseError(result.error)}`);
  return result.value;
}

function failure(text: string, options?: { maxChars: number }): DotParseError {
  const result = parseDot(text, options);
  if (result.isOk()) throw new Error('expected a parse error');
  return result.error;
}

const attrs = (graph: DotGraph, id: string): Record<string, string> =>
  Object.fromEntries(graph.nodes.find((n) => n.id === id)?.attributes ?? new Map<string, string>());

describe('parseDot — syntax both dialects use', () => {
  it('reads comma-separated and whitespace/newline-separated attribute blocks alike', () => {
    const graph = parsed(`digraph G {
      a [shape=box, label="A", status=active]
      b [shape=box label="B"
         status=validated

         handler="codergen"]
      c [shape=box; label="C";]
    }`);
    expect(graph.nodes.map((n) => n.id)).toEqual(['a', 'b', 'c']);
    expect(attrs(graph, 'a')).toEqual({ shape: 'box', label: 'A', status: 'active' });
    expect(attrs(graph, 'b')).toEqual({ shape: 'box', label: 'B', status: 'validated', handler: 'codergen' });
    expect(attrs(graph, 'c')).toEqual({ shape: 'box', label: 'C' });
  });

  it('reads quoted graph ids with hyphens and bare ones', () => {
    expect(parsed('digraph "PRD-X-001" { }').name).toBe('PRD-X-001');
    expect(parsed('digraph Scan_1 { }').name).toBe('Scan_1');
    expect(parsed('strict digraph S { }').name).toBe('S');
    expect(parsed('digraph { a [x=1] }').name).toBe('');
  });

  it('decodes \\" and \\\\ in quotes and keeps other escapes as two characters', () => {
    const graph = parsed(String.raw`digraph G { a [label="say \"hi\"\nnow \\ back\l", path="C:\dir"] }`);
    expect(attrs(graph, 'a')).toEqual({ label: 'say "hi"\\nnow \\ back\\l', path: 'C:\\dir' });
  });

  it('keeps real newlines inside quoted values', () => {
    expect(attrs(parsed('digraph G { a [label="one\ntwo"] }'), 'a')).toEqual({ label: 'one\ntwo' });
  });

  it('ignores // and /* */ comments outside quotes, keeps them inside', () => {
    const graph = parsed(`// head
      digraph G { /* x [status=failed] */
        a [label="http://example.test /* not a comment */", status=active] // trailing
        // b [status=failed]
        c [url=http://x
        ]
      }`);
    expect(graph.nodes.map((n) => n.id)).toEqual(['a', 'c']);
    expect(attrs(graph, 'a')).toEqual({ label: 'http://example.test /* not a comment */', status: 'active' });
    // A bare value ends where a comment starts, as upstream strips `//…` before reading values.
    expect(attrs(graph, 'c')).toEqual({ url: 'http:' });
  });

  it('accepts chained edges, subgraphs and optional semicolons without taking edge targets for nodes', () => {
    const graph = parsed(`digraph G {
      a [x=1]; b [x=2]
      a -> b -> c [label="chain"]
      subgraph cluster_1 { label="group"; d [x=4] }
      b -> { e f } [label=fan]
      g
      h -> i
    }`);
    expect(graph.nodes.map((n) => n.id)).toEqual(['a', 'b', 'd']);
  });

  it('normalises CRLF and a BOM like Python text mode', () => {
    const graph = parsed('\uFEFFdigraph G {\r\n a [label="x\r\ny"]\r\n}\r\n');
    expect(attrs(graph, 'a')).toEqual({ label: 'x\ny' });
  });
});

describe('parseDot — upstream quirks that change dashboard results', () => {
  it('does not merge node defaults into nodes', () => {
    const graph = parsed('digraph G { node [status=failed, shape=box] a [label=A] }');
    expect(attrs(graph, 'a')).toEqual({ label: 'A' });
    expect(Object.fromEntries(graph.nodeDefaults)).toEqual({ status: 'failed', shape: 'box' });
  });

  it('feeds graph attributes from graph [ … ] blocks only, later blocks overriding', () => {
    const graph = parsed(`digraph G {
      prd_ref="IGNORED"
      graph [prd_ref="PRD-1", label=one]
      graph [label=two]
    }`);
    expect(Object.fromEntries(graph.attributes)).toEqual({ prd_ref: 'PRD-1', label: 'two' });
    expect(graph.nodes).toEqual([]);
  });

  it('counts a node only with an attribute block, and its first block wins', () => {
    const graph = parsed('digraph G { a; b [status=active] b [status=failed] a [status=validated] c [] }');
    expect(graph.nodes.map((n) => n.id)).toEqual(['b', 'a', 'c']);
    expect(attrs(graph, 'b')).toEqual({ status: 'active' });
    expect(attrs(graph, 'c')).toEqual({});
  });

  it('takes only \\w+ ids: quoted ids are not nodes', () => {
    const graph = parsed('digraph G { "quoted id" [status=failed] ünï_1 [status=active] 42 [x=y] }');
    expect(graph.nodes.map((n) => n.id)).toEqual(['ünï_1', '42']);
  });

  it('skips stray tokens inside blocks and keeps the last value of a repeated key', () => {
    const graph = parsed('digraph G { a [flag, "str" = 1, k=1 k=2, =3, x=] }');
    expect(attrs(graph, 'a')).toEqual({ k: '2' });
  });

  it('keeps keys such as __proto__ as plain data', () => {
    const graph = parsed('digraph G { a [__proto__=x, constructor=y] }');
    expect(attrs(graph, 'a')).toEqual(
      Object.fromEntries([
        ['__proto__', 'x'],
        ['constructor', 'y'],
      ]),
    );
  });
});

describe('parseDot — malformed and hostile input is a typed error', () => {
  it.each([
    ['graph G { }', 'not-a-digraph', 1],
    ['hello', 'not-a-digraph', 1],
    ['', 'not-a-digraph', 1],
    ['digraph G a [x=1] }', 'expected-brace', 1],
    ['digraph G {\n a [label="open\n}', 'unterminated-string', 2],
    ['digraph G {\n a [label="ends in backslash\\', 'unterminated-string', 2],
    ['digraph G {\n\n /* never closed', 'unterminated-comment', 3],
    ['digraph G {\n a [x=1\n', 'unterminated-attributes', 2],
    ['digraph G {\n a [x=1]\n subgraph s {', 'unterminated-graph', 1],
  ] as const)('%j → %s', (text, kind, line) => {
    expect(failure(text)).toEqual({ kind, line });
  });

  it('refuses input beyond the size limit before scanning it', () => {
    expect(failure('digraph G { }'.padEnd(50, ' '), { maxChars: 20 })).toEqual({ kind: 'too-large', chars: 50, limit: 20 });
  });

  it('reads a huge label in linear time and keeps it whole', () => {
    const label = 'x'.repeat(500_000);
    expect(attrs(parsed(`digraph G { a [label="${label}"] }`), 'a').label).toHaveLength(500_000);
  });

  it('describes every error kind in one line', () => {
    const errors: DotParseError[] = [
      { kind: 'too-large', chars: 9, limit: 1 },
      { kind: 'not-a-digraph', line: 1 },
      { kind: 'expected-brace', line: 2 },
      { kind: 'unterminated-string', line: 3 },
      { kind: 'unterminated-comment', line: 4 },
      { kind: 'unterminated-attributes', line: 5 },
      { kind: 'unterminated-graph', line: 6 },
    ];
    const lines = errors.map(describeDotParseError);
    expect(new Set(lines).size).toBe(errors.length);
    for (const line of lines) expect(line).not.toContain('\n');
  });

  it('never throws on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (text) => {
        const result = parseDot(text);
        expect(result.isOk() || result.isErr()).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('never throws on DOT-flavoured noise', () => {
    const piece = fc.constantFrom(
      'digraph',
      'G',
      '{',
      '}',
      '[',
      ']',
      '"',
      '\\',
      '=',
      ',',
      ';',
      '->',
      '--',
      '//',
      '/*',
      '*/',
      '\n',
      ' ',
      'graph',
      'node',
      'a',
      'status',
      'failed',
      '<',
      '>',
      '#',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 80 }), (pieces) => {
        const result = parseDot(pieces.join(''));
        expect(result.isOk() || result.isErr()).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });
});

// ---- round-trip property: generated pipelines in either attribute style parse back exactly ----

const RESERVED = new Set(['graph', 'node', 'edge', 'subgraph', 'digraph', 'strict']);
const identifier = fc.stringMatching(/^[a-z_][a-z0-9_]{0,8}$/).filter((id) => !RESERVED.has(id));
const quotedValue = fc.string({ maxLength: 30 }).map((raw) => ({ raw, text: `"${raw.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"` }));
const bareValue = fc.stringMatching(/^[A-Za-z0-9.#_+-]{1,12}$/).map((raw) => ({ raw, text: raw }));
const separator = fc.constantFrom(', ', ',', ' ', '\n', ';', ',\n\n  ', ' /* c */ ');
const statementGap = fc.constantFrom('\n', ';\n', ' ', '\n// note [x=1]\n', '\n/* a [status=failed] */\n');
const block = fc.array(fc.tuple(identifier, fc.oneof(quotedValue, bareValue), separator), { maxLength: 6 });
const nodeStatement = fc.tuple(identifier, block);

describe('parseDot — round trip', () => {
  it('recovers every node, first block winning, with its decoded attribute values', () => {
    fc.assert(
      fc.property(
        fc.array(nodeStatement, { maxLength: 12 }),
        fc.array(statementGap, { minLength: 12, maxLength: 12 }),
        (statements, gaps) => {
          const body = statements
            .map(([id, pairs], i) => `${id} [${pairs.map(([k, v, sep]) => `${k}=${v.text}${sep}`).join('')}]${gaps[i] ?? '\n'}`)
            .join('');
          const graph = parsed(`digraph "P-1" {\n${body}}`);
          const expected = new Map<string, Record<string, string>>();
          for (const [id, pairs] of statements) {
            if (expected.has(id)) continue;
            const record: Record<string, string> = {};
            for (const [k, v] of pairs) record[k] = v.raw;
            expected.set(id, record);
          }
          expect(graph.name).toBe('P-1');
          expect(graph.nodes.map((n) => n.id)).toEqual([...expected.keys()]);
          for (const node of graph.nodes) expect(Object.fromEntries(node.attributes)).toEqual(expected.get(node.id));
        },
      ),
      { numRuns: 500 },
    );
  });
});
