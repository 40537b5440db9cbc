/**
 * Process checks for tests that must prove "no process left behind". A killed orphan can stay a
 * zombie until its reaper runs (in containers pid 1 may never reap), so a zombie counts as dead.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** True when `pid` is a live (not zombie) process. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/**
 * Live (non-zombie) processes, this one aside, whose command line contains `text` (a test's unique
 * temp directory): what a test started and must not leave behind, grandchildren included.
 */
export function processesMentioning(text: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    let cmdline: string;
    try {
      cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (cmdline.includes(text) && isAlive(Number(entry))) found.push(Number(entry));
  }
  return found;
}

/** Live (non-zombie) members of process group `pgid`, as `ps` lists them. */
export function groupMembers(pgid: number): number[] {
  const out = execFileSync('ps', ['-e', '-o', 'pid=,pgid=,stat='], { encoding: 'utf8' });
  return out
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([, group, stat]) => Number(group) === pgid && stat !== undefined && !stat.startsWith('Z'))
    .map(([pid]) => Number(pid));
}

/**
 * Polls until `check` holds. Not a timing assertion: the limit only turns a hang into a
 * failure before vitest's 300 s backstop does, so it is as long as a 2-core machine at
 * load 10+ could ever need (30 s was not, issue 13 item 2).
 */
export async function eventually(check: () => boolean, limitMs = 240_000): Promise<boolean> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    if (check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
