import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { createProcessRunner } from '@heartbeat-kit/core/node';
import { errAsync, ResultAsync } from 'neverthrow';
import { createGhIssueTracker } from '../../src/github/index.js';
import type { IssueTracker, TrackerError } from '../../src/index.js';
import type { FakeIssue, MemoryIssueTracker, MemoryIssueTrackerOptions, TrackerCall, TrackerOperation } from '../../src/testing/index.js';
import type { DoubleIssue } from './github-api-double.js';
import { REAL_GH, type RealGhWorld } from './real-gh.js';

const MUTATING: ReadonlySet<TrackerOperation> = new Set(['editLabels', 'createLabel', 'comment', 'close', 'createIssue', 'addSubIssue']);

/** An issue of the double seen as the memory tracker shows it (a copy: changing it changes nothing). */
function asFakeIssue(i: DoubleIssue, host: string): FakeIssue {
  return {
    number: i.number,
    title: i.title,
    body: i.body,
    labels: [...i.labels],
    comments: i.comments.map((c) => ({
      author: c.author,
      body: c.body,
      createdAt: c.createdAt,
      url: `https://${host}/o/r/issues/${i.number}#issuecomment-${c.id}`,
    })),
    createdAt: i.createdAt,
    state: i.state === 'OPEN' ? 'open' : 'closed',
    assignedToMe: i.assignees.includes('octocat'),
    subIssues: [...i.subIssues],
  };
}

/**
 * The memory tracker's test handles over the gh adapter running the real gh against the world's
 * API double, so a suite written for `createMemoryIssueTracker` runs unchanged through real gh:
 * the seed becomes the double's repository (reset in place: one double per test file), reads of
 * `issues`/`labelColors` look at the double's state, `calls`/`failOn`/`beforeCall` wrap the port
 * (a `failOn` error is the port's answer; gh's own failures are covered by beat-matrix.test.ts).
 */
export function createGhBackedTracker(world: RealGhWorld, options: MemoryIssueTrackerOptions = {}): MemoryIssueTracker {
  const repo = world.double.repo;
  const seeds = options.issues ?? [];
  const repoLabels = options.repoLabels ?? [...new Set(seeds.flatMap((i) => i.labels ?? []))];
  repo.labels.splice(0, repo.labels.length, ...repoLabels.map((name) => ({ name, color: 'ededed', description: '' })));
  let commentId = 100;
  repo.issues.splice(
    0,
    repo.issues.length,
    ...seeds.map((s): DoubleIssue => ({
      number: s.number,
      id: 3_000_000_000 + s.number,
      title: s.title,
      body: s.body ?? '',
      state: s.state === 'closed' ? 'CLOSED' : 'OPEN',
      labels: [...(s.labels ?? [])],
      assignees: s.assignedToMe === false ? [] : ['octocat'],
      comments: (s.comments ?? []).map((c) => ({ id: (commentId += 1), author: c.author, body: c.body, createdAt: c.createdAt })),
      subIssues: [...(s.subIssues ?? [])],
      createdAt: s.createdAt ?? '2026-01-01T00:00:00Z',
    })),
  );
  world.double.fault(undefined);
  // A fresh gh cache per tracker: gh 2.23 caches some answers in $TMPDIR/gh-cli-cache.
  const tmp = mkdtempSync(join(world.dir, 'tmp-'));
  const gh = createGhIssueTracker({
    runner: createProcessRunner({ baseEnv: { ...world.env, TMPDIR: tmp, XDG_CACHE_HOME: tmp } }),
    repo: 'o/r',
    gh: REAL_GH,
  });

  const calls: TrackerCall[] = [];
  const failures = new Map<TrackerOperation, TrackerError>();
  let hook: ((call: TrackerCall) => void | Promise<void>) | undefined;
  const wrap =
    <A extends unknown[], T>(op: TrackerOperation, f: (...args: A) => ResultAsync<T, TrackerError>) =>
    (...args: A): ResultAsync<T, TrackerError> => {
      const record = { op, args };
      const before = async (): Promise<void> => {
        calls.push(record);
        if (hook !== undefined) await hook(record);
      };
      return ResultAsync.fromSafePromise<void, TrackerError>(before()).andThen(() => {
        const failure = failures.get(op);
        return failure === undefined ? f(...args) : errAsync(failure);
      });
    };
  const ports = Object.fromEntries(
    (Object.keys(gh) as TrackerOperation[]).map((op) => [op, wrap(op, gh[op] as (...a: unknown[]) => ResultAsync<unknown, TrackerError>)]),
  ) as unknown as IssueTracker;

  class DoubleIssues extends Map<number, FakeIssue> {
    override get(n: number): FakeIssue | undefined {
      const i = repo.issues.find((x) => x.number === n);
      return i === undefined ? undefined : asFakeIssue(i, world.double.host);
    }
    override has(n: number): boolean {
      return repo.issues.some((x) => x.number === n);
    }
  }

  return {
    ...ports,
    issues: new DoubleIssues(),
    get repoLabels() {
      return new Set(repo.labels.map((l) => l.name));
    },
    // Colours of the labels created during the test (the memory tracker's upper-case hex).
    get labelColors() {
      return new Map(repo.labels.filter((l) => !repoLabels.includes(l.name)).map((l) => [l.name, l.color.toUpperCase()]));
    },
    calls,
    failOn: (op, error) => {
      if (error === undefined) failures.delete(op);
      else failures.set(op, error);
    },
    beforeCall: (h) => {
      hook = h;
    },
    addComment: (n, author, body, createdAt) => {
      repo.issues.find((i) => i.number === n)?.comments.push({ id: (commentId += 1), author, body, createdAt });
    },
    mutations: () => calls.filter((c) => MUTATING.has(c.op)),
  };
}
