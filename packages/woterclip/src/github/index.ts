/**
 * @heartbeat-kit/woterclip/github — the gh CLI adapter of the IssueTracker port.
 * @module @heartbeat-kit/woterclip/github
 */
export {
  createGhIssueTracker,
  parseAuthLogin,
  parseJsonSequence,
  classifyGhFailure,
  checkGhVersion,
  parseGhVersion,
  MIN_GH_VERSION,
  type GhIssueTrackerOptions,
} from './gh-issue-tracker.js';
