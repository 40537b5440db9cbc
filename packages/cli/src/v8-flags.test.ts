import { describe, expect, it } from 'vitest';
import { isOneShotCommand, oneShotV8Flags } from './v8-flags.js';

describe('oneShotV8Flags', () => {
  it('a one-shot command gets the small young generation and no compiling tiers', () => {
    for (const command of ['cycle', 'history', 'check-liveness', 'plan', 'woterclip', '--help', undefined])
      expect(oneShotV8Flags(command)).toEqual(['--semi-space-growth-factor=1', '--interrupt-budget=1000000', '--no-opt', '--no-sparkplug']);
  });

  it('replay, whose own JavaScript is the work (a recording of any size), keeps the compiling tiers', () => {
    expect(oneShotV8Flags('replay')).toEqual(['--semi-space-growth-factor=1', '--interrupt-budget=1000000']);
  });

  it('never --lite-mode or --jitless: fetch (webhook sinks, pings) compiles WebAssembly, which V8 aborts on without a JIT', () => {
    for (const command of ['cycle', 'replay', 'woterclip', 'runbook', undefined])
      expect(oneShotV8Flags(command).filter((flag) => /lite-mode|jitless/.test(flag))).toEqual([]);
  });

  it('loop, fleet (a worker runs for days) and mcp (a server for a whole agent session) keep V8 defaults', () => {
    expect(oneShotV8Flags('loop')).toEqual([]);
    expect(oneShotV8Flags('fleet')).toEqual([]);
    expect(oneShotV8Flags('mcp')).toEqual([]);
    expect(['loop', 'fleet', 'mcp', 'cycle', undefined].map(isOneShotCommand)).toEqual([false, false, false, true, true]);
  });
});
