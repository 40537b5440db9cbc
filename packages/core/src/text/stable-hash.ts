import type { JsonValue } from '../domain/json.js';

// cyrb53: a small, well-mixed 53-bit string hash. Pure code cannot use node:crypto, and ids and
// content hashes need stability and spread, not cryptographic strength.
function cyrb53(text: string, seed: number): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** 28 hex digits (two seeded 53-bit cyrb53 hashes) of `text`; the same text always gives the same digits. */
export function stableHash(text: string): string {
  return `${cyrb53(text, 1).toString(16).padStart(14, '0')}${cyrb53(text, 2).toString(16).padStart(14, '0')}`;
}

/** JSON with object keys sorted at every level, so equal values give equal text whatever their key order. */
export function canonicalJson(value: JsonValue): string {
  if (Array.isArray(value)) return `[${value.map((item: JsonValue) => canonicalJson(item)).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const object = value as { readonly [key: string]: JsonValue };
    return `{${Object.keys(object)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(object[key] as JsonValue)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}
