import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startRunbookServer, type RunbookServer } from './server.js';

const VALID = `# Runbook

## Watch Items
- Webhook retries climbing. Lift when 0 retries for 48 h (check 10-20).
- Old staging DB. Lift when #12 merges, DELETE 11-01.
`;

const INVALID = `# Runbook

## Active Blockers
- Deploy freeze for the audit.
- Cert renewal. Lift when renewed (check 2026-10-25).
`;

// A version-1 system status snapshot: a lead agent online, nothing else going on.
const STATUS = {
  version: 1,
  generatedAt: '2026-10-20T10:00:00.000Z',
  agents: [{ id: 'lead', name: 'lead', isLead: true, status: 'online' }],
};

let server: RunbookServer;
beforeEach(async () => {
  server = await startRunbookServer({ timeZone: 'UTC', gateMode: 'enforce' });
});
afterEach(async () => {
  await server.close();
});

async function put(text: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${server.url}/runbook`, { method: 'PUT', body: text, headers: { 'content-type': 'text/markdown' } });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function tick(body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${server.url}/tick`, {
    method: 'POST',
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('runbook-server over real HTTP on 127.0.0.1', () => {
  it('listens on the loopback address only, on a port the OS chose', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.server.address()).toMatchObject({ address: '127.0.0.1' });
  });

  it('rejects an invalid runbook with 400 and line-numbered errors, and keeps the previous one', async () => {
    expect((await put(VALID)).status).toBe(200);
    const rejected = await put(INVALID);
    expect(rejected.status).toBe(400);
    expect(rejected.body.accepted).toBe(false);
    expect(rejected.body.errors).toEqual([
      expect.objectContaining({ line: 4, code: 'no-lift-trigger' }),
      expect.objectContaining({ line: 4, code: 'no-date' }),
      expect.objectContaining({ line: 5, code: 'full-date-only', message: expect.stringContaining('(check 10-25)') as unknown }),
    ]);
    const stored = await fetch(`${server.url}/runbook`);
    expect(await stored.text()).toBe(VALID);
  });

  it('accepts a valid runbook and reports its tracked items', async () => {
    expect(await fetch(`${server.url}/runbook`).then((r) => r.status)).toBe(404);
    const accepted = await put(VALID);
    expect(accepted).toEqual({ status: 200, body: { accepted: true, trackedItemCount: 2, warnings: [] } });
  });

  it('tick: the rules gate wakes on the day an item is due and the task carries Gate Findings (enforce)', async () => {
    await put(VALID);
    const due = await tick({ status: STATUS, now: '2026-10-20T10:00:00Z' });
    expect(due.status).toBe(200);
    expect(due.body).toMatchObject({
      decision: 'create',
      verdict: { kind: 'wake' },
      task: { taskType: 'heartbeat-checklist', assignTo: 'lead', tags: ['checklist', 'auto-generated', 'heartbeat-gate:wake'] },
    });
    expect((due.body.task as { prompt: string }).prompt).toContain('## Gate Findings [auto-generated]');
    expect((due.body.task as { prompt: string }).prompt).toContain('Webhook retries climbing');
  });

  it('tick: nothing due, nothing failed → the gate is quiet and enforce mode creates no task', async () => {
    await put(VALID);
    const quiet = await tick({ status: STATUS, now: '2026-10-21T10:00:00Z' });
    expect(quiet.body).toMatchObject({ decision: 'skip', reason: 'gate-quiet', verdict: { kind: 'quiet' } });
  });

  it('tick: preconditions come before the gate (no runbook, no lead)', async () => {
    expect((await tick({ status: STATUS, now: '2026-10-20T10:00:00Z' })).body).toMatchObject({ decision: 'skip', reason: 'runbook-empty' });
    await put(VALID);
    expect((await tick({ status: { ...STATUS, agents: [] }, now: '2026-10-20T10:00:00Z' })).body).toMatchObject({
      decision: 'skip',
      reason: 'no-lead',
    });
  });

  it('tick: a bad snapshot or body is a 400 naming the problem', async () => {
    const bad = await tick({ status: { version: 2, generatedAt: 'yesterday' } });
    expect(bad.status).toBe(400);
    expect(bad.body.problems).toEqual(
      expect.arrayContaining([expect.stringMatching(/^status: version: /), expect.stringMatching(/^status: generatedAt: /)]),
    );
    expect((await tick('{not json')).status).toBe(400);
    expect((await tick({ status: STATUS, now: 'soon' })).status).toBe(400);
  });

  it('unknown routes are 404', async () => {
    const response = await fetch(`${server.url}/nope`);
    expect(response.status).toBe(404);
  });
});

describe('shadow mode', () => {
  it('a quiet verdict still creates the task, tagged quiet', async () => {
    const shadow = await startRunbookServer({ timeZone: 'UTC', gateMode: 'shadow' });
    try {
      await fetch(`${shadow.url}/runbook`, { method: 'PUT', body: VALID });
      const response = await fetch(`${shadow.url}/tick`, {
        method: 'POST',
        body: JSON.stringify({ status: STATUS, now: '2026-10-21T10:00:00Z' }),
      });
      expect(await response.json()).toMatchObject({
        decision: 'create',
        verdict: { kind: 'quiet' },
        task: { tags: ['checklist', 'auto-generated', 'heartbeat-gate:quiet'] },
      });
    } finally {
      await shadow.close();
    }
  });
});
