/**
 * Bundles a fleet child script with core's bundler. bullmq and ioredis stay external and resolve
 * from this package's node_modules, which is why the bundle is written under it.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { bundleChild as bundleWithCore, type BundledChild } from '../../../core/test/support/bundle-child.js';

export type { BundledChild };

/** Bundles `entry` (absolute path of a .ts file) under packages/bullmq/node_modules/.cache. */
export async function bundleChild(entry: string): Promise<BundledChild> {
  const parentDir = fileURLToPath(new URL('../../node_modules/.cache', import.meta.url));
  mkdirSync(parentDir, { recursive: true });
  return bundleWithCore(entry, { external: ['bullmq', 'ioredis'], parentDir });
}
