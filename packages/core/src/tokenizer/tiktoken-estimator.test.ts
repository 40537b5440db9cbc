import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderWorkFound } from '../messages/render-messages.js';
import { loadTiktokenEstimator } from './index.js';
import { createFinding } from '../../test/support/cobuilder-categories.js';

describe('loadTiktokenEstimator (opt-in real tokenizer)', () => {
  it('counts real BPE tokens, which differ from ceil(chars / 4)', async () => {
    const estimate = (await loadTiktokenEstimator('o200k_base'))._unsafeUnwrap();
    expect(estimate('')).toBe(0);
    expect(estimate('hello world')).toBe(2);
    // A long run of one character is few tokens, far under chars / 4.
    expect(estimate('a'.repeat(400))).toBeLessThan(100);
    const cl100k = (await loadTiktokenEstimator('cl100k_base'))._unsafeUnwrap();
    expect(cl100k('hello world')).toBe(2);
  });

  it('counts special-token text as plain text instead of throwing', async () => {
    const estimate = (await loadTiktokenEstimator())._unsafeUnwrap();
    expect(estimate('bead title <|endoftext|> <|fim_prefix|>')).toBeGreaterThan(5);
    fc.assert(
      fc.property(
        fc.string({ maxLength: 200 }),
        (text) => estimate(text) >= 0 && (text === '' ? estimate(text) === 0 : estimate(text) > 0),
      ),
    );
  });

  it('the "+N more" cut keeps a report under the message budget counted in real tokens', async () => {
    const estimate = (await loadTiktokenEstimator())._unsafeUnwrap();
    // Digits and punctuation cost a BPE tokenizer more than chars / 4 says: the budget holds in its count.
    const findings = Array.from({ length: 300 }, (_, i) =>
      createFinding({
        category: 'STALE_TASK',
        subject: `s-${i}`,
        line: `STALE TASK: bd-${i} ${'9.1,'.repeat(60)}`,
        action: `Check on bd-${i}`,
        short: `bd-${i}`,
      }),
    );
    const rendered = renderWorkFound({
      findings,
      cycle: 1,
      at: new Date('2026-02-19T14:50:00Z'),
      timeZone: 'UTC',
      budgetTokens: 2_000,
      estimateTokens: estimate,
    });
    expect(rendered.omitted).toBeGreaterThan(0);
    expect(rendered.estimatedTokens).toBe(estimate(rendered.message.content));
    expect(rendered.estimatedTokens).toBeLessThanOrEqual(2_000);
  });
});
