/** One field of a GraphQL selection set: its response key and the fields selected under it. */
export interface SelectedField {
  readonly key: string;
  readonly children: readonly SelectedField[];
  /** Selected by an inline fragment (`...on User{…}`): absent when the object is another type. */
  readonly optional?: boolean;
}

/**
 * Parses the first operation's selection set of a GraphQL document (aliases, arguments skipped,
 * inline fragments and named fragment spreads flattened). Just enough GraphQL for the queries gh
 * sends, so the double answers exactly the fields asked: gh's decoder rejects any extra field.
 */
export function parseSelection(document: string): SelectedField[] {
  const tokens: string[] =
    document.match(/\.\.\.|"(?:[^"\\]|\\.)*"|[A-Za-z_][A-Za-z0-9_]*|\$[A-Za-z_][A-Za-z0-9_]*|-?\d+(?:\.\d+)?|[{}():,!=[\]@]/g) ?? [];
  const fragments = new Map<string, number>();
  for (let i = 0; i < tokens.length; i += 1) if (tokens[i] === 'fragment') fragments.set(tokens[i + 1]!, tokens.indexOf('{', i));
  const operation = tokens.findIndex((t, i) => (t === 'query' || t === 'mutation') && (i === 0 || tokens[i - 1] !== 'on'));
  const skipParens = (i: number): number => {
    let depth = 0;
    do {
      if (tokens[i] === '(') depth += 1;
      else if (tokens[i] === ')') depth -= 1;
      i += 1;
    } while (depth > 0 && i < tokens.length);
    return i;
  };
  // Reads the set opening at `start` (a `{`); returns its fields and the index after its `}`.
  const readSet = (start: number): [SelectedField[], number] => {
    const fields: SelectedField[] = [];
    let i = start + 1;
    while (i < tokens.length && tokens[i] !== '}') {
      const t = tokens[i]!;
      if (t === ',') i += 1;
      else if (t === '...') {
        if (tokens[i + 1] === 'on') {
          const [inner, next] = readSet(i + 3);
          for (const f of inner) if (!fields.some((e) => e.key === f.key)) fields.push({ ...f, optional: true });
          i = next;
        } else {
          const at = fragments.get(tokens[i + 1]!);
          if (at === undefined) throw new Error(`unknown fragment ${tokens[i + 1]}`);
          fields.push(...readSet(at)[0]);
          i += 2;
        }
      } else {
        // `alias: field` answers under the alias; the field name itself does not matter here.
        const key = t;
        i += 1;
        if (tokens[i] === ':') i += 2;
        if (tokens[i] === '(') i = skipParens(i);
        let children: SelectedField[] = [];
        if (tokens[i] === '{') [children, i] = readSet(i);
        const existing = fields.findIndex((f) => f.key === key);
        if (existing >= 0)
          children = [...fields[existing]!.children, ...children.filter((c) => !fields[existing]!.children.some((e) => e.key === c.key))];
        if (existing >= 0) fields.splice(existing, 1);
        fields.push({ key, children });
      }
    }
    return [fields, i + 1];
  };
  const open = tokens.indexOf('{', operation < 0 ? 0 : operation);
  if (open < 0) return [];
  // Variable definitions hold no `{`, so the first `{` after the operation opens its set.
  return readSet(open)[0];
}

/**
 * Projects `value` onto `selection`: only the selected keys, in selection order. A selected key
 * the double's data lacks throws, so a query we never recorded fails the test instead of getting
 * a guessed `null`.
 */
export function project(value: unknown, selection: readonly SelectedField[], path = ''): unknown {
  if (selection.length === 0 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v, n) => project(v, selection, `${path}[${n}]`));
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const field of selection) {
    if (!(field.key in source)) {
      if (field.optional === true) continue;
      throw new Error(`the double has no value for ${path}.${field.key}`);
    }
    out[field.key] = project(source[field.key], field.children, `${path}.${field.key}`);
  }
  return out;
}
