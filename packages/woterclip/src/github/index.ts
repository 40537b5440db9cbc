/**
 * @heartbeat-kit/woterclip/github — the gh CLI adapter of the IssueTracker port.
 * @packageDocumentation
 */
export { createGhIssueTracker, parseAuthLogin, parseJsonSequence, classifyGhFailure, type GhIssueTrackerOptions } from './gh-issue-tracker.js';
