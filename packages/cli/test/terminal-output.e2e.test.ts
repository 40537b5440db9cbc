/**
 * Issue 25 item 8, through the built bin: nothing a terminal interprets reaches stdout or stderr.
 * `history` printed a receipt's `detail` raw (ESC ] 0 ; … BEL set the window title, ESC [ 31 m
 * coloured the rest, the 8-bit CSI 0x9b), and an unknown command name or a bad flag value was
 * echoed raw too; every write now passes one filter (docs/redaction.md).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFileReceiptStore, receiptsDirectoryFor } from '@heartbeat-kit/core/node';
import { useBuiltCli, useCliWorlds } from './support/cli-world.js';

const createCliWorld = useCliWorlds();
const built = useBuiltCli();

/** What a terminal interprets (C0 but tab and newline, DEL, C1) or what hides text (bidi, zero-width). */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const INTERPRETED = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/;

const HOSTILE = 'lock at \u001b]0;pwned\u0007/tmp/x \u001b[31mred\u001b[0m \u009b2J \u202eevil \u007f end';

describe('every path that prints filters what a terminal interprets', () => {
  it('history: a receipt detail with an OSC title, a CSI colour and an 8-bit CSI prints as plain text; --json keeps the value', async () => {
    const world = createCliWorld();
    const statePath = join(world.root, 'hb', 'state.json');
    const store = createFileReceiptStore({
      directory: receiptsDirectoryFor(statePath),
      clock: { now: () => new Date('2026-02-19T14:05:00Z') },
    });
    const slot = '2026-02-19T14:00:00.000Z';
    (
      await store.append({ v: 1, slot, at: slot, source: 'cycle', kind: 'skipped', reason: 'overlapping', detail: HOSTILE })
    )._unsafeUnwrap();

    const text = await built.run(['history', '--state', statePath, '--now', '2026-02-19T15:00:00Z'], world.env);
    expect(text.code).toBe(0);
    expect(text.stdout).not.toMatch(INTERPRETED);
    expect(text.stdout).toBe(`${slot}  cycle     skipped  overlapping: lock at /tmp/x red  evil  end\n`);

    const json = await built.run(['history', '--state', statePath, '--now', '2026-02-19T15:00:00Z', '--json'], world.env);
    expect(json.code).toBe(0);
    expect(json.stdout).not.toMatch(INTERPRETED);
    expect((JSON.parse(json.stdout) as { receipts: { detail?: string }[] }).receipts[0]?.detail).toBe(HOSTILE);
  });

  it('an unknown command name and a bad flag value are echoed without their escapes', async () => {
    const world = createCliWorld();
    const unknown = await built.run([`cycel\u001b]0;pwned\u0007\u009b2J`], world.env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown command 'cycel'");
    expect(unknown.stderr).not.toMatch(INTERPRETED);

    const since = await built.run(['history', '--cwd', world.project, '--since', '\u009b31mday\u009d0;title\u009c'], world.env);
    expect(since.code).toBe(2);
    expect(since.stderr).toContain('--since "day"');
    expect(since.stderr).not.toMatch(INTERPRETED);

    const json = await built.run(['history', '--cwd', world.project, '--json', '--since', '\u009b31mday'], world.env);
    expect(json.code).toBe(2);
    expect(json.stderr).not.toMatch(INTERPRETED);
    expect((JSON.parse(json.stderr) as { error: string }).error).toContain('--since "\u009b31mday"');
  });
});
