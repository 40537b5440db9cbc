import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProcessRunner } from '@heartbeat-kit/core/node';
import { afterAll, describe, expect, it } from 'vitest';
import { createGhIssueTracker } from '../src/github/index.js';
import { runBeat, type DispatchRequest, type IssueTracker } from '../src/index.js';
import { harness, report, type HarnessOptions } from './beat-harness.js';
import type { DoubleIssue, RecordedRequest } from './support/github-api-double.js';
import { emptyRepo, REAL_GH, startRealGhWorld } from './support/real-gh.js';

// The WoterClip beat through the gh adapter, the same scenarios against (a) the fake gh of
// test/fixtures/fake-gh and (b) the real gh 2.23.0 talking to the GitHub API double.

type Fault = 'not-logged-in' | 'expired' | 'rate-limited';

interface Seeded {
  readonly tracker: IssueTracker;
  readonly labels: (n: number) => readonly string[];
  readonly comments: (n: number) => readonly string[];
  readonly subIssues: (n: number) => readonly number[];
  readonly issue: (n: number) => { readonly title: string; readonly body: string } | undefined;
  /** From now on gh fails this way; `onComment`: only posting a comment fails (mid-work). */
  readonly fault: (fault: Fault, onComment?: boolean) => void;
  readonly requests: () => readonly RecordedRequest[];
}

interface Backend {
  readonly name: string;
  readonly seed: (issues: readonly { number: number; title: string; labels: string[] }[]) => Promise<Seeded>;
}

const LABELS = ['agent-working', 'agent-blocked', 'in-progress', 'in-review', 'backend', 'frontend', 'priority:high', 'priority:low'];
const dir = mkdtempSync(join(tmpdir(), 'woterclip-beat-matrix-'));
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(cleanups.map((c) => c()));
  rmSync(dir, { recursive: true, force: true });
});

const fakeGh = join(import.meta.dirname, 'fixtures', 'fake-gh', 'gh.mjs');
chmodSync(fakeGh, 0o755);
let stateCounter = 0;

const fakeBackend: Backend = {
  name: 'fake gh (test/fixtures/fake-gh)',
  seed: (issues) => {
    stateCounter += 1;
    const path = join(dir, `state-${stateCounter}.json`);
    writeFileSync(
      path,
      JSON.stringify({
        repo: 'o/r',
        login: 'octocat',
        authMode: 'ok',
        labels: LABELS,
        seq: 100,
        argv: [],
        failures: [],
        issues: issues.map((i) => ({
          ...i,
          id: 3_000_000_000 + i.number,
          body: '',
          comments: [],
          createdAt: '2026-07-01T00:00:00Z',
          state: 'OPEN',
          assignees: ['octocat'],
          subIssues: [],
        })),
      }),
    );
    type State = {
      issues: { number: number; title: string; body: string; labels: string[]; comments: { body: string }[]; subIssues: number[] }[];
      authMode: string;
      failures: unknown[];
    };
    const read = (): State => JSON.parse(readFileSync(path, 'utf8')) as State;
    const find = (n: number) => read().issues.find((i) => i.number === n);
    const tracker = createGhIssueTracker({ runner: createProcessRunner(), repo: 'o/r', gh: fakeGh, env: { FAKE_GH_STATE: path } });
    return Promise.resolve({
      tracker,
      labels: (n) => find(n)?.labels ?? [],
      comments: (n) => (find(n)?.comments ?? []).map((c) => c.body),
      subIssues: (n) => find(n)?.subIssues ?? [],
      issue: (n) => find(n),
      fault: (fault, onComment = false) => {
        const state = read();
        if (onComment)
          state.failures.push({
            argv: ['issue', 'comment'],
            message:
              fault === 'rate-limited'
                ? 'GraphQL: API rate limit exceeded for user ID 1.'
                : 'HTTP 401: Bad credentials (https://api.github.com/graphql)',
          });
        else state.authMode = fault === 'not-logged-in' ? 'none' : fault;
        writeFileSync(path, JSON.stringify(state));
      },
      requests: () => [],
    });
  },
};

const realBackend: Backend = {
  name: 'real gh 2.23.0 + GitHub API double',
  seed: async (issues) => {
    const w = await startRealGhWorld(
      emptyRepo({
        labels: LABELS.map((name) => ({ name, color: 'ededed', description: '' })),
        issues: issues.map((i): DoubleIssue => ({
          ...i,
          labels: [...i.labels],
          id: 3_000_000_000 + i.number,
          body: '',
          state: 'OPEN',
          assignees: ['octocat'],
          comments: [],
          subIssues: [],
          createdAt: '2026-07-01T00:00:00Z',
        })),
      }),
    );
    cleanups.push(w.close);
    let env = w.env;
    const tracker = createGhIssueTracker({
      // The environment is read per run, so a fault can take the token away mid-test.
      runner: { run: (request) => createProcessRunner({ baseEnv: env }).run(request) },
      repo: 'o/r',
      gh: REAL_GH,
    });
    const find = (n: number) => w.double.repo.issues.find((i) => i.number === n);
    return {
      tracker,
      labels: (n) => find(n)?.labels ?? [],
      comments: (n) => (find(n)?.comments ?? []).map((c) => c.body),
      subIssues: (n) => find(n)?.subIssues ?? [],
      issue: (n) => find(n),
      fault: (fault, onComment = false) => {
        if (fault === 'not-logged-in') {
          const { GH_ENTERPRISE_TOKEN: _token, GH_HOST: _host, ...rest } = env;
          env = { ...rest, GH_CONFIG_DIR: mkdtempSync(join(w.dir, 'fresh-config-')) };
        } else
          w.double.fault(
            fault === 'expired' ? 'unauthenticated' : 'rate-limited',
            onComment ? (r) => r.operation === 'CommentCreate' : undefined,
          );
      },
      requests: () => w.double.requests,
    };
  },
};

/** The double's request log, one line per request, for the report (docs and the note). */
export function formatRequestLog(requests: readonly RecordedRequest[]): string {
  return requests
    .map(
      (r) =>
        `${r.status} ${r.method} ${r.path}${r.operation === undefined ? '' : ` ${r.operation} ${JSON.stringify(r.variables)}`}${r.body === undefined ? '' : ` ${JSON.stringify(r.body)}`}`,
    )
    .join('\n');
}

const ISSUE = { number: 20, title: 'epic', labels: ['backend', 'priority:high'] };

for (const backend of [fakeBackend, realBackend]) {
  describe(`WoterClip beat through the gh adapter: ${backend.name}`, () => {
    const beat = (s: Seeded, script: NonNullable<HarnessOptions['script']>) => {
      const h = harness({ issues: [], script });
      return runBeat({ ...h.deps, tracker: s.tracker });
    };

    it('one full beat: pick up, dispatch, comment, label transition, sub-issues created and attached', async () => {
      const s = await backend.seed([ISSUE]);
      const result = await beat(s, [
        (r: DispatchRequest) =>
          report(
            'decomposed',
            {
              subIssues: [
                { title: 'part one', persona: 'backend' },
                { title: 'part two', persona: 'frontend', blocking: true },
              ],
            },
            r,
          ),
        (r: DispatchRequest) => report('completed', {}, r),
      ]);
      expect(result.worked[0]).toMatchObject({ issue: 20, status: 'decomposed' });
      expect(s.issue(21)).toMatchObject({ title: 'part one', body: 'Parent: #20' });
      expect(s.labels(21)).toEqual(expect.arrayContaining(['backend', 'priority:high']));
      expect(s.labels(22)).toEqual(expect.arrayContaining(['frontend', 'priority:high']));
      expect(s.subIssues(20)).toEqual([21, 22]);
      expect(s.comments(20)[0]).toContain('### Created sub-issues\n- #21 — part one (backend)\n- #22 — part two (frontend)');
      expect([...s.labels(20)].sort()).toEqual(['backend', 'priority:high']);
      if (backend === realBackend) {
        writeFileSync(join(tmpdir(), 'woterclip-real-gh-beat-requests.log'), `${formatRequestLog(s.requests())}\n`);
        expect(s.requests().every((r) => r.status < 300)).toBe(true);
      }
    });

    for (const fault of ['not-logged-in', 'expired', 'rate-limited'] as const) {
      it(`${fault} at the start: blocked_exit, nothing posted, labels intact`, async () => {
        const s = await backend.seed([ISSUE]);
        s.fault(fault);
        const result = await beat(s, [(r: DispatchRequest) => report('completed', {}, r)]);
        expect(result.exit).toBe('blocked-exit');
        expect(result.stopReason).toBe('blocked_exit');
        expect(result.messages.join('\n')).toMatch(fault === 'rate-limited' ? /gh auth (status|login)|rate limit/ : /gh auth login/);
        expect(s.labels(20)).toEqual(['backend', 'priority:high']);
        expect(s.comments(20)).toEqual([]);
      });
    }

    for (const fault of ['rate-limited', 'expired'] as const) {
      it(`${fault} mid-work (posting the report): blocked_exit; only agent-working is left, as documented`, async () => {
        const s = await backend.seed([ISSUE]);
        s.fault(fault, true);
        const result = await beat(s, [(r: DispatchRequest) => report('completed', {}, r)]);
        expect(result.stopReason).toBe('blocked_exit');
        expect(result.messages.join('\n')).toContain(fault === 'rate-limited' ? 'rate limit' : 'Bad credentials');
        expect([...s.labels(20)].sort()).toEqual(['agent-working', 'backend', 'priority:high']);
        expect(s.comments(20)).toEqual([]);
      });
    }
  });
}
