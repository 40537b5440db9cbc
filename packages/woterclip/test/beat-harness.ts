import { createFakeClock, createMemoryLockStore } from '@heartbeat-kit/core/testing';
import type { LockRecord } from '@heartbeat-kit/core';
import type { HolderLiveness } from '@heartbeat-kit/core/host';
import type { DispatchReport, DispatchRequest } from '../src/index.js';
import { runBeat, type BeatOptions } from '../src/index.js';
import {
  createFakeToolProbe,
  createMemoryBeatLog,
  createMemoryIssueTracker,
  createMemoryWorkspace,
  createScriptedDispatcher,
  type FakeIssueSeed,
  type MemoryIssueTracker,
  type MemoryIssueTrackerOptions,
  type ScriptedDispatch,
} from '../src/testing/index.js';

/** The repo config used by most beat tests. */
export function configYaml(heartbeat = '', extra = ''): string {
  return `version: 2
github:
  board_user: "boss"
  repo: "o/r"
heartbeat:
  max_issues_per_heartbeat: 2
  stale_lock_hours: 4
${heartbeat}
labels:
  working: "agent-working"
  blocked: "agent-blocked"
personas:
  orchestrator: {path: "personas/orchestrator", label: null, is_default: true}
  backend: {path: "personas/backend", label: "backend"}
  frontend: {path: "personas/frontend", label: "frontend"}
${extra}`;
}

const persona = (model: string, tools = '[gh]') =>
  `name: P\nrequired_tools: ${tools}\nruntime:\n  model: ${model}\n  thinking_effort: high\n  max_turns: 300\n`;

/** Workspace files for `configYaml()`. */
export function workspaceFiles(config: string | undefined, backendTools = '[gh]'): Record<string, string> {
  return {
    ...(config === undefined ? {} : { 'config.yaml': config }),
    'personas/orchestrator/config.yaml': persona('haiku'),
    'personas/orchestrator/SOUL.md': 'You are the Orchestrator.',
    'personas/orchestrator/TOOLS.md': 'Use gh.',
    'personas/backend/config.yaml': persona('opus', backendTools),
    'personas/backend/SOUL.md': 'You are Backend.',
    'personas/backend/TOOLS.md': 'Use git.',
    'personas/frontend/config.yaml': persona('sonnet'),
    'personas/frontend/SOUL.md': 'You are Frontend.',
    'personas/frontend/TOOLS.md': '',
  };
}

/** A successful dispatch report with `status`. */
export function report(
  status: DispatchReport['outcome']['status'],
  extra: Partial<DispatchReport['outcome']> = {},
  request?: DispatchRequest,
): DispatchReport {
  const model = request?.model ?? 'opus';
  return {
    outcome: {
      status,
      summary: `did ${status}`,
      commits: [],
      prs: [],
      subIssues: [],
      nextSteps: [],
      needsManualVerification: false,
      ...extra,
    },
    model: { configured: model, actual: model, fallback: false },
  };
}

/** Options of {@link harness}. */
export interface HarnessOptions {
  readonly config?: string | null;
  readonly issues?: readonly FakeIssueSeed[];
  readonly script?: readonly ScriptedDispatch[];
  readonly now?: string;
  readonly repoLabels?: readonly string[];
  readonly executables?: readonly string[];
  readonly backendTools?: string;
  /** What the lock store knows of a holder's process (default unknown: the lock's age decides). */
  readonly lockLiveness?: (holder: LockRecord) => HolderLiveness;
}

/** Makes the tracker a harness uses: the memory fake, or the same handles over real gh (test/support/gh-backed-tracker.ts). */
export type TrackerBackend = (options: MemoryIssueTrackerOptions) => MemoryIssueTracker;
let trackerBackend: TrackerBackend = createMemoryIssueTracker;

/** Runs every later `harness()` of this test file on `backend` (run-beat-real-gh.test.ts: the beat suite through real gh). */
export function useTrackerBackend(backend: TrackerBackend): void {
  trackerBackend = backend;
}

/** Wires every port to a fake; `run` runs one beat. */
export function harness(options: HarnessOptions = {}) {
  const clock = createFakeClock(new Date(options.now ?? '2026-07-22T10:00:00Z'));
  const tracker = trackerBackend({
    login: 'octocat',
    issues: options.issues ?? [],
    repoLabels: options.repoLabels ?? [
      'agent-working',
      'agent-blocked',
      'in-progress',
      'in-review',
      'backend',
      'frontend',
      'priority:high',
      'priority:low',
    ],
  });
  const lock = createMemoryLockStore(options.lockLiveness === undefined ? {} : { liveness: options.lockLiveness });
  const log = createMemoryBeatLog();
  const dispatcher = createScriptedDispatcher(options.script ?? [(r: DispatchRequest) => report('completed', {}, r)]);
  const files = createMemoryWorkspace(
    workspaceFiles(options.config === null ? undefined : (options.config ?? configYaml()), options.backendTools),
  );
  const tools = createFakeToolProbe(options.executables ?? []);
  const deps = { tracker, dispatcher, lock, log, files, tools, clock, pid: 4821 };
  return { ...deps, deps, run: (beat: BeatOptions = {}) => runBeat(deps, beat) };
}
