/**
 * GitHub adapters of @heartbeat-kit/runbook: PR states for `lift when #N merges` through `gh`.
 * @module @heartbeat-kit/runbook/github
 */
export { parseGhPrView, createGhPullRequestStates, type GhPullRequestStatesOptions } from './gh-pull-request-states.js';
