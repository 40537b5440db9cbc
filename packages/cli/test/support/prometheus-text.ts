// Reading what the metrics flags export, for the metrics tests: the real `promtool check metrics`
// (Debian package `prometheus`, installed by .ci/run) and the samples of an exposition text.
import { spawnSync } from 'node:child_process';

/** `promtool check metrics` on `text`: its exit code and everything it said. */
export function promtool(text: string): { code: number | null; output: string } {
  const run = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
  if (run.error) throw run.error;
  return { code: run.status, output: `${run.stdout}${run.stderr}` };
}

/** The samples of an exposition text: `name{labels}` → value. */
export function samples(text: string): Map<string, number> {
  const map = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    map.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return map;
}

/** Polls until `check` returns a value, however long a loaded machine takes (the test timeout is the backstop). */
export async function until<T>(check: () => T | undefined | Promise<T | undefined>): Promise<T> {
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}
