import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);
import { it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { startRealGhWorld, emptyRepo, REAL_GH } from '../support/real-gh.js';

it('records', async () => {
  const w = await startRealGhWorld(emptyRepo({
    labels: [{ name: 'backend', color: '1d76db', description: '' }, { name: 'agent-working', color: 'ededed', description: '' }],
    issues: [{ number: 5, id: 3000000005, title: 'T5', body: 'B', state: 'OPEN', labels: ['backend'], assignees: ['octocat'], comments: [{ id: 1, author: 'boss', body: 'hi', createdAt: '2026-07-21T09:00:00Z' }], subIssues: [], createdAt: '2026-07-01T00:00:00Z' },
             { number: 6, id: 3000000006, title: 'T6', body: 'B', state: 'OPEN', labels: [], assignees: ['octocat'], comments: [], subIssues: [], createdAt: '2026-07-01T00:00:00Z' }],
    pulls: [{ number: 12, state: 'MERGED', mergedAt: '2026-07-20T00:00:00Z' }],
  }));
  const fault = process.env.FAULT; const cmds = require('node:fs').readFileSync('/tmp/i31/cmds','utf8').trim().split('\n');
  let out = ''; if (fault) w.double.fault(fault as never);
  for (const c of cmds) {
    const args = JSON.parse(c) as string[];
    const before = w.double.requests.length;
    const r = await w.runner.run({ file: REAL_GH, args, profile: 'gh', input: 'body from stdin' });
    const o = r._unsafeUnwrap();
    out += `=== ${args.join(' ')} -> ${o.exitCode}\nSTDOUT: ${o.stdout}\nSTDERR: ${o.stderr}\n`;
    for (const q of w.double.requests.slice(before)) out += `  ${q.method} ${q.path} ${q.operation ?? ''} ${q.status} ${JSON.stringify(q.variables ?? q.body ?? '')}\n`;
  }
  out += require('node:fs').readdirSync(w.env.GH_CONFIG_DIR).join(',') + '\n' + (require('node:fs').existsSync(w.env.GH_CONFIG_DIR + '/hosts.yml') ? require('node:fs').readFileSync(w.env.GH_CONFIG_DIR + '/hosts.yml', 'utf8') : '');
  out += `UNKNOWN:\n${w.double.unknown.join('\n')}\n`;
  writeFileSync('/tmp/i31/record.txt', out);
  await w.close();
});
