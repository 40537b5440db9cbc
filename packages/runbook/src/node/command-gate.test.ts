import { mkdtemp, readFile, writeFile, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_GATE_TIMEOUT_MS, gateEffect, runGate, type GateState } from '../gate/gate.js';
import { createCommandGate } from './command-gate.js';

const STATE: GateState = {
  version: 1,
  now: '2026-10-20T10:00:00.000Z',
  timeZone: 'UTC',
  dryRun: false,
  newFailures: [],
  dueItems: [],
  previousChecklist: null,
  unansweredMentions: 0,
  untriagedRebootFailures: [],
  counts: { tasks: {}, agents: { online: 1, offline: 0, idle: 1 } },
};

let dir: string;
async function script(name: string, body: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, `#!/usr/bin/env node\n${body}\n`);
  await chmod(path, 0o755);
  return path;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hb-gate-'));
});

describe('command gate against real child processes', () => {
  it('passes the state on stdin and reads the verdict from stdout', async () => {
    const seen = JSON.stringify(join(dir, 'seen.json'));
    const file = await script(
      'echo.mjs',
      `import { writeFileSync } from 'node:fs';\nlet s = '';\nprocess.stdin.on('data', (d) => (s += d)).on('end', () => { const st = JSON.parse(s); writeFileSync(${seen}, s); console.log('log line'); console.log(JSON.stringify({ quiet: st.dueItems.length === 0, reason: 'ok', summary: 'none' })); });`,
    );
    const verdict = await runGate(createCommandGate({ file }), STATE);
    expect(verdict).toEqual({ kind: 'quiet', reason: 'ok', summary: 'none' });
    expect(JSON.parse(await readFile(join(dir, 'seen.json'), 'utf8'))).toEqual(STATE);
  });
  it('a script that outlives the timeout fails open with the error tag', async () => {
    const file = await script('slow.mjs', 'setTimeout(() => console.log(JSON.stringify({quiet:true,reason:"late",summary:""})), 30000);');
    const verdict = await runGate(createCommandGate({ file, timeoutMs: 300 }), STATE);
    expect(verdict).toMatchObject({ kind: 'error', error: { kind: 'timeout', timeoutMs: 300 } });
    expect(gateEffect('enforce', verdict)).toEqual({ createTask: true, tag: 'heartbeat-gate:error' });
  });
  it('a script that kills itself with SIGKILL fails open', async () => {
    const file = await script('crash.mjs', 'process.stdout.write("{\\"quiet\\":"); process.kill(process.pid, "SIGKILL");');
    const verdict = await runGate(createCommandGate({ file }), STATE);
    expect(verdict).toMatchObject({ kind: 'error', error: { kind: 'crashed' } });
    if (verdict.kind === 'error') expect(verdict.error.message).toContain('SIGKILL');
    expect(gateEffect('enforce', verdict).tag).toBe('heartbeat-gate:error');
  });
  it('malformed JSON fails open', async () => {
    const file = await script('bad.mjs', 'console.log("{quiet: true, reason: nope");');
    const verdict = await runGate(createCommandGate({ file }), STATE);
    expect(verdict).toMatchObject({ kind: 'error', error: { kind: 'malformed' } });
    expect(gateEffect('shadow', verdict)).toEqual({ createTask: true, tag: 'heartbeat-gate:error' });
  });
  it('a wrongly typed result fails open', async () => {
    const file = await script('typed.mjs', 'console.log(JSON.stringify({quiet:"yes",reason:"r",summary:"s"}));');
    expect(await runGate(createCommandGate({ file }), STATE)).toMatchObject({ kind: 'error', error: { kind: 'malformed' } });
  });
  it('a non-zero exit and a missing file fail open', async () => {
    const file = await script('exit.mjs', 'console.error("no provider"); process.exit(3);');
    expect(await runGate(createCommandGate({ file }), STATE)).toMatchObject({ kind: 'error', error: { kind: 'exit-code', exitCode: 3 } });
    expect(await runGate(createCommandGate({ file: join(dir, 'missing') }), STATE)).toMatchObject({
      kind: 'error',
      error: { kind: 'unavailable' },
    });
  });
  it('the default timeout is the spec 60 s', () => {
    expect(DEFAULT_GATE_TIMEOUT_MS).toBe(60_000);
  });
});
