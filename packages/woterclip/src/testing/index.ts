/**
 * @heartbeat-kit/woterclip/testing — in-memory fakes of the WoterClip ports: an issue tracker with
 * gh's semantics, a beat log over a string, workspace files, a tool probe and a scripted dispatcher.
 * @module @heartbeat-kit/woterclip/testing
 */
export {
  createMemoryIssueTracker,
  type MemoryIssueTracker,
  type MemoryIssueTrackerOptions,
  type FakeIssue,
  type FakeIssueSeed,
  type TrackerCall,
  type TrackerOperation,
} from './memory-issue-tracker.js';
export {
  createMemoryBeatLog,
  createMemoryWorkspace,
  createFakeToolProbe,
  createScriptedDispatcher,
  type MemoryBeatLog,
  type ScriptedDispatch,
  type ScriptedDispatcher,
} from './fakes.js';
