/**
 * Issue 29 item 1, as an agent runs it: the MCP SDK's own client spawns the built bin
 * (`heartbeat-kit mcp`) over stdio, lists the tools, calls each; the write tools are refused
 * without --allow-write and work with it; bad requests (unknown tool, wrong types, a 10 MB
 * argument) are clear tool errors and the server keeps answering.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { useBuiltCli, useCliWorlds } from './support/cli-world.js';
import { runningClockEnv } from './support/fake-time.js';

const createCliWorld = useCliWorlds();
const built = useBuiltCli();
const withoutMcp = useBuiltCli({ without: ['@heartbeat-kit/mcp'] });

const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

function setUp() {
  const world = createCliWorld({ ready: [{ id: 'beads-p2', title: 'polish docs', priority: 2 }] });
  const statePath = join(world.root, 'hb', 'state.json');
  const scope = ['--cwd', world.project, '--state', statePath, '--tmux-socket', world.tmuxSocket];
  // The server's clock starts inside the world's active hours and runs (libfaketime): on the real clock the
  // P2 bead is only reported 08:00–22:00 UTC, so these tests failed at night.
  const env = {
    ...Object.fromEntries(Object.entries(world.env).filter((e): e is [string, string] => e[1] !== undefined)),
    ...runningClockEnv('2026-02-19T14:50:00Z'),
  };
  const connect = async (...extra: string[]) => {
    const client = new Client({ name: 'mcp-e2e', version: '0.0.0' });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [built.bin(), 'mcp', ...scope, ...extra],
      env,
      stderr: 'pipe',
    });
    await client.connect(transport);
    clients.push(client);
    return client;
  };
  return { world, statePath, scope, connect, ackFile: join(world.root, 'hb', 'state.acks.json') };
}

interface ToolText {
  readonly isError: boolean;
  readonly text: string;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolText> {
  // No deadline of the SDK's (60 s by default): a loaded machine is slow, not wrong.
  const result = (await client.callTool({ name, arguments: args }, undefined, { timeout: 3_600_000 })) as {
    isError?: boolean;
    content: { type: string; text: string }[];
  };
  return { isError: result.isError === true, text: result.content.map((c) => c.text).join('') };
}

const REFUSED = (tool: string) =>
  `heartbeat-kit mcp: '${tool}' changes the heartbeat's state and this server is read-only. Fix: restart the server with --allow-write (heartbeat-kit mcp --allow-write).`;

describe('heartbeat-kit mcp (built bin, MCP SDK client over stdio)', () => {
  it('lists 8 tools and 2 resources; every read tool answers compact JSON; writes are refused without --allow-write', async () => {
    const { connect, ackFile } = setUp();
    const client = await connect();
    const tools = (await client.listTools()).tools.map((t) => t.name);
    expect(tools).toEqual(['status', 'plan', 'history', 'explain', 'cycle_dry_run', 'ack', 'pause', 'cycle']);

    const status = await call(client, 'status');
    expect(status.isError).toBe(false);
    expect(JSON.parse(status.text)).toMatchObject({
      lastCycle: null,
      openFindings: { count: 0 },
      breakers: { scanners: [], sink: null },
      acks: [],
    });
    expect(status.text).not.toContain('\n');

    const plan = JSON.parse((await call(client, 'plan', { hours: 3 })).text) as { runs: { slots: number }[] };
    expect(plan.runs.reduce((n, r) => n + r.slots, 0)).toBeGreaterThanOrEqual(17); // 10-minute slots over 3 h, merged into runs
    expect(JSON.parse((await call(client, 'history')).text)).toEqual({ total: 0, receipts: [] });

    const explain = JSON.parse((await call(client, 'explain')).text) as { findings: { subject: string; verdict: string; why: string }[] };
    expect(explain.findings).toContainEqual(expect.objectContaining({ subject: 'beads-p2', verdict: 'fires', why: 'new: never reported' }));
    const dry = JSON.parse((await call(client, 'cycle_dry_run')).text) as { status: string; findings: string[] };
    expect(dry.status).toBe('report');
    expect(JSON.stringify(dry)).toContain('beads-p2');

    for (const [tool, args] of [
      ['ack', { selector: 'beads-p2', note: 'mine' }],
      ['pause', { note: 'deploying' }],
      ['cycle', {}],
    ] as const) {
      expect(await call(client, tool, args)).toEqual({ isError: true, text: REFUSED(tool) });
    }
    expect(existsSync(ackFile)).toBe(false);
    // Still nothing ran: the dry runs and the refused cycle wrote no receipt.
    expect(JSON.parse((await call(client, 'history')).text)).toEqual({ total: 0, receipts: [] });

    const resources = (await client.listResources()).resources.map((r) => r.uri);
    expect(resources).toEqual(['heartbeat://config', 'heartbeat://last-report']);
    const config = (await client.readResource({ uri: 'heartbeat://config' })).contents[0] as { text: string };
    expect(JSON.parse(config.text)).toMatchObject({ config: { intervalMs: 600_000 } });
  });

  it('with --allow-write: cycle, ack (then explain says acked), pause and resume', async () => {
    const { connect, ackFile } = setUp();
    const client = await connect('--allow-write');

    const cycle = await call(client, 'cycle');
    expect(cycle.isError).toBe(false);
    expect(JSON.parse(cycle.text)).toMatchObject({ status: 'report', cycle: 1 });
    const last = (await client.readResource({ uri: 'heartbeat://last-report' })).contents[0] as { text: string };
    expect(JSON.parse(last.text)).toMatchObject({ receipt: { kind: 'ran', cycle: 1, status: 'report' } });
    expect(JSON.parse((await call(client, 'status')).text)).toMatchObject({ lastCycle: { cycle: 1 }, openFindings: { count: 1 } });

    const explained = JSON.parse((await call(client, 'explain', { match: 'beads-p2' })).text) as {
      findings: { fingerprint: string; verdict: string }[];
    };
    const fingerprint = explained.findings[0]?.fingerprint ?? '';
    expect(explained.findings[0]).toMatchObject({ verdict: 'held' }); // reported a minute ago: dedup
    const ack = await call(client, 'ack', { selector: fingerprint, note: 'on it', for: '4h' });
    expect(ack.isError).toBe(false);
    expect(readFileSync(ackFile, 'utf8')).toContain('on it');
    const afterAck = JSON.parse((await call(client, 'explain', { match: 'beads-p2' })).text) as {
      findings: { why: string; ack?: unknown }[];
    };
    expect(afterAck.findings[0]).toMatchObject({ why: 'acked by the operator', ack: { note: 'on it' } });

    const paused = await call(client, 'pause', { note: 'deploying', for: '1h' });
    expect(JSON.parse(paused.text)).toMatchObject({ paused: { note: 'deploying' } });
    expect(JSON.parse((await call(client, 'status')).text)).toMatchObject({ pause: { note: 'deploying' } });
    expect(JSON.parse((await call(client, 'pause', { resume: true })).text)).toMatchObject({ resumed: true });
  });

  it("a write tool's error is the CLI's own text and fix", async () => {
    const { connect, scope } = setUp();
    const client = await connect('--allow-write');
    const viaMcp = await call(client, 'pause', { for: '1h' });
    const viaCli = await built.run(['pause', '--for', '1h', ...scope.slice(0, 4)], {});
    expect(viaCli.code).toBe(2);
    expect(viaMcp).toEqual({ isError: true, text: viaCli.stderr.trim() });
    expect(viaMcp.text).toContain('Fix:');
  });

  it('unknown tool, wrong argument types and a 10 MB argument: clear errors, nothing written, the server still answers', async () => {
    const { connect, ackFile } = setUp();
    const client = await connect('--allow-write');
    expect(await call(client, 'reboot')).toEqual({ isError: true, text: 'MCP error -32602: Tool reboot not found' });
    const wrong = await call(client, 'plan', { hours: 'soon' });
    expect(wrong.isError).toBe(true);
    expect(wrong.text).toContain('Invalid arguments for tool plan');
    expect(wrong.text).toContain('hours');
    const huge = await call(client, 'ack', { selector: 'beads-p2', note: 'x'.repeat(10 * 1024 * 1024) });
    expect(huge.isError).toBe(true);
    expect(huge.text).toContain('Invalid arguments for tool ack');
    expect(huge.text).toContain('note');
    expect(huge.text.length).toBeLessThan(1000); // the error does not echo the 10 MB back
    expect(existsSync(ackFile)).toBe(false);
    expect((await call(client, 'status')).isError).toBe(false);
  });

  it('--help, and a bad flag is exit 2 naming it', async () => {
    const help = await built.run(['mcp', '--help'], {});
    expect(help).toMatchObject({ code: 0 });
    expect(help.stdout).toContain('--allow-write');
    const bad = await built.run(['mcp', '--allow-writes'], {});
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("'--allow-writes'");
    expect(bad.stderr).toContain('Fix:');
  });

  it('without @heartbeat-kit/mcp installed: says how to add it, exit 2', async () => {
    const run = await withoutMcp.run(['mcp'], process.env);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /needs the optional package @heartbeat-kit\/mcp \(the Model Context Protocol SDK\).*Fix: npm install @heartbeat-kit\/mcp@/,
    );
  });
});
