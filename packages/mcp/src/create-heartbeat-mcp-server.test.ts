import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { createHeartbeatMcpServer, writeRefusedMessage } from './create-heartbeat-mcp-server.js';
import type { HeartbeatMcpDeps, McpOutcome } from './heartbeat-mcp-deps.js';

/** Deps that record each call and answer `{ ok: true, value: { tool } }`. */
function recordingDeps(allowWrite: boolean) {
  const calls: string[] = [];
  const answer =
    (tool: string) =>
    (input?: unknown): Promise<McpOutcome> => {
      calls.push(input === undefined ? tool : `${tool} ${JSON.stringify(input)}`);
      return Promise.resolve({ ok: true, value: { tool } });
    };
  const deps: HeartbeatMcpDeps = {
    version: '0.0.0-test',
    allowWrite,
    status: answer('status'),
    plan: answer('plan'),
    history: answer('history'),
    explain: answer('explain'),
    cycleDryRun: answer('cycleDryRun'),
    ack: answer('ack'),
    pause: answer('pause'),
    cycle: answer('cycle'),
    config: answer('config'),
    lastReport: () => Promise.resolve({ ok: false, message: 'heartbeat-kit history: no state. Fix: run a cycle.' }),
  };
  return { deps, calls };
}

async function connected(deps: HeartbeatMcpDeps): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createHeartbeatMcpServer(deps).connect(serverSide);
  const client = new Client({ name: 'test', version: '0' });
  await client.connect(clientSide);
  return client;
}

const text = (result: unknown) => (result as { content: { text: string }[] }).content[0]?.text;

describe('createHeartbeatMcpServer', () => {
  it('read tools call their operation with the defaults filled in; outputs are compact JSON', async () => {
    const { deps, calls } = recordingDeps(false);
    const client = await connected(deps);
    expect(text(await client.callTool({ name: 'plan', arguments: {} }))).toBe('{"tool":"plan"}');
    await client.callTool({ name: 'history', arguments: { since: '2h' } });
    expect(calls).toEqual(['plan {"hours":24}', 'history {"since":"2h","limit":10}']);
  });

  it('without allowWrite, ack/pause/cycle are tool errors naming --allow-write and their operations never run', async () => {
    const { deps, calls } = recordingDeps(false);
    const client = await connected(deps);
    for (const [name, args] of [
      ['ack', { selector: 'A', note: 'n' }],
      ['pause', { resume: true }],
      ['cycle', {}],
    ] as const) {
      const result = await client.callTool({ name, arguments: args });
      expect(result).toMatchObject({ isError: true });
      expect(text(result)).toBe(writeRefusedMessage(name));
    }
    expect(calls).toEqual([]);
  });

  it('with allowWrite the writes run', async () => {
    const { deps, calls } = recordingDeps(true);
    const client = await connected(deps);
    await client.callTool({ name: 'pause', arguments: { note: 'deploy', for: '1h' } });
    await client.callTool({ name: 'cycle', arguments: {} });
    expect(calls).toEqual(['pause {"note":"deploy","for":"1h"}', 'cycle']);
  });

  it("an operation's error is the tool error's text; a resource shows it as { error }", async () => {
    const { deps } = recordingDeps(true);
    const client = await connected(deps);
    const read = await client.readResource({ uri: 'heartbeat://last-report' });
    expect(JSON.parse((read.contents[0] as { text: string }).text)).toEqual({
      error: 'heartbeat-kit history: no state. Fix: run a cycle.',
    });
  });

  it('arguments over their bounds are refused before any operation runs', async () => {
    const { deps, calls } = recordingDeps(true);
    const client = await connected(deps);
    const result = await client.callTool({ name: 'ack', arguments: { selector: 'A', note: 'x'.repeat(501) } });
    expect(result).toMatchObject({ isError: true });
    expect(text(result)).toContain('note');
    expect(calls).toEqual([]);
  });
});
