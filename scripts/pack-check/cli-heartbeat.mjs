// One real run of each heartbeat command of the installed bin, over fresh git repositories with
// one commit: cycle (text, and --json --record), replay of that record, history, check-liveness,
// plan, init, loop (one cycle, then SIGINT), and fleet without @heartbeat-kit/bullmq. Exit codes
// are checked exactly (each command's --help "Exit codes:"); stdout loosely but meaningfully.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Checks, parseJson } from './report.mjs';

const lines = (text) => text.split('\n').filter((l) => l !== '');
const jsonLines = (text) => lines(text).map(parseJson);

/** cycle, replay, history, check-liveness, plan and init, in the order a user meets them, in one repository. */
export async function heartbeatCommands(ctx) {
  const checks = new Checks();
  const repo = await ctx.newRepo('heartbeat');
  const hk = (...args) => ctx.hk(args);
  const at = ['--cwd', repo];
  const tmux = ['--tmux-socket', ctx.tmuxSocket];
  const record = join(repo, '..', 'heartbeat.cycles.jsonl');

  const [neverRan, noReceipts] = await Promise.all([hk('check-liveness', ...at), hk('history', ...at, '--json')]);
  checks.run('check-liveness before any cycle: not alive (exit 1, never-ran)', neverRan, 1, (r) =>
    /^not alive \(never-ran\)/.test(r.stdout) ? '' : 'no "not alive (never-ran)" line',
  );
  checks.run('history before any cycle: no receipts (exit 0)', noReceipts, 0, (r) =>
    parseJson(r.stdout)?.receipts?.length === 0 ? '' : 'not {"receipts": []}',
  );

  checks.run('cycle --cwd <fresh repo>', await hk('cycle', ...at, ...tmux), 0, (r) =>
    r.stdout === 'HEARTBEAT_OK\n' || r.stdout.startsWith('WORK_FOUND: ')
      ? ''
      : 'stdout is neither exactly HEARTBEAT_OK nor a WORK_FOUND message',
  );
  checks.run('cycle --json --record FILE', await hk('cycle', ...at, ...tmux, '--json', '--record', record), 0, (r) => {
    const cycle = parseJson(r.stdout);
    if (cycle === undefined) return 'stdout is not one JSON object';
    if (cycle.cycle !== 2 || !['ok', 'report'].includes(cycle.status) || !Array.isArray(cycle.scanners)) {
      return `not cycle 2's result: cycle ${cycle.cycle}, status ${cycle.status}`;
    }
    const recorded = existsSync(record) ? jsonLines(readFileSync(record, 'utf8')) : [];
    return recorded.length === 1 && recorded[0] !== undefined ? '' : `the record holds ${recorded.length} line(s), not one JSON line`;
  });

  const [replay, history, liveness, plan] = await Promise.all([
    hk('replay', record),
    hk('history', ...at, '--json'),
    hk('check-liveness', ...at, '--json'),
    hk('plan', ...at, '--hours', '2'),
  ]);
  checks.run('replay FILE: the recorded cycle decides the same again', replay, 0, (r) =>
    r.stdout.trim() === '1/1 decisions reproduced' ? '' : 'not "1/1 decisions reproduced"',
  );
  checks.run('history --json: one ran receipt per cycle', history, 0, (r) => {
    const receipts = parseJson(r.stdout)?.receipts;
    return receipts?.length === 2 && receipts.every((x) => x.kind === 'ran') ? '' : 'not two "ran" receipts';
  });
  checks.run('check-liveness --json after the cycles: alive', liveness, 0, (r) =>
    parseJson(r.stdout)?.live === true ? '' : 'not {"live": true}',
  );
  checks.run('plan --hours 2', plan, 0, (r) =>
    /^Plan from \S+ for 2 h, every 600 s: \d+ slots\n/.test(r.stdout) ? '' : 'no "Plan from … for 2 h, every 600 s" header',
  );

  const config = join(repo, '.claude', 'HEARTBEAT.md');
  checks.run('init: writes .claude/HEARTBEAT.md', await hk('init', ...at), 0, () =>
    existsSync(config) && readFileSync(config, 'utf8').includes('## ') ? '' : `${config} not written`,
  );
  checks.run('init again: the file exists, nothing written (exit 1)', await hk('init', ...at, '--json'), 1, (r) =>
    parseJson(r.stdout)?.status === 'exists' ? '' : 'not {"status": "exists"}',
  );
  return checks;
}

/**
 * `loop --json`: waits for the first cycle's JSON line (no fixed wait), sends SIGINT, and expects
 * exit 0 with the HEARTBEAT_SHUTDOWN message counting that cycle.
 */
export async function loopCommand(ctx) {
  const checks = new Checks();
  const repo = await ctx.newRepo('loop');
  let signalled = false;
  const loop = await ctx.hk(['loop', '--cwd', repo, '--tmux-socket', ctx.tmuxSocket, '--json'], {
    onStdout: (stdout, child) => {
      if (signalled || !jsonLines(stdout).some((l) => l?.type === 'cycle')) return;
      signalled = true;
      child.kill('SIGINT');
    },
  });
  checks.run('loop --json: first cycle, then SIGINT: HEARTBEAT_SHUTDOWN and exit 0', loop, 0, (r) => {
    if (!signalled) return 'no cycle line came before the loop ended';
    const out = jsonLines(r.stdout);
    if (out.includes(undefined)) return 'a stdout line is not JSON';
    const shutdown = out.find((l) => l.type === 'message' && l.kind === 'shutdown');
    return out[0]?.kind === 'online' && /^HEARTBEAT_SHUTDOWN: .*\b1 cycles completed/.test(shutdown?.content ?? '')
      ? ''
      : 'no online message first, or no HEARTBEAT_SHUTDOWN message counting 1 cycle';
  });
  return checks;
}

/** `fleet` without @heartbeat-kit/bullmq: exit 2 and the npm install line that adds it. */
export async function fleetWithoutPackage(ctx) {
  const checks = new Checks();
  checks.run('fleet list without @heartbeat-kit/bullmq says how to add it (exit 2)', await ctx.hk(['fleet', 'list']), 2, (r) =>
    /Fix: npm install @heartbeat-kit\/bullmq@/.test(r.stderr) ? '' : 'no "Fix: npm install @heartbeat-kit/bullmq@…" on stderr',
  );
  return checks;
}
