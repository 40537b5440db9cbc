/**
 * GitHub adapters of @heartbeat-kit/runbook: PR states for `lift when #N merges` through `gh`.
 * @packageDocumentation
 */
export * from './gh-pull-request-states.js';
