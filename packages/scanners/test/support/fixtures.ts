import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../fixtures/', import.meta.url));

/** Reads a copied fixture as UTF-8 (bytes kept: NULs, trailing newlines). */
export function fixture(tool: 'beads' | 'tmux' | 'git' | 'gchat', name: string): string {
  return readFileSync(`${root}${tool}/${name}`, 'utf8');
}
