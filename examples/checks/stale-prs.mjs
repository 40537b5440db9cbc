#!/usr/bin/env node
// A heartbeat check (HEARTBEAT.md "## Checks"): pull requests waiting for review longer than N days.
//   - run: [node, examples/checks/stale-prs.mjs, "2"]
// One JSON line per stale pull request (subject #N, so each is deduplicated on its own); quiet
// when none waits. gh failing exits 1: a scanner problem the heartbeat says out loud.
import { execFileSync } from 'node:child_process';

const days = Number(process.argv[2] ?? '2');
let prs;
try {
  const out = execFileSync('gh', ['pr', 'list', '--search', 'review:required draft:false', '--json', 'number,title,url,createdAt,author'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  prs = JSON.parse(out);
} catch (error) {
  process.stderr.write(`gh pr list failed: ${String(error.stderr ?? error.message).split('\n')[0]}\n`);
  process.exit(1);
}
const cutoff = Date.now() - days * 86_400_000;
for (const pr of prs) {
  if (Date.parse(pr.createdAt) > cutoff) continue;
  const waited = Math.floor((Date.now() - Date.parse(pr.createdAt)) / 86_400_000);
  process.stdout.write(
    `${JSON.stringify({
      subject: `#${pr.number}`,
      line: `PR #${pr.number} "${pr.title}" by ${pr.author?.login ?? 'someone'} waits for review (${waited} days): ${pr.url}`,
      short: `PR #${pr.number} waits`,
      action: `Review ${pr.url}`,
      content: pr.number,
    })}\n`,
  );
}
