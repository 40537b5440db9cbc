// The installed bin's runbook commands over the sample `runbook init` writes: its Watch Item is
// checked on 10-27 and its Active Blocker says DELETE 11-03, so the dates below see them due,
// past and prunable. Every run has --now and --tz, so the answers do not depend on today.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Checks, parseJson } from './report.mjs';

const WRITTEN = '2026-10-20T10:00:00Z';
const CHECK_DAY = '2026-10-27T10:00:00Z';
const AFTER_DELETE = '2026-11-04T10:00:00Z';

/** runbook init, check, due, prune (plan and --write), tick, quiet, boot-triage and gate-report. */
export async function runbookCommands(ctx) {
  const checks = new Checks();
  const dir = join(ctx.work, 'runbook');
  mkdirSync(dir);
  const rb = (sub, now, ...args) => ctx.hk(['runbook', sub, ...args, '--now', now, '--tz', 'UTC'], { cwd: dir });
  const files = ['--runbook', 'runbook.md', '--status', 'runbook-status.json'];

  checks.run('runbook init: a sample runbook and status file', await rb('init', WRITTEN, '.'), 0, (r) =>
    /^wrote \S*runbook\.md\nwrote \S*runbook-status\.json\n/.test(r.stdout) ? '' : 'no "wrote runbook.md" and "wrote runbook-status.json"',
  );
  const [again, check, due, tick, quiet, notQuiet, boot] = await Promise.all([
    rb('init', WRITTEN, '.'),
    rb('check', WRITTEN, 'runbook.md'),
    rb('due', CHECK_DAY, 'runbook.md'),
    rb('tick', WRITTEN, ...files),
    rb('quiet', WRITTEN, ...files),
    rb('quiet', CHECK_DAY, ...files),
    rb('boot-triage', WRITTEN, '--status', 'runbook-status.json'),
  ]);
  checks.run('runbook init again: the files exist, nothing written (exit 1)', again, 1);
  checks.run('runbook check: the sample is accepted', check, 0, (r) =>
    /^runbook\.md: accepted \(2 tracked item\(s\), 0 error\(s\)/m.test(r.stdout) ? '' : 'not "accepted (2 tracked item(s), 0 error(s)"',
  );
  checks.run('runbook due on the check day: the Watch Item', due, 0, (r) =>
    /^runbook\.md:\d+: check-today 10-27: /m.test(r.stdout) ? '' : 'no "check-today 10-27" line',
  );
  checks.run('runbook tick: creates the checklist task', tick, 0, (r) =>
    r.stdout.startsWith('create heartbeat-checklist for lead ') && r.stdout.includes('## Runbook snapshot') ? '' : 'no checklist task',
  );
  checks.run('runbook quiet the day it was written: quiet (exit 0)', quiet, 0, (r) =>
    /^Quiet\. Same as \S+: /.test(r.stdout) ? '' : 'no "Quiet. Same as …" line',
  );
  checks.run('runbook quiet on the check day: not quiet (exit 1)', notQuiet, 1, (r) =>
    /^not quiet: .*tracked-item-due/.test(r.stdout) ? '' : 'no "not quiet: … tracked-item-due" line',
  );
  checks.run('runbook boot-triage: decided', boot, 0, (r) => (/^(create|skip)\b/.test(r.stdout) ? '' : 'neither create nor skip'));

  checks.run('runbook prune after DELETE 11-03: plans the removal', await rb('prune', AFTER_DELETE, 'runbook.md', '--json'), 0, (r) => {
    const plan = parseJson(r.stdout);
    return plan?.written === false && plan.entries?.some((e) => e.action === 'remove' && e.reason === 'delete-date-past')
      ? ''
      : 'no unwritten plan removing a delete-date-past item';
  });
  checks.run('runbook prune --write: removes it from the file', await rb('prune', AFTER_DELETE, 'runbook.md', '--write'), 0, () =>
    readFileSync(join(dir, 'runbook.md'), 'utf8').includes('DELETE 11-03') ? 'runbook.md still holds the DELETE 11-03 item' : '',
  );

  writeFileSync(join(dir, 'gate.jsonl'), '{"taskId": "t1", "verdict": "quiet"}\n{"taskId": "t1", "outcome": "quiet"}\n');
  checks.run('runbook gate-report LOG', await rb('gate-report', WRITTEN, 'gate.jsonl', '--json'), 0, (r) =>
    parseJson(r.stdout)?.compared === 1 ? '' : 'not {"compared": 1}',
  );
  return checks;
}
