import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFinding, DEFAULT_HEARTBEAT_CONFIG, runCycle, type Scanner, scanOk, type Sleep } from '@heartbeat-kit/core';
import { heldWhy } from '@heartbeat-kit/core/host';
import { createProcessRunner } from '@heartbeat-kit/core/node';
import { createFakeClock, createMemoryStateStore } from '@heartbeat-kit/core/testing';
import { fakeAgentReplArgv } from '../../test/support/fake-agent-repl.js';
import { DEFAULT_TMUX_SINK_SETTINGS } from './tmux-sink-settings.js';
import { createTmuxSink } from './tmux-sink.js';

// A private tmux server: never the user's.
const socket = `hk-sink-${randomBytes(6).toString('hex')}`;
const dir = mkdtempSync(join(tmpdir(), 'hk-tmux-sink-'));
const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, ...args], { stdio: ['ignore', 'pipe', 'pipe'] }).toString();
const runner = createProcessRunner({ baseEnv: process.env });
const noWait: Sleep = { sleep: () => Promise.resolve() };
const message = (content: string, id = 'm1') => ({ kind: 'work_found' as const, content, summary: 's', at: '2026-02-19T10:00:00Z', id });

async function until(what: string, check: () => boolean): Promise<void> {
  // A backstop, not a time limit: the test timeout ends a real hang.
  for (let i = 0; i < 3600; i += 1) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}
const pane = (target: string) => tmux('capture-pane', '-p', '-t', target);
const logged = (log: string) =>
  readFileSync(log, 'utf8')
    .split('\n')
    .filter((l) => l !== '');

/** A session running the fake agent REPL, waiting at its prompt. */
async function agent(name: string): Promise<string> {
  const log = join(dir, `${name}.log`);
  tmux('new-session', '-d', '-s', name, '-x', '120', '-y', '30', ...fakeAgentReplArgv(log));
  await until(`${name}'s prompt`, () => /^>$/m.test(pane(`=${name}:`)));
  return log;
}

const sinkFor = (session: string, sleep: Sleep = noWait, window?: number) =>
  createTmuxSink({
    runner,
    tmuxArgs: ['-L', socket],
    session,
    ...(window === undefined ? {} : { window, pane: 0 }),
    sleep,
    idleMs: DEFAULT_TMUX_SINK_SETTINGS.idleMs,
    prompt: DEFAULT_TMUX_SINK_SETTINGS.prompt,
  });

beforeAll(() => {
  tmux('new-session', '-d', '-s', 'keepalive', 'sleep', '100000');
});
afterAll(() => {
  try {
    tmux('kill-server');
  } catch {
    // already gone
  }
  rmSync(join(process.env.TMUX_TMPDIR ?? '/tmp', `tmux-${process.getuid?.() ?? 0}`, socket), { force: true });
  rmSync(dir, { recursive: true, force: true });
});

const stale = createFinding({ category: 'GIT_STALE', subject: '/wt', line: 'STALE: /wt', action: 'Commit /wt', short: 'wt stale' });
const scanner: Scanner = { name: 'git', runsOutsideActiveHours: false, scan: () => Promise.resolve(scanOk('git', { findings: [stale] })) };
const settings = { config: DEFAULT_HEARTBEAT_CONFIG, timeZone: 'UTC' };

describe('tmux sink on a real tmux server with a fake agent REPL', () => {
  it('idle at its prompt: the report is delivered exactly once over two cycles', async () => {
    const log = await agent('idle-agent');
    const clock = createFakeClock(new Date('2026-02-19T10:00:00Z'));
    const deps = { clock, sleep: clock, stateStore: createMemoryStateStore(), sink: sinkFor('idle-agent'), scanners: [scanner] };
    const first = await runCycle(deps, settings);
    expect(first.delivery).toBe('delivered');
    const content = first.decision.message?.content ?? '';
    const lines = content.split('\n').filter((l) => l !== '');
    await until('the report in the agent', () => logged(log).includes(lines.at(-1)!));
    clock.advance(60_000);
    const second = await runCycle(deps, settings);
    expect(second.decision.message).toBeNull();
    // Every line of the report reached the agent once (then the Enter after the paste).
    for (const line of lines) expect(logged(log).filter((l) => l === line)).toHaveLength(1);
  });

  it('a half-typed line: held with why, nothing typed over it; after Enter the next cycle delivers', async () => {
    const log = await agent('typing-agent');
    tmux('send-keys', '-t', '=typing-agent:', '-l', '--', 'half typed');
    await until('the half-typed line', () => /^> half typed$/m.test(pane('=typing-agent:')));
    const clock = createFakeClock(new Date('2026-02-19T10:00:00Z'));
    const deps = { clock, sleep: clock, stateStore: createMemoryStateStore(), sink: sinkFor('typing-agent'), scanners: [scanner] };
    const held = await runCycle(deps, settings);
    expect(held.delivery).toBe('held');
    expect(held.deliveryWhy).toMatch(/tmux pane =typing-agent: has typed-but-unsent input/);
    expect(held.state.sinkBreaker).toBeUndefined();
    expect(pane('=typing-agent:')).toMatch(/^> half typed$/m);
    expect(logged(log)).toEqual([]);
    tmux('send-keys', '-t', '=typing-agent:', 'Enter');
    await until('the sent line', () => logged(log).includes('half typed') && /^>$/m.test(pane('=typing-agent:')));
    clock.advance(60_000);
    const delivered = await runCycle(deps, settings);
    expect(delivered.delivery).toBe('delivered');
    const last = (delivered.decision.message?.content ?? '')
      .split('\n')
      .filter((l) => l !== '')
      .at(-1)!;
    await until('the report', () => logged(log).includes(last));
    expect(logged(log)[0]).toBe('half typed');
  });

  it('one line is typed literally: a leading "-" and key names stay text', async () => {
    const log = await agent('literal-agent');
    const sent = await sinkFor('literal-agent').deliver(message('-t C-c Enter $(touch x)'));
    expect(sent.isOk() && sent.value).toBeUndefined();
    await until('the line', () => logged(log).includes('-t C-c Enter $(touch x)'));
  });

  it('output arriving while it waits: held as not idle', async () => {
    const log = await agent('busy-agent');
    // The wait between the two captures: the agent prints meanwhile (a line arrives and it prompts again).
    const busy: Sleep = {
      sleep: async () => {
        const before = pane('=busy-agent:');
        tmux('send-keys', '-t', '=busy-agent:', '-l', '--', 'output');
        tmux('send-keys', '-t', '=busy-agent:', 'Enter');
        await until(
          'new output',
          () => pane('=busy-agent:') !== before && /^>$/m.test(pane('=busy-agent:').trimEnd().split('\n').at(-1) ?? ''),
        );
      },
    };
    const sent = await sinkFor('busy-agent', busy).deliver(message('hello'));
    expect(sent._unsafeUnwrap()).toEqual({ state: 'held', why: 'tmux pane =busy-agent: changed within 2 s (not idle)' });
    expect(logged(log)).toEqual(['output']);
  });

  it('a pane that does not exist, or no prompt: a clear failure, a hold', async () => {
    const missing = await sinkFor('no-such-agent').deliver(message('hello'));
    expect(missing._unsafeUnwrapErr().code).toBe('no-pane');
    expect(missing._unsafeUnwrapErr().message).toMatch(/tmux pane =no-such-agent: does not exist \(can't find session/);
    const noWindow = await sinkFor('keepalive', noWait, 7).deliver(message('hello'));
    expect(noWindow._unsafeUnwrapErr().message).toMatch(/tmux pane =keepalive:7\.0 does not exist .*Fix:/);
    const noPrompt = await sinkFor('keepalive').deliver(message('hello'));
    expect(heldWhy(noPrompt._unsafeUnwrap())).toMatch(/^tmux pane =keepalive: shows no prompt/);
  });
});
