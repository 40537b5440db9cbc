/**
 * @heartbeat-kit/core/tokenizer — an opt-in `TokenEstimator` (from `@heartbeat-kit/core`) backed by a real BPE tokenizer
 * (js-tiktoken, an optional peer dependency: `npm install js-tiktoken`). The default estimate stays
 * `ceil(chars / 4)`; this subpath is for embedders who want the message budget and the cost alert
 * counted in tokens. Claude's own tokenizer is not public: an OpenAI encoding is a closer
 * estimate than characters / 4, not Claude's exact count.
 * @module @heartbeat-kit/core/tokenizer
 */
export { loadTiktokenEstimator, type TiktokenEncodingName, type TokenizerUnavailable } from './tiktoken-estimator.js';
