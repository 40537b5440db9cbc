// `heartbeat-kit mcp` from the installed tarballs: without @heartbeat-kit/mcp it says how to add
// it; with it, one MCP session over stdio in raw JSON-RPC lines (initialize, tools/list, a read
// tool, a refused write), the client then closing stdin and the server exiting 0.
import { Checks, parseJson } from './report.mjs';

/** `mcp` without the optional package: exit 2 and the npm install line. */
export async function mcpWithoutPackage(ctx) {
  const checks = new Checks();
  checks.run('mcp without @heartbeat-kit/mcp says how to add it (exit 2)', await ctx.hk(['mcp']), 2, (r) =>
    /Fix: npm install @heartbeat-kit\/mcp@/.test(r.stderr) ? '' : 'no "Fix: npm install @heartbeat-kit/mcp@…" on stderr',
  );
  return checks;
}

const request = (id, method, params = {}) => `${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`;

/** One session with the installed server, after `npm install @heartbeat-kit/mcp`. */
export async function mcpSession(ctx) {
  const checks = new Checks();
  const repo = await ctx.newRepo('mcp');
  const input = [
    request(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pack-check', version: '0' } }),
    `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`,
    request(2, 'tools/list'),
    request(3, 'tools/call', { name: 'history', arguments: {} }),
    request(4, 'tools/call', { name: 'cycle', arguments: {} }),
  ].join('');
  const answers = (stdout) =>
    stdout
      .split('\n')
      .filter((l) => l !== '')
      .map(parseJson);
  const result = await ctx.hk(['mcp', '--cwd', repo], {
    input,
    onStdout: (stdout, child) => {
      if (answers(stdout).some((a) => a?.id === 4)) child.stdin.end();
    },
  });
  checks.run('mcp: initialize, tools/list (8 tools), a read tool, a refused write; exit 0 when stdin closes', result, 0, (r) => {
    const byId = new Map(answers(r.stdout).map((a) => [a?.id, a]));
    const tools = byId.get(2)?.result?.tools?.map((t) => t.name) ?? [];
    if (tools.length !== 8) return `expected 8 tools, got ${JSON.stringify(tools)}`;
    if (byId.get(3)?.result?.isError !== false && byId.get(3)?.result?.isError !== undefined) return 'history was an error';
    if (!/--allow-write/.test(byId.get(4)?.result?.content?.[0]?.text ?? '')) return 'cycle was not refused naming --allow-write';
    return '';
  });
  return checks;
}
