import { describe, expect, it } from 'vitest';
import { boundWarnings, MAX_CONFIG_WARNINGS } from './heartbeat-settings.js';

describe('config warnings are bounded', () => {
  it('keeps a few and summarises the rest in one line', () => {
    expect(boundWarnings(['a', 'b'])).toEqual(['a', 'b']);
    const many = Array.from({ length: 10_000 }, (_, i) => `w${i}`);
    const bounded = boundWarnings(many);
    expect(bounded).toHaveLength(MAX_CONFIG_WARNINGS + 1);
    expect(bounded.at(-1)).toContain(`${10_000 - MAX_CONFIG_WARNINGS} more`);
  });
});
