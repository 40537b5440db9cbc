import { readdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** What the git scanner must not count as the user's work: the heartbeat's own files beside the state. */
export interface OwnStateFiles {
  /** Directories ignored whole (with everything inside). */
  readonly paths: readonly string[];
  /** Path prefixes of single files and directories of the heartbeat in a directory it shares. */
  readonly prefixes: readonly string[];
}

/**
 * The heartbeat's own files beside `statePath`: the state, its receipts, reply inbox, acks, GChat spools,
 * set-aside `.corrupt-…` copies, the operator's pause, atomic-write temporaries and the cycle lock with its take-over guards.
 * The state's directory is ignored whole only when it holds nothing else (a `.heartbeat/` of its own,
 * which git lists as one untracked `dir/`): a state kept in the repository root or the home
 * directory (`--state ~/hb.json`) must not hide the user's changes beside it, which it did.
 */
export async function ownStateFiles(statePath: string): Promise<OwnStateFiles> {
  const dir = dirname(statePath);
  const base = basename(statePath);
  const stem = base.replace(/\.json$/i, '');
  const prefixes = [
    `${base}.corrupt-`,
    `.${base}.`,
    `${stem}.receipts`,
    `${stem}.inbox.json`,
    `.${stem}.inbox.json.`,
    `${stem}.acks.json`,
    `.${stem}.acks.json.`,
    `${stem}.gchat-spool`,
    `${stem}.pause.json`,
    `.${stem}.pause.json.`,
    'cycle.lock',
    '.cycle.lock.',
  ];
  const ours = (name: string): boolean => name === base || prefixes.some((prefix) => name.startsWith(prefix));
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    names = []; // not made yet: nothing of the user's is in it either
  }
  if (names.every(ours)) return { paths: [dir], prefixes: [] };
  // `prefix` ends mid-name on purpose; the state itself is listed exactly (`hb.json` is not `hb.json5`).
  return { paths: [statePath], prefixes: prefixes.map((prefix) => join(dir, prefix)) };
}
