import { createFinding } from '@heartbeat-kit/core';
import { describe, expect, it } from 'vitest';
import { makeContext } from '../../test/support/context.js';
import { createScriptedScanner } from './scripted-scanner.js';

const ctx = makeContext({ now: new Date('2026-02-19T10:00:00Z') });
const crash = createFinding({
  category: 'ORCH_FAILURE',
  subject: 'orch-a',
  line: 'CRASHED: orch-a',
  action: 'Re-launch orch-a',
  short: 'orch-a crashed',
});

describe('createScriptedScanner', () => {
  it('answers in order, repeats the last step and records calls', async () => {
    const scanner = createScriptedScanner({
      name: 'orchestrators',
      script: [
        [crash],
        { scanner: 'orchestrators', status: 'error', error: 'boom', durationMs: 1 },
        () => ({ scanner: 'orchestrators', status: 'skipped', reason: 'x', durationMs: 0 }),
      ],
    });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await scanner.scan(ctx)).status);
    expect(statuses).toEqual(['ok', 'error', 'skipped', 'skipped']);
    expect(scanner.calls).toHaveLength(4);
    expect(scanner.runsOutsideActiveHours).toBe(false);
  });

  it('an empty script is ok with nothing', async () => {
    const result = await createScriptedScanner({ name: 'x', script: [] }).scan(ctx);
    expect(result).toMatchObject({ status: 'ok', findings: [] });
  });
});
