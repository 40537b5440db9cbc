/**
 * @heartbeat-kit/bullmq/testing — in-memory fakes for fleet tests and benchmarks: the `fake`
 * scanner set and a resolver that knows only it. The worker has no default resolver; pass
 * `createFakeResolver()` explicitly where fakes are wanted.
 * @module @heartbeat-kit/bullmq/testing
 */
export { createFakeScanners, type FakeScannerOptions } from './fake-scanners.js';
export { createFakeResolver } from './fake-resolver.js';
