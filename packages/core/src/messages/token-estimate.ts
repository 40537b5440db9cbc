/** Estimates the tokens a text costs a model. Injected so an embedder can use a real tokenizer. */
export type TokenEstimator = (text: string) => number;

/** The default estimate: one token per four characters, rounded up. */
export const estimateTokensByChars: TokenEstimator = (text) => Math.ceil(text.length / 4);
