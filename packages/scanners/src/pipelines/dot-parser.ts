import { err, ok, type Result } from 'neverthrow';

/**
 * A tolerant reader of Attractor pipeline `.dot` files that reproduces the behaviour of the upstream
 * regex parser the dashboard uses (reference cobuilder.md §7), not full Graphviz semantics.
 *
 * Why not ts-graphviz: its grammar rejects files the upstream parser accepts (bare values such as
 * `color=#fff`) and decodes `\\` differently, and the quirks that change dashboard results (defaults not
 * merged, first block wins, edge targets are not nodes) would have to be rebuilt on its AST anyway.
 * This scanner is a single linear pass with no recursion, so hostile input cannot blow the stack.
 */

/** Attributes of one `[ … ]` block; later keys of the same block overwrite earlier ones. */
export type DotAttributes = ReadonlyMap<string, string>;

/** A node statement: an id with an attribute block. */
export interface DotNode {
  readonly id: string;
  readonly attributes: DotAttributes;
}

/** What the dashboard needs from a pipeline file. Edges are checked for syntax but not kept. */
export interface DotGraph {
  /** The `digraph` id (quoted or bare); empty when the graph is anonymous. */
  readonly name: string;
  /** Merged `graph [ … ]` blocks only: bare `key=value` statements are ignored, like upstream. */
  readonly attributes: DotAttributes;
  /** `node [ … ]` defaults, kept for callers but never merged into nodes (upstream quirk). */
  readonly nodeDefaults: DotAttributes;
  /** `edge [ … ]` defaults. */
  readonly edgeDefaults: DotAttributes;
  /** Nodes in first-seen order; a node counts only with an attribute block, and its first block wins. */
  readonly nodes: readonly DotNode[];
}

/** Why a `.dot` file could not be read. `line` is 1-based. */
export type DotParseError =
  | { readonly kind: 'too-large'; readonly chars: number; readonly limit: number }
  | { readonly kind: 'not-a-digraph'; readonly line: number }
  | { readonly kind: 'expected-brace'; readonly line: number }
  | { readonly kind: 'unterminated-string'; readonly line: number }
  | { readonly kind: 'unterminated-comment'; readonly line: number }
  | { readonly kind: 'unterminated-attributes'; readonly line: number }
  | { readonly kind: 'unterminated-graph'; readonly line: number };

/** Options of {@link parseDot}. */
export interface ParseDotOptions {
  /** Larger inputs are a `too-large` error (default {@link DEFAULT_MAX_DOT_CHARS}). */
  readonly maxChars?: number;
}

/** Default size limit of a pipeline file: real pipelines are a few kilobytes. */
export const DEFAULT_MAX_DOT_CHARS = 2_000_000;

/** Renders a parse error as one line. */
export function describeDotParseError(error: DotParseError): string {
  switch (error.kind) {
    case 'too-large':
      return `file too large (${error.chars} characters, limit ${error.limit})`;
    case 'not-a-digraph':
      return `line ${error.line}: expected 'digraph'`;
    case 'expected-brace':
      return `line ${error.line}: expected '{' after the graph id`;
    case 'unterminated-string':
      return `line ${error.line}: unterminated quoted string`;
    case 'unterminated-comment':
      return `line ${error.line}: unterminated /* comment`;
    case 'unterminated-attributes':
      return `line ${error.line}: unterminated [ attribute block`;
    case 'unterminated-graph':
      return `line ${error.line}: missing closing '}'`;
  }
}

// Python's `\w` on str: letters, digits/numerics and underscore.
const WORD = /[\p{L}\p{N}_]+/uy;
// Upstream treats these ids as statements, never as nodes (case-sensitive, like its regex).
const RESERVED = new Set(['graph', 'node', 'edge', 'subgraph', 'digraph']);

type ErrorKind = Exclude<DotParseError['kind'], 'too-large'>;

/** Internal signal carrying a typed error out of the scanning loop; never escapes {@link parseDot}. */
class DotSyntaxSignal extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly at: number,
  ) {
    super(kind);
  }
}

type Token = { readonly type: 'id'; readonly value: string } | { readonly type: 'edge-op' } | { readonly type: 'other' };

const OTHER: Token = { type: 'other' };

/**
 * Parses a pipeline file. Never throws: malformed or hostile text is a typed error.
 * Line endings are normalised first (Python reads files with universal newlines).
 */
export function parseDot(source: string, options: ParseDotOptions = {}): Result<DotGraph, DotParseError> {
  const limit = options.maxChars ?? DEFAULT_MAX_DOT_CHARS;
  if (source.length > limit) return err({ kind: 'too-large', chars: source.length, limit });
  const text = source.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  try {
    return ok(new DotReader(text).read());
  } catch (caught) {
    if (caught instanceof DotSyntaxSignal) return err({ kind: caught.kind, line: lineAt(text, caught.at) });
    throw caught;
  }
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line += 1;
  return line;
}

class DotReader {
  private pos = 0;

  constructor(private readonly text: string) {}

  read(): DotGraph {
    this.skipTrivia();
    let keyword = this.readWord();
    if (keyword === 'strict') {
      this.skipTrivia();
      keyword = this.readWord();
    }
    if (keyword !== 'digraph') throw new DotSyntaxSignal('not-a-digraph', this.pos);
    this.skipTrivia();
    let name = '';
    if (this.peek() === '"') name = this.readQuoted();
    else name = this.readWord() ?? '';
    this.skipTrivia();
    if (this.peek() !== '{') throw new DotSyntaxSignal('expected-brace', this.pos);
    const open = this.pos;
    this.pos += 1;
    return this.readBody(name, open);
  }

  private readBody(name: string, open: number): DotGraph {
    const attributes = new Map<string, string>();
    const nodeDefaults = new Map<string, string>();
    const edgeDefaults = new Map<string, string>();
    const nodes: DotNode[] = [];
    const seen = new Set<string>();
    let depth = 1;
    // The two previous significant tokens decide who owns an attribute block.
    let prev: Token = OTHER;
    let prevPrev: Token = OTHER;
    const push = (token: Token): void => {
      prevPrev = prev;
      prev = token;
    };

    for (;;) {
      this.skipTrivia();
      const c = this.peek();
      if (c === undefined) throw new DotSyntaxSignal('unterminated-graph', open);
      if (c === '}') {
        this.pos += 1;
        depth -= 1;
        if (depth === 0) break;
        push(OTHER);
      } else if (c === '{') {
        this.pos += 1;
        depth += 1;
        push(OTHER);
      } else if (c === '[') {
        const block = this.readAttributeBlock();
        if (prev.type === 'id') {
          const id = prev.value;
          if (id === 'graph') for (const [k, v] of block) attributes.set(k, v);
          else if (id === 'node') for (const [k, v] of block) nodeDefaults.set(k, v);
          else if (id === 'edge') for (const [k, v] of block) edgeDefaults.set(k, v);
          else if (!RESERVED.has(id) && prevPrev.type !== 'edge-op' && !seen.has(id)) {
            seen.add(id);
            nodes.push({ id, attributes: block });
          }
        }
        push(OTHER);
      } else if (c === '"') {
        this.readQuoted();
        push(OTHER);
      } else if (c === '-' && (this.text[this.pos + 1] === '>' || this.text[this.pos + 1] === '-')) {
        this.pos += 2;
        push({ type: 'edge-op' });
      } else if (c === '=') {
        // A bare `key = value` statement: consumed so its value is never taken for a node id.
        this.pos += 1;
        this.skipTrivia();
        this.readValue('{}[');
        push(OTHER);
      } else {
        const word = this.readWord();
        if (word === undefined) {
          this.pos += 1;
          push(OTHER);
        } else {
          push({ type: 'id', value: word });
        }
      }
    }
    return { name, attributes, nodeDefaults, edgeDefaults, nodes };
  }

  /** Reads `[ … ]` starting at `[`: `key = value` pairs separated by commas, semicolons or whitespace. */
  private readAttributeBlock(): Map<string, string> {
    const open = this.pos;
    this.pos += 1;
    const block = new Map<string, string>();
    for (;;) {
      this.skipTrivia();
      const c = this.peek();
      if (c === undefined) throw new DotSyntaxSignal('unterminated-attributes', open);
      if (c === ']') {
        this.pos += 1;
        return block;
      }
      if (c === '"') {
        this.readQuoted();
        continue;
      }
      const key = this.readWord();
      if (key === undefined) {
        // Stray punctuation: skipped one character at a time, as upstream does.
        this.pos += 1;
        continue;
      }
      this.skipTrivia();
      if (this.peek() !== '=') continue;
      this.pos += 1;
      this.skipTrivia();
      const value = this.readValue('');
      if (value !== undefined) block.set(key, value);
    }
  }

  /** A quoted or bare value; bare values end at whitespace, `,`, `;`, `]`, a comment or `extraStops`. */
  private readValue(extraStops: string): string | undefined {
    if (this.peek() === '"') return this.readQuoted();
    const start = this.pos;
    const text = this.text;
    while (this.pos < text.length) {
      const c = text[this.pos] as string;
      if (/\s/.test(c) || c === ',' || c === ';' || c === ']' || extraStops.includes(c)) break;
      if (c === '/' && (text[this.pos + 1] === '/' || text[this.pos + 1] === '*')) break;
      this.pos += 1;
    }
    return this.pos > start ? text.slice(start, this.pos) : undefined;
  }

  /** Reads a quoted string at `"`: `\"` → `"`, `\\` → `\`, any other escape stays two characters. */
  private readQuoted(): string {
    const text = this.text;
    const open = this.pos;
    let i = open + 1;
    const parts: string[] = [];
    for (;;) {
      const quote = text.indexOf('"', i);
      const slash = text.indexOf('\\', i);
      if (quote === -1) throw new DotSyntaxSignal('unterminated-string', open);
      if (slash !== -1 && slash < quote) {
        parts.push(text.slice(i, slash));
        const next = text[slash + 1];
        if (next === undefined) throw new DotSyntaxSignal('unterminated-string', open);
        parts.push(next === '"' || next === '\\' ? next : `\\${next}`);
        i = slash + 2;
        continue;
      }
      parts.push(text.slice(i, quote));
      this.pos = quote + 1;
      return parts.join('');
    }
  }

  private readWord(): string | undefined {
    WORD.lastIndex = this.pos;
    const match = WORD.exec(this.text);
    if (match === null) return undefined;
    this.pos += match[0].length;
    return match[0];
  }

  private peek(): string | undefined {
    return this.text[this.pos];
  }

  /** Skips whitespace, `// …` line comments and `/* … *\/` block comments. */
  private skipTrivia(): void {
    const text = this.text;
    while (this.pos < text.length) {
      const c = text[this.pos] as string;
      if (c === '/' && text[this.pos + 1] === '/') {
        const end = text.indexOf('\n', this.pos);
        this.pos = end === -1 ? text.length : end + 1;
      } else if (c === '/' && text[this.pos + 1] === '*') {
        const end = text.indexOf('*/', this.pos + 2);
        if (end === -1) throw new DotSyntaxSignal('unterminated-comment', this.pos);
        this.pos = end + 2;
      } else if (/\s/.test(c)) {
        this.pos += 1;
      } else {
        return;
      }
    }
  }
}
