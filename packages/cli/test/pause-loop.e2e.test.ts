/**
 * The loop reads the operator's pause at every slot (under the cycle lock): a paused slot writes a
 * `paused` receipt (--json: {"type": "paused"}); after `resume` the next slot runs, no restart needed
 * for the pause to apply. Scripted clocks, as the other loop tests.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCliWorlds } from './support/cli-world.js';
import { scriptedTime } from './support/run-cli.js';

const createCliWorld = useCliWorlds();

describe('loop under an operator pause', () => {
  it('a paused slot leaves a paused receipt; after resume the next slot runs', async () => {
    const w = createCliWorld({});
    const statePath = join(w.root, 'hb', 'state.json');
    const scope = ['--cwd', w.project, '--state', statePath];
    expect((await w.cliAt('2026-02-19T09:59:00Z', 'pause', ...scope, '--for', '1h', '--note', 'maintenance')).code).toBe(0);

    const first = await w.scriptedLoop(scriptedTime([]).from('2026-02-19T10:03:00Z'), '--state', statePath, '--json');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('"type":"paused"');
    expect(first.stdout).not.toContain('"type":"cycle"');

    expect((await w.cli('resume', ...scope)).code).toBe(0);
    const second = await w.scriptedLoop(scriptedTime([]).from('2026-02-19T10:13:00Z'), '--state', statePath, '--json');
    expect(second.stdout).toContain('"type":"cycle"');

    const history = JSON.parse((await w.cli('history', ...scope, '--now', '2026-02-19T11:00:00Z', '--json')).stdout) as {
      receipts: { kind: string; slot: string; source: string; note?: string }[];
    };
    expect(history.receipts.map((r) => [r.kind, r.slot, r.source, r.note])).toEqual([
      ['paused', '2026-02-19T10:00:00.000Z', 'loop', 'maintenance'],
      ['ran', '2026-02-19T10:10:00.000Z', 'loop', undefined],
    ]);
  });
});
