import { describe, expect, it } from 'vitest';
import { fixture } from '../../test/support/fixtures.js';
import { makeContext, notFound, scriptedRunner } from '../../test/support/context.js';
import { createIdleOrchestratorsScanner } from './idle-orchestrators-scanner.js';
import { hashPaneCapture } from './normalise-pane.js';

describe('idle-orchestrators scanner', () => {
  it('keeps one pane hash per orchestrator session in its slice, targeted by $id', async () => {
    const runner = scriptedRunner([
      [/list-sessions/, { stdout: 'orch-auth\t$3\t1\t1\t0\t1\nnotes\t$4\t1\t1\t0\t1\norch-b\t$7\t1\t1\t1\t1\n' }],
      // One client for every pane; tmux stops the sequence at the pane that is gone…
      [
        /capture-pane -p -t \$3 ; display-message .* ; capture-pane -p -t \$7 ; display-message/,
        { exitCode: 1, stdout: `${fixture('tmux', 'capture-pane-p.txt')}\x01HK-CAPTURE\x1f0\n`, stderr: "can't find pane: $7\n" },
      ],
      // …which is then captured alone, so its failure is its own.
      [/capture-pane -p -t \$7$/, { exitCode: 1, stderr: "can't find pane: $7\n" }],
    ]);
    const scanner = createIdleOrchestratorsScanner({ runner, tmuxArgs: ['-S', '/tmp/sock'] });
    const result = await scanner.scan(makeContext());
    expect(result).toMatchObject({
      status: 'ok',
      findings: [],
      slice: {
        version: 1,
        data: {
          panes: { 'orch-auth': { hash: hashPaneCapture(fixture('tmux', 'capture-pane-p.txt')), sinceMs: makeContext().now.getTime() } },
        },
      },
    });
    expect(result.status === 'ok' && result.warnings.map((w) => w.code)).toEqual(['PANE_CAPTURE_FAILED']);
    expect(runner.calls.map((c) => c.args.slice(0, 3))).toEqual([
      ['-u', '-S', '/tmp/sock'],
      ['-u', '-S', '/tmp/sock'],
      ['-u', '-S', '/tmp/sock'],
    ]);
    expect(scanner.runsOutsideActiveHours).toBe(false);
  });

  it('skips without tmux and sees no sessions without a server', async () => {
    expect(await createIdleOrchestratorsScanner({ runner: scriptedRunner([[/./, notFound('tmux')]]) }).scan(makeContext())).toMatchObject({
      status: 'skipped',
    });
    const none = await createIdleOrchestratorsScanner({
      runner: scriptedRunner([[/./, { exitCode: 1, stderr: fixture('tmux', 'list-sessions-no-server.stderr.txt') }]]),
    }).scan(makeContext());
    expect(none).toMatchObject({ status: 'ok', findings: [], slice: { version: 1, data: { panes: {} } } });
  });
});
