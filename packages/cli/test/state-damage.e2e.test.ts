import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCliWorlds, type CliWorld } from './support/cli-world.js';

const createCliWorld = useCliWorlds();

const reply = {
  category: 'GCHAT_REPLY_RECEIVED',
  priority: 'Immediate',
  fingerprint: 'GCHAT_REPLY_RECEIVED:q-7',
  subject: 'q-7',
  line: 'Q-7: yes, merge it',
  action: 'Act on the reply to q-7',
  short: 'reply to q-7',
  details: {},
};

function setup(document: unknown): { w: CliWorld; statePath: string; text: string } {
  const w = createCliWorld({});
  const statePath = join(w.root, 'state', 'state.json');
  const text = `${JSON.stringify(document)}\n`;
  mkdirSync(dirname(statePath), { recursive: true });
  writeFileSync(statePath, text);
  return { w, statePath, text };
}

function run(w: CliWorld, statePath: string, command: 'cycle' | 'loop', ...extra: string[]) {
  // `--now` first: a real cycle at that instant (`--now` itself only rehearses).
  if (extra[0] === '--now')
    return w.cliAt(extra[1] as string, command, '--cwd', w.project, '--tmux-socket', w.tmuxSocket, '--state', statePath, ...extra.slice(2));
  return w.cli(command, '--cwd', w.project, '--tmux-socket', w.tmuxSocket, '--state', statePath, ...extra);
}

const asides = (statePath: string): string[] =>
  readdirSync(dirname(statePath)).filter((f) => f.startsWith(`${basename(statePath)}.corrupt-`));

describe('a state file that parses but does not fit (issue 12 item 4)', () => {
  it('a newer version is refused with exit 3 naming the version, and left byte for byte untouched', async () => {
    const { w, statePath, text } = setup({ version: 4, cycle: 900, reportsSent: 12, newField: { a: 1 } });
    const cycle = await run(w, statePath, 'cycle', '--now', '2026-02-19T14:00:00Z');
    expect(cycle.code).toBe(3);
    expect(cycle.stdout).toBe('');
    expect(cycle.stderr).toContain(
      `heartbeat-kit cycle: ${statePath}: the state was written by a newer heartbeat-kit (state version 4; this one reads version 3)`,
    );
    expect(cycle.stderr).toContain('Fix: upgrade heartbeat-kit');
    expect(readFileSync(statePath, 'utf8')).toBe(text);
    expect(asides(statePath)).toEqual([]);

    const json = await run(w, statePath, 'cycle', '--now', '2026-02-19T14:10:00Z', '--json');
    expect(json.code).toBe(3);
    expect(JSON.parse(json.stdout)).toMatchObject({ status: 'refused', reason: 'newer-version', version: 4 });

    const loop = await run(w, statePath, 'loop', '--interval', '600');
    expect(loop.code).toBe(3);
    expect(loop.stderr).toContain('heartbeat-kit loop: stopped:');
    expect(loop.stderr).toContain('state version 4');
    expect(readFileSync(statePath, 'utf8')).toBe(text);

    const history = await w.cli('history', '--cwd', w.project, '--state', statePath);
    expect(history.stdout).toContain('state-refused');
  });

  it('a wrong-typed field is set aside like an unparsable file; the counter and the undelivered reply survive', async () => {
    const document = { version: 1, cycle: 41, reportsSent: 5, reported: {}, seen: 'oops', panes: {}, pipelines: {}, undelivered: [reply] };
    const { w, statePath, text } = setup(document);
    const cycle = await run(w, statePath, 'cycle', '--now', '2026-02-19T14:00:00Z');
    expect(cycle.code).toBe(0);
    expect(cycle.stdout.split('\n')[0]).toBe('WORK_FOUND: GCHAT_REPLY_RECEIVED');
    expect(cycle.stdout).toContain('Q-7: yes, merge it');
    expect(cycle.stdout).toContain('Heartbeat cycle #42');
    expect(cycle.stderr).toMatch(
      /warning: heartbeat state does not match schema version 3 \(seen: expected an object, got "oops"\); kept every other field; the original is kept at .*state\.json\.corrupt-/,
    );
    const kept = asides(statePath);
    expect(kept).toHaveLength(1);
    expect(readFileSync(join(dirname(statePath), kept[0]!), 'utf8')).toBe(text);
    const saved = JSON.parse(readFileSync(statePath, 'utf8')) as { cycle: number; reportsSent: number; seen: object };
    expect(saved).toMatchObject({ cycle: 42, reportsSent: 6, seen: {} });
    // The next cycle is clean: no warning, no second copy, the reply not sent again.
    const next = await run(w, statePath, 'cycle', '--now', '2026-02-19T14:10:00Z');
    expect(next.stderr).not.toContain('schema');
    expect(asides(statePath)).toHaveLength(1);
    expect(next.stdout).not.toContain('Q-7');
  });
});
