/**
 * @heartbeat-kit/woterclip/github — the gh CLI adapter of the IssueTracker port.
 * @module @heartbeat-kit/woterclip/github
 */
export { createGhIssueTracker, type GhIssueTrackerOptions } from './gh-issue-tracker.js';
export { parseAuthLogin, parseJsonSequence } from './gh-output.js';
export { classifyGhFailure, checkGhVersion, parseGhVersion, MIN_GH_VERSION } from './gh-failures.js';
