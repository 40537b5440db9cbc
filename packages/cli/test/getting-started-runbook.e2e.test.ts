/**
 * Runs the runbook section of docs/getting-started.md as written: every line of its sh block in a
 * fresh temp directory, then checks that the outputs the page quotes are what the commands print.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from './support/cli-world.js';
import { runCli, type CliRun } from './support/run-cli.js';

const tempDir = useTempDirs();
const DOC = fileURLToPath(new URL('../../../docs/getting-started.md', import.meta.url));

/** The section from its anchor through its own heading, up to the next anchor, `## ` heading or "Next:" line. */
function runbookSection(doc: string): string {
  const start = doc.indexOf('<a id="runbook-first-tick"></a>');
  expect(start, 'docs/getting-started.md has the runbook section anchor').toBeGreaterThanOrEqual(0);
  const body = doc.indexOf('\n', doc.indexOf('\n## ', start) + 1);
  const [rest = ''] = doc.slice(body).split(/\n(?=<a id=|## |Next: )/);
  return doc.slice(start, body) + rest;
}

describe('docs/getting-started.md: runbook from an empty directory to a first tick', () => {
  it('every step runs, and the page quotes what the commands print', async () => {
    const section = runbookSection(await readFile(DOC, 'utf8'));
    const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
    expect(block).toBeDefined();
    let cwd = tempDir('hb-getting-started-runbook-');
    const env = { PATH: process.env.PATH, TZ: 'UTC' };
    const runs: { argv: readonly string[]; run: CliRun }[] = [];
    for (const raw of (block ?? '').split('\n')) {
      const line = raw.replace(/\s+#.*$/, '').trim();
      if (line === '') continue;
      const mkdirCd = /^mkdir (\S+) && cd \1$/.exec(line);
      if (mkdirCd?.[1] !== undefined) {
        cwd = join(cwd, mkdirCd[1]);
        await mkdir(cwd);
        continue;
      }
      // A step this test cannot run must fail it, so the page cannot drift from what is tested.
      expect(line, 'every step is a heartbeat-kit command').toMatch(/^npx heartbeat-kit /);
      const argv = line.replace(/^npx heartbeat-kit /, '').split(/\s+/);
      const run = await runCli(argv, { cwd, env });
      expect({ argv, code: run.code, stderr: run.stderr }).toEqual({ argv, code: 0, stderr: '' });
      runs.push({ argv, run });
    }
    const out = (sub: string): string => runs.find((r) => r.argv[1] === sub)?.run.stdout ?? '';
    expect(runs.map((r) => r.argv[1])).toEqual(['init', 'check', 'due', 'tick', 'quiet']);
    const firstLine = (text: string): string => text.split('\n')[0] ?? '';
    expect(section).toContain(`\`${firstLine(out('check'))}\``);
    expect(firstLine(out('tick'))).toBe('create heartbeat-checklist for lead [checklist, auto-generated] priority 60');
    expect(section).toContain(`\`${firstLine(out('tick'))}\``);
    expect(section).toContain(`\`${firstLine(out('quiet'))}\``);
    expect(out('due')).toMatch(/^runbook\.md: nothing due/);

    // "Change the Watch Item's (check MM-DD) to a day that has passed and run quiet again".
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(5, 10);
    const runbook = await readFile(join(cwd, 'runbook.md'), 'utf8');
    expect(runbook).toMatch(/\(check \d{2}-\d{2}\)/);
    await writeFile(join(cwd, 'runbook.md'), runbook.replace(/\(check \d{2}-\d{2}\)/, `(check ${yesterday})`));
    const again = await runCli(['runbook', 'quiet', '--runbook', 'runbook.md', '--status', 'runbook-status.json'], { cwd, env });
    expect(again.code).toBe(1);
    expect(again.stdout).toMatch(/^not quiet: tracked-item-due\n/);
    expect(section).toContain('exits 1 with `not quiet: tracked-item-due`');
  });
});
