/** A value of an XML property list (the subset launchd agents use). */
export type PlistValue = string | number | boolean | PlistValue[] | { [key: string]: PlistValue };

function unescapeXml(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&amp;/g, '&');
}

/**
 * Parses an XML plist the way `plutil -convert json` would (plutil is macOS-only): the prolog,
 * comments and doctype skipped, then one value. Throws on anything it does not understand, so a
 * malformed plist fails the test that reads it.
 */
export function parsePlist(xml: string): PlistValue {
  const body = xml
    .replace(/^<\?xml[^>]*\?>/, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<!DOCTYPE[^>]*>/, '')
    .trim();
  const tokens = body.match(/<[^>]+>|[^<]+/g) ?? [];
  let i = 0;
  const next = (): string => {
    while (i < tokens.length && (tokens[i] as string).trim() === '') i++;
    const token = tokens[i++];
    if (token === undefined) throw new Error('plist ends early');
    return token;
  };
  const expect = (tag: string) => {
    const token = next();
    if (token !== tag) throw new Error(`expected ${tag}, got ${token}`);
  };
  // Text between tags, whitespace kept (a string's spaces are its value).
  const text = (close: string): string => {
    const token = tokens[i];
    if (token === close) {
      i++;
      return '';
    }
    i++;
    expect(close);
    if (token === undefined || token.startsWith('<')) throw new Error(`expected text before ${close}`);
    return unescapeXml(token);
  };
  const value = (): PlistValue => {
    const open = next();
    switch (open) {
      case '<string>':
        return text('</string>');
      case '<integer>':
        return Number(text('</integer>'));
      case '<true/>':
        return true;
      case '<false/>':
        return false;
      case '<array>': {
        const items: PlistValue[] = [];
        for (;;) {
          const save = i;
          if (next() === '</array>') return items;
          i = save;
          items.push(value());
        }
      }
      case '<dict>': {
        const dict: Record<string, PlistValue> = {};
        for (;;) {
          const token = next();
          if (token === '</dict>') return dict;
          if (token !== '<key>') throw new Error(`expected <key>, got ${token}`);
          const key = text('</key>');
          if (Object.hasOwn(dict, key)) throw new Error(`duplicate key ${key}`);
          dict[key] = value();
        }
      }
      default:
        throw new Error(`unexpected ${open}`);
    }
  };
  expect('<plist version="1.0">');
  const root = value();
  expect('</plist>');
  if (tokens.slice(i).some((t) => t.trim() !== '')) throw new Error('text after </plist>');
  return root;
}
