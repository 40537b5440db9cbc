import { describe, expect, it } from 'vitest';
import { isOneShotCommand, oneShotV8Flags } from './v8-flags.js';

describe('oneShotV8Flags', () => {
  it('a one-shot command gets the small young generation and the late TurboFan', () => {
    for (const command of ['cycle', 'history', 'check-liveness', 'plan', '--help', undefined])
      expect(oneShotV8Flags(command)).toEqual(['--semi-space-growth-factor=1', '--interrupt-budget=1000000']);
  });

  it('loop and fleet (a worker runs for days) keep V8 defaults', () => {
    expect(oneShotV8Flags('loop')).toEqual([]);
    expect(oneShotV8Flags('fleet')).toEqual([]);
    expect([isOneShotCommand('loop'), isOneShotCommand('fleet'), isOneShotCommand('cycle'), isOneShotCommand(undefined)]).toEqual([
      false,
      false,
      true,
      true,
    ]);
  });
});
