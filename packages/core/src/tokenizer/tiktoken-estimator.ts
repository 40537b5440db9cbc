import { ResultAsync } from 'neverthrow';
import type { TokenEstimator } from '../messages/token-estimate.js';

/** The encodings offered: `o200k_base` (GPT-4o and later) or `cl100k_base` (GPT-4). */
export type TiktokenEncodingName = 'o200k_base' | 'cl100k_base';

/** Why no tokenizer could be loaded; `fix` says how to get one. */
export interface TokenizerUnavailable {
  readonly kind: 'tokenizer-unavailable';
  readonly message: string;
  readonly fix: string;
}

// Each encoding's ranks are a module of 1–2 MB: imported only when asked for.
const RANKS: Record<
  TiktokenEncodingName,
  () => Promise<{ default: { pat_str: string; special_tokens: Record<string, number>; bpe_ranks: string } }>
> = {
  o200k_base: () => import('js-tiktoken/ranks/o200k_base'),
  cl100k_base: () => import('js-tiktoken/ranks/cl100k_base'),
};

/**
 * Loads js-tiktoken with one encoding and returns a {@link TokenEstimator} that counts its tokens.
 * Text is counted as plain text: a finding that contains `<|endoftext|>` is tokens like any other,
 * never a thrown "disallowed special token". A missing js-tiktoken is an error, never a throw.
 *
 * @example
 * ```ts
 * import { loadTiktokenEstimator } from '@heartbeat-kit/core/tokenizer';
 *
 * const estimator = await loadTiktokenEstimator('o200k_base');
 * if (estimator.isOk()) console.log(estimator.value('WORK_FOUND: ORCH_FAILURE')); // a token count
 * else console.error(`${estimator.error.message} Fix: ${estimator.error.fix}`);
 * ```
 */
export function loadTiktokenEstimator(encoding: TiktokenEncodingName = 'o200k_base'): ResultAsync<TokenEstimator, TokenizerUnavailable> {
  return ResultAsync.fromPromise(
    (async () => {
      const [{ Tiktoken }, ranks] = await Promise.all([import('js-tiktoken/lite'), RANKS[encoding]()]);
      const tokenizer = new Tiktoken(ranks.default);
      const estimate: TokenEstimator = (text) => tokenizer.encode(text, [], []).length;
      return estimate;
    })(),
    (error): TokenizerUnavailable => ({
      kind: 'tokenizer-unavailable',
      message: `The tokenizer js-tiktoken could not be loaded (${(error as { code?: string }).code ?? 'load failed'}).`,
      fix: 'npm install js-tiktoken (an optional peer of @heartbeat-kit/core), or keep the default ceil(chars / 4) estimate',
    }),
  );
}
