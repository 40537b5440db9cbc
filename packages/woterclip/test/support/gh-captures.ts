import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CommandOutput } from '@heartbeat-kit/core';
import { labelEditRequest, labelIdsRequest } from '../../src/github/gh-label-edit.js';
import type { DoubleFault } from './github-api-double.js';

/** Where the fixtures captured from real gh live (each file's `source` says how it was made). */
export const CAPTURED_DIR = join(import.meta.dirname, '..', 'fixtures', 'gh-captured');

/** One run of real gh: argv, exit code and both streams, the double's port written `localhost:PORT`. */
export interface CapturedRun {
  readonly argv: readonly string[];
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** A gh invocation to capture, against `fixtureRepo()` in order (some change the state). */
export interface CaptureScenario {
  readonly name: string;
  readonly argv: readonly string[];
  readonly input?: string;
  readonly fault?: DoubleFault;
  /** Run with no `GH_ENTERPRISE_TOKEN`: gh as a user who never logged in. */
  readonly dropToken?: boolean;
}

const LIST = ['issue', 'list', '--repo=o/r', '--assignee=@me', '--state=open', '--json=number,title,labels,createdAt', '--limit=100'];
const API_ISSUE = ['api', 'repos/o/r/issues/5'];
const GRAPHQL = ['api', 'graphql', '--input=-'];
const EDIT_IDS = labelIdsRequest('o', 'r', 5, ['in-progress', 'agent-blocked', 'agent-working']);
const EDIT_ONE_REQUEST = labelEditRequest('I_3000000005', ['LA_in-progress'], ['LA_agent-working']);
const EDIT_UNKNOWN = ['issue', 'edit', '5', '--repo=o/r', '--add-label=in-review'];

/** Every gh argv our adapters run (woterclip's gh-issue-tracker, runbook's gh-pull-request-states), plus failures. */
export const CAPTURE_SCENARIOS: readonly CaptureScenario[] = [
  { name: 'version', argv: ['--version'] },
  { name: 'auth-status-ok', argv: ['auth', 'status'] },
  { name: 'auth-status-bad-credentials', argv: ['auth', 'status'], fault: 'unauthenticated' },
  { name: 'auth-status-not-logged-in', argv: ['auth', 'status'], dropToken: true },
  { name: 'issue-list-not-logged-in', argv: LIST, dropToken: true },
  { name: 'issue-list-json', argv: LIST },
  { name: 'issue-view-json', argv: ['issue', 'view', '5', '--repo=o/r', '--json=number,title,body,labels,comments'] },
  { name: 'issue-view-labels', argv: ['issue', 'view', '5', '--repo=o/r', '--json=labels'] },
  { name: 'issue-view-not-found', argv: ['issue', 'view', '999', '--repo=o/r', '--json=labels'] },
  { name: 'issue-edit-labels', argv: ['issue', 'edit', '5', '--repo=o/r', '--add-label=agent-working', '--remove-label=backend'] },
  { name: 'issue-edit-unknown-label', argv: EDIT_UNKNOWN },
  { name: 'issue-comment', argv: ['issue', 'comment', '5', '--repo=o/r', '--body-file=-'], input: 'Heartbeat #1\n\n`$(id)` --help' },
  {
    name: 'issue-comment-control-characters',
    argv: ['issue', 'comment', '7', '--repo=o/r', '--body-file=-'],
    input: 'a\u0001b\rc\u007fd\u001b[31me\tf\u0007',
  },
  { name: 'issue-view-control-characters', argv: ['issue', 'view', '7', '--repo=o/r', '--json=comments'] },
  { name: 'issue-close', argv: ['issue', 'close', '6', '--repo=o/r'] },
  {
    name: 'issue-create',
    argv: ['issue', 'create', '--repo=o/r', '--title=Child', '--body-file=-', '--label=backend', '--assignee=@me'],
    input: 'Parent: #5',
  },
  {
    name: 'issue-create-unknown-label',
    argv: ['issue', 'create', '--repo=o/r', '--title=Child', '--body-file=-', '--label=in-review', '--assignee=@me'],
    input: 'x',
  },
  { name: 'label-list-json', argv: ['label', 'list', '--repo=o/r', '--limit=200', '--json=name'] },
  {
    name: 'label-create',
    argv: ['label', 'create', '--repo=o/r', '--color=FBCA04', '--description=WoterClip status', '--', 'in-progress'],
  },
  { name: 'label-create-exists', argv: ['label', 'create', '--repo=o/r', '--color=1D76DB', '--', 'backend'] },
  { name: 'api-issue', argv: API_ISSUE },
  { name: 'api-issue-not-found', argv: ['api', 'repos/o/r/issues/999'] },
  { name: 'api-sub-issues-add', argv: ['api', 'repos/o/r/issues/5/sub_issues', '-F', 'sub_issue_id=3000000007'] },
  { name: 'api-sub-issues-add-again', argv: ['api', 'repos/o/r/issues/5/sub_issues', '-F', 'sub_issue_id=3000000007'] },
  { name: 'api-sub-issues-add-string-id', argv: ['api', 'repos/o/r/issues/5/sub_issues', '-f', 'sub_issue_id=3000000006'] },
  { name: 'api-sub-issues-add-second', argv: ['api', 'repos/o/r/issues/5/sub_issues', '-F', 'sub_issue_id=3000000006'] },
  { name: 'api-sub-issues-list', argv: ['api', '--paginate', 'repos/o/r/issues/5/sub_issues?per_page=100'] },
  { name: 'api-sub-issues-list-two-pages', argv: ['api', '--paginate', 'repos/o/r/issues/5/sub_issues?per_page=1'] },
  { name: 'api-sub-issues-list-empty', argv: ['api', '--paginate', 'repos/o/r/issues/7/sub_issues?per_page=100'] },
  { name: 'pr-view-merged', argv: ['pr', 'view', '12', '--json', 'state,mergedAt', '--repo=o/r'] },
  { name: 'pr-view-open', argv: ['pr', 'view', '13', '--json', 'state,mergedAt', '--repo=o/r'] },
  { name: 'pr-view-not-found', argv: ['pr', 'view', '99', '--json', 'state,mergedAt', '--repo=o/r'] },
  { name: 'issue-list-bad-credentials', argv: LIST, fault: 'unauthenticated' },
  { name: 'api-issue-bad-credentials', argv: API_ISSUE, fault: 'unauthenticated' },
  { name: 'issue-edit-bad-credentials', argv: EDIT_UNKNOWN, fault: 'unauthenticated' },
  { name: 'pr-view-bad-credentials', argv: ['pr', 'view', '12', '--json', 'state,mergedAt', '--repo=o/r'], fault: 'unauthenticated' },
  { name: 'issue-list-rate-limited', argv: LIST, fault: 'rate-limited' },
  { name: 'issue-edit-rate-limited', argv: EDIT_UNKNOWN, fault: 'rate-limited' },
  { name: 'api-issue-rate-limited', argv: API_ISSUE, fault: 'rate-limited' },
  { name: 'auth-status-rate-limited', argv: ['auth', 'status'], fault: 'rate-limited' },
  { name: 'issue-list-secondary-rate-limit', argv: LIST, fault: 'secondary-rate-limit' },
  { name: 'api-issue-secondary-rate-limit', argv: API_ISSUE, fault: 'secondary-rate-limit' },
  // The label transition as the adapter sends it (src/github/gh-label-edit.ts): ids, then one mutation.
  { name: 'api-graphql-label-ids', argv: GRAPHQL, input: EDIT_IDS },
  { name: 'api-graphql-label-ids-not-found', argv: GRAPHQL, input: labelIdsRequest('o', 'r', 999, ['backend']) },
  { name: 'api-graphql-label-edit-rate-limited', argv: GRAPHQL, input: EDIT_ONE_REQUEST, fault: 'rate-limited' },
  { name: 'api-graphql-label-edit-bad-credentials', argv: GRAPHQL, input: EDIT_ONE_REQUEST, fault: 'unauthenticated' },
  { name: 'api-graphql-label-edit', argv: GRAPHQL, input: EDIT_ONE_REQUEST },
  // `label create` as the adapter always runs it: with a colour (gh 2.23 picks a random one without).
  { name: 'label-create-default-color', argv: ['label', 'create', '--repo=o/r', '--color=EDEDED', '--', 'triage'] },
];

/** A committed capture as the process runner's output (what the adapters classify). */
export function capturedOutput(name: string): CommandOutput & { readonly argv: readonly string[] } {
  const run = JSON.parse(readFileSync(join(CAPTURED_DIR, `${name}.json`), 'utf8')) as CapturedRun;
  return { argv: run.argv, exitCode: run.exitCode, stdout: run.stdout, stderr: run.stderr, durationMs: 0 };
}
