#!/usr/bin/env node
// A heartbeat check (HEARTBEAT.md "## Checks"): the latest finished CI run on a branch failed.
//   - run: [node, examples/checks/ci-failed.mjs, main]
// Quiet when it passed (or nothing finished yet); one JSON line when it failed, whose content is
// the run id, so the same failed run is deduplicated and a new failure is reported at once.
// gh failing (not logged in, no network) exits 1: a scanner problem the heartbeat says out loud.
import { execFileSync } from 'node:child_process';

const branch = process.argv[2] ?? 'main';
let runs;
try {
  const out = execFileSync(
    'gh',
    ['run', 'list', '--branch', branch, '--limit', '10', '--json', 'databaseId,status,conclusion,displayTitle,url'],
    {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  runs = JSON.parse(out);
} catch (error) {
  process.stderr.write(`gh run list failed: ${String(error.stderr ?? error.message).split('\n')[0]}\n`);
  process.exit(1);
}
const latest = runs.find((run) => run.status === 'completed');
if (latest !== undefined && ['failure', 'timed_out', 'startup_failure'].includes(latest.conclusion)) {
  process.stdout.write(
    `${JSON.stringify({
      subject: branch,
      line: `CI ${latest.conclusion} on ${branch}: ${latest.displayTitle} (${latest.url})`,
      short: `CI red on ${branch}`,
      action: `Open ${latest.url} and fix ${branch}`,
      content: latest.databaseId,
    })}\n`,
  );
}
