/**
 * Issue 25 items 5 and 9 end to end, with the built bin run as a process, a real git repository
 * and real HTTP receivers on 127.0.0.1 (each its own port, so its own origin).
 *
 * 5: a receiver that gets every body but answers 500 sees the same finding under the same
 *    per-finding id in every POST of three cycles, while the message id follows the set of
 *    findings (it changed when another finding came and went).
 * 9: a 307 to another origin is a failed delivery naming the Location, and the other origin gets
 *    nothing; a same-origin 307 is followed only with --sink-same-origin-redirects.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBuiltCli, useCliWorlds } from './support/cli-world.js';
import { useWebhookReceivers } from './support/webhook-receiver.js';
import { WORLD_HEARTBEAT_MD, type WorldBead } from './support/world.js';

const createCliWorld = useCliWorlds();
const built = useBuiltCli();
const startReceiver = useWebhookReceivers();

// The sink breaker stays out of the way: every cycle tries the receiver.
const HEARTBEAT_MD = `${WORLD_HEARTBEAT_MD}\n## Heartbeat\n- Breaker after: off\n`;
const at = (cycle: number): string => new Date(Date.parse('2026-02-19T14:00:00Z') + (cycle - 1) * 600_000).toISOString();
const bead = (id: string): WorldBead => ({ id, title: `Fix ${id}`, priority: 1 });

describe('per-finding ids (issue 25 item 5)', () => {
  it('a receiver answering 500 for three cycles sees the same finding under one id in all 9 POSTs, while the message id changes with the set', async () => {
    const w = createCliWorld({ heartbeatMd: HEARTBEAT_MD, ready: [bead('beads-a1')] });
    const receiver = await startReceiver((r) => r.status);
    receiver.status = 500;
    const statePath = join(w.root, 'hb', 'state.json');
    const cycle = (n: number) =>
      built.runAt(
        at(n),
        ['cycle', '--cwd', w.project, '--tmux-socket', w.tmuxSocket, '--state', statePath, '--sink', `webhook:${receiver.url}`],
        w.env,
      );

    // Cycle 1: beads-a1 alone; cycle 2: beads-b2 joins; cycle 3: beads-b2 is gone, beads-c3 came.
    expect((await cycle(1)).code).toBe(3);
    w.setReady([bead('beads-a1'), bead('beads-b2')]);
    expect((await cycle(2)).code).toBe(3);
    w.setReady([bead('beads-c3'), bead('beads-a1')]);
    const third = await cycle(3);
    expect(third.code).toBe(3);
    expect(third.stderr).toContain('failed after 3 attempt(s): HTTP 500');

    expect(receiver.reports).toHaveLength(9);
    const idsOf = (subject: string) =>
      new Set(receiver.reports.map((r) => r.findings.find((f) => f.fingerprint.endsWith(`:${subject}`))?.id));
    const a1 = idsOf('beads-a1');
    expect(a1.size).toBe(1);
    expect([...a1][0]).toMatch(/^hbf-[0-9a-f]{28}$/);
    // The message ids: one per set of findings, the same on each attempt.
    expect(receiver.reports.map((r) => r.id)).toEqual(receiver.reports.map((r, i) => receiver.reports[i - (i % 3)]!.id));
    expect(new Set(receiver.reports.map((r) => r.id)).size).toBe(3);
    expect(receiver.reports.map((r) => r.headers['idempotency-key'])).toEqual(receiver.reports.map((r) => r.id));
    // beads-b2 kept its own id in the cycle that had it; the others never had it.
    expect(idsOf('beads-b2').size).toBe(2); // its id, and undefined where it was absent
    expect(receiver.reports.slice(3, 6).every((r) => r.findings.length === 2)).toBe(true);

    // Cycle 4: the receiver answers; the finding still has its id, and after that it is delivered.
    receiver.status = 200;
    expect((await cycle(4)).code).toBe(0);
    expect(receiver.reports).toHaveLength(10);
    expect(receiver.reports[9]!.findings.find((f) => f.fingerprint.endsWith(':beads-a1'))?.id).toBe([...a1][0]);
  }, 900_000);
});

describe('webhook redirects (issue 25 item 9)', () => {
  it('a 307 to another origin: a failed delivery (exit 3) naming the Location; the other origin gets nothing, with or without the opt-in', async () => {
    const w = createCliWorld({ heartbeatMd: HEARTBEAT_MD, ready: [bead('beads-a1')] });
    const other = await startReceiver(() => 200);
    const hook = await startReceiver(() => ({ status: 307, location: `${other.url}?token=s3cr3t` }));
    const origin = new URL(hook.url).origin;
    const statePath = join(w.root, 'hb', 'state.json');
    const cycle = (n: number, ...extra: string[]) =>
      built.runAt(
        at(n),
        ['cycle', '--cwd', w.project, '--tmux-socket', w.tmuxSocket, '--state', statePath, '--sink', `webhook:${hook.url}`, ...extra],
        { ...w.env, HOOK_AUTH: 'Bearer hook-secret' },
      );

    const run = await cycle(1, '--sink-auth-env', 'HOOK_AUTH');
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(
      `delivery failed: webhook ${origin} failed after 1 attempt(s): HTTP 307 redirect to ${other.url}?…; not followed (redirects are not followed by default). Fix: point --sink webhook: at the new address;`,
    );
    expect(run.stderr).not.toContain('s3cr3t');
    expect(hook.requests).toHaveLength(1);
    expect(other.requests).toEqual([]);

    const optIn = await cycle(2, '--sink-auth-env', 'HOOK_AUTH', '--sink-same-origin-redirects', '--json');
    expect(optIn.code).toBe(3);
    expect((JSON.parse(optIn.stdout) as { delivery: string }).delivery).toBe('failed');
    expect(optIn.stderr).toContain(`HTTP 307 redirect to ${other.url}?…; not followed: another origin than ${origin}`);
    expect(other.requests).toEqual([]);
  }, 900_000);

  it('a 307 within the origin: delivered with --sink-same-origin-redirects (POST with the body at the new path), a failed delivery naming it without', async () => {
    const w = createCliWorld({ heartbeatMd: HEARTBEAT_MD, ready: [bead('beads-a1')] });
    const receiver = await startReceiver((_r, path) => (path === '/hook' ? { status: 307, location: '/v2/hook' } : 200));
    const origin = new URL(receiver.url).origin;
    const statePath = join(w.root, 'hb', 'state.json');
    const cycle = (n: number, ...extra: string[]) =>
      built.runAt(
        at(n),
        ['cycle', '--cwd', w.project, '--tmux-socket', w.tmuxSocket, '--state', statePath, '--sink', `webhook:${receiver.url}`, ...extra],
        w.env,
      );

    const without = await cycle(1);
    expect(without.code).toBe(3);
    expect(without.stderr).toContain(
      `HTTP 307 redirect to ${origin}/v2/hook; not followed (redirects are not followed by default). Fix: point --sink webhook: at the new address, or pass --sink-same-origin-redirects`,
    );
    expect(receiver.reports.map((r) => [r.path, r.status])).toEqual([['/hook', 307]]);

    const followed = await cycle(2, '--sink-same-origin-redirects');
    expect(followed.code).toBe(0);
    expect(followed.stderr).not.toContain('delivery failed');
    expect(receiver.reports.map((r) => [r.path, r.status])).toEqual([
      ['/hook', 307],
      ['/hook', 307],
      ['/v2/hook', 200],
    ]);
    expect(receiver.reports[2]!.content).toMatch(/^WORK_FOUND: /);
    expect(receiver.requests.every((r) => r.method === 'POST')).toBe(true);
  }, 900_000);

  it('refuses --sink-same-origin-redirects without a webhook sink (exit 2, the fix)', async () => {
    const w = createCliWorld({ heartbeatMd: HEARTBEAT_MD });
    const run = await w.cycleAt(at(1), '--sink-same-origin-redirects');
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'heartbeat-kit cycle: --sink-same-origin-redirects only applies to --sink webhook:URL. Fix: drop it or use a webhook sink.\n',
    );
  });
});
