import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseDot, type DotGraph } from '@heartbeat-kit/scanners';
import fc from 'fast-check';
import { parse, type ASTNode } from 'ts-graphviz/ast';
import { describe, expect, it } from 'vitest';

/**
 * On well-formed Graphviz input the tolerant reader must agree with a real DOT grammar (ts-graphviz)
 * about which node statements carry attribute blocks and what their values are, once the upstream
 * quirk "first block of a node id wins" is applied to the ts-graphviz statements too.
 */
function nodesByTsGraphviz(text: string): { name: string; nodes: [string, Record<string, string>][] } {
  const dot = parse(text);
  const graph = dot.children.find((c) => c.type === 'Graph');
  if (graph?.type !== 'Graph') throw new Error('no graph');
  const nodes = new Map<string, Record<string, string>>();
  const visit = (children: readonly ASTNode[]): void => {
    for (const child of children) {
      if (child.type === 'Subgraph') visit(child.children);
      if (child.type !== 'Node' || nodes.has(child.id.value)) continue;
      const record: Record<string, string> = {};
      for (const attribute of child.children) if (attribute.type === 'Attribute') record[attribute.key.value] = attribute.value.value;
      nodes.set(child.id.value, record);
    }
  };
  visit(graph.children);
  return { name: graph.id?.value ?? '', nodes: [...nodes] };
}

function nodesByReader(text: string): { name: string; nodes: [string, Record<string, string>][] } {
  const result = parseDot(text);
  if (result.isErr()) throw new Error(JSON.stringify(result.error));
  const graph: DotGraph = result.value;
  return { name: graph.name, nodes: graph.nodes.map((n) => [n.id, Object.fromEntries(n.attributes)]) };
}

describe('tolerant reader vs ts-graphviz', () => {
  it.each(['pipeline-harness-style.dot', 'pipeline-spec-style.dot'])('agrees on the %s fixture', async (name) => {
    const text = await readFile(join(import.meta.dirname, '..', 'fixtures', 'attractor', name), 'utf8');
    expect(nodesByReader(text)).toEqual(nodesByTsGraphviz(text));
  });

  const reserved = new Set(['graph', 'node', 'edge', 'subgraph', 'digraph', 'strict']);
  const id = fc.stringMatching(/^[a-z_][a-z0-9_]{0,6}$/).filter((s) => !reserved.has(s));
  // No backslashes: ts-graphviz keeps `\\` as two characters where the upstream parser decodes it.
  const value = fc.oneof(
    fc
      .string({ maxLength: 20 })
      .filter((s) => !s.includes('\\'))
      .map((s) => `"${s.replaceAll('"', '\\"')}"`),
    fc.stringMatching(/^[a-z_][a-z0-9_]{0,6}$/),
    fc.integer({ min: 0, max: 999 }).map(String),
  );
  const sep = fc.constantFrom(', ', ',', ' ', '\n', '; ');
  const attrList = fc
    .array(fc.tuple(id, value, sep), { minLength: 1, maxLength: 5 })
    .map((pairs) => `[${pairs.map(([k, v, s], i) => `${k}=${v}${i < pairs.length - 1 ? s : ''}`).join('')}]`);
  const statement = fc.oneof(
    fc.tuple(id, attrList).map(([n, a]) => `${n} ${a}`),
    fc
      .tuple(id, id, id, fc.option(attrList, { nil: undefined }))
      .map(([a, b, c, attrs]) => `${a} -> ${b} -> ${c}${attrs === undefined ? '' : ` ${attrs}`}`),
    attrList.map((a) => `node ${a}`),
    attrList.map((a) => `graph ${a}`),
    fc.tuple(id, attrList).map(([n, a]) => `subgraph cluster_${n} { ${n} ${a} }`),
    fc.tuple(id, value).map(([k, v]) => `${k}=${v}`),
  );

  it('agrees on generated well-formed graphs in either attribute style', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(statement, fc.constantFrom('\n', ';\n', '; ')), { maxLength: 12 }), (statements) => {
        // ts-graphviz rejects `;` after a subgraph (valid DOT, so one more reason not to depend on it).
        const text = `digraph "G-1" {\n${statements.map(([s, end]) => `${s}${s.startsWith('subgraph') ? '\n' : end}`).join('')}}\n`;
        expect(nodesByReader(text)).toEqual(nodesByTsGraphviz(text));
      }),
      { numRuns: 400 },
    );
  });
});
