import { readdir, readFile, stat } from 'node:fs/promises';
import type { PipelineFiles } from '../pipelines/pipeline-scanner.js';

/** Options of {@link createNodePipelineFiles}. */
export interface NodePipelineFilesOptions {
  /** Files larger than this are refused before they are read (default 2 MB). */
  readonly maxBytes?: number;
}

function hasCode(caught: unknown, ...codes: string[]): boolean {
  return typeof caught === 'object' && caught !== null && 'code' in caught && codes.includes(String(caught.code));
}

/**
 * The Node `fs` implementation of {@link PipelineFiles}: a missing directory lists as empty (no
 * pipelines is not an error), only regular files (or links to them) are listed, and oversized files
 * are refused by size so a hostile file is never loaded into memory.
 */
export function createNodePipelineFiles(options: NodePipelineFilesOptions = {}): PipelineFiles {
  const maxBytes = options.maxBytes ?? 2_000_000;
  return {
    list: async (dir) => {
      try {
        const entries = await readdir(dir, { withFileTypes: true });
        return entries.filter((e) => e.isFile() || e.isSymbolicLink()).map((e) => e.name);
      } catch (caught) {
        if (hasCode(caught, 'ENOENT', 'ENOTDIR')) return [];
        throw caught;
      }
    },
    read: async (path) => {
      const info = await stat(path);
      if (!info.isFile()) throw new Error('not a regular file');
      if (info.size > maxBytes) throw new Error(`file too large (${info.size} bytes, limit ${maxBytes})`);
      return readFile(path, 'utf8');
    },
  };
}
