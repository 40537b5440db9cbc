import { describe, expect, it } from 'vitest';
import type { IssueTracker } from '../../src/index.js';

/** An issue to seed a tracker with. */
export interface ContractIssue {
  readonly number: number;
  readonly title: string;
  readonly body?: string;
  readonly labels?: readonly string[];
  readonly open?: boolean;
  readonly mine?: boolean;
  readonly comments?: readonly { readonly author: string; readonly body: string; readonly createdAt: string }[];
}

/** What a contract run starts from. */
export interface ContractSeed {
  readonly login: string;
  readonly labels: readonly string[];
  readonly issues: readonly ContractIssue[];
}

/** Builds a tracker over `seed`. */
export type TrackerFactory = (seed: ContractSeed) => Promise<IssueTracker>;

/** Titles and bodies a hostile user can write: shell syntax, leading dashes, escapes, @mentions. */
export const HOSTILE = [
  '$(touch /tmp/pwned); `id` && rm -rf ~ || echo "x" > /dev/null',
  '--help',
  '-R other/repo --body pwned',
  'Esc \u001b[31mred\u001b[0m and \u0007 bell',
  '@everyone please look; \'single\' "double" \\backslash\\',
] as const;

const seed: ContractSeed = {
  login: 'octocat',
  labels: ['backend', 'agent-working', 'agent-blocked', 'priority:high'],
  issues: [
    {
      number: 1,
      title: 'First',
      body: 'Body one',
      labels: ['backend'],
      comments: [{ author: 'boss', body: 'Please fix.', createdAt: '2026-07-21T09:00:00Z' }],
    },
    { number: 2, title: HOSTILE[0], labels: [] },
    { number: 3, title: 'Closed', open: false },
    { number: 4, title: 'Not mine', mine: false },
  ],
};

/**
 * gh's rendering of control characters in API text (captured: issue-view-control-characters):
 * C0 in caret notation (`\u001b` → `^[`, `\u0007` → `^G`), tab, newline and CR kept, DEL dropped.
 */
export function caretNotation(text: string): string {
  // eslint-disable-next-line no-control-regex -- rewriting control characters is the point
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, (c) =>
    c === '\u007f' ? '' : `^${String.fromCharCode(c.charCodeAt(0) + 64)}`,
  );
}

/**
 * The IssueTracker contract: the in-memory fake and the gh adapter must both pass it.
 * `controlsAsCarets`: the tracker reads text back as gh does, control characters in caret notation.
 */
export function issueTrackerContract(name: string, factory: TrackerFactory, controlsAsCarets = false): void {
  describe(`IssueTracker contract: ${name}`, () => {
    it('reports the authenticated login', async () => {
      const t = await factory(seed);
      expect((await t.authStatus())._unsafeUnwrap()).toEqual({ login: 'octocat' });
    });

    it('lists open issues assigned to me with label names, hostile titles byte-exact', async () => {
      const t = await factory(seed);
      const inbox = (await t.listInbox())._unsafeUnwrap();
      expect(inbox.map((i) => i.number).sort()).toEqual([1, 2]);
      expect(inbox.find((i) => i.number === 1)?.labels).toEqual(['backend']);
      expect(inbox.find((i) => i.number === 2)?.title).toBe(HOSTILE[0]);
    });

    it('views an issue with body, labels and comments (author login, url)', async () => {
      const t = await factory(seed);
      const issue = (await t.viewIssue(1))._unsafeUnwrap();
      expect(issue).toMatchObject({ number: 1, title: 'First', body: 'Body one', labels: ['backend'] });
      expect(issue.comments).toEqual([expect.objectContaining({ author: 'boss', body: 'Please fix.', createdAt: '2026-07-21T09:00:00Z' })]);
      expect((await t.viewLabels(1))._unsafeUnwrap()).toEqual(['backend']);
    });

    it('a missing issue is a not-found error, not a crash', async () => {
      const t = await factory(seed);
      expect((await t.viewIssue(999))._unsafeUnwrapErr().kind).toBe('not-found');
    });

    it('edits labels atomically; an unknown label fails as label-not-found until created', async () => {
      const t = await factory(seed);
      (await t.editLabels(1, { add: ['agent-working'] }))._unsafeUnwrap();
      (await t.editLabels(1, { add: ['agent-blocked'], remove: ['agent-working'] }))._unsafeUnwrap();
      expect([...(await t.viewLabels(1))._unsafeUnwrap()].sort()).toEqual(['agent-blocked', 'backend']);
      const missing = (await t.editLabels(1, { add: ['in-review'] }))._unsafeUnwrapErr();
      expect(missing).toMatchObject({ kind: 'label-not-found', label: 'in-review' });
      expect((await t.viewLabels(1))._unsafeUnwrap()).not.toContain('in-review');
      (await t.createLabel('in-review'))._unsafeUnwrap();
      (await t.editLabels(1, { add: ['in-review'] }))._unsafeUnwrap();
      expect((await t.viewLabels(1))._unsafeUnwrap()).toContain('in-review');
    });

    it('lists repository labels; creates one with a colour and description; an existing one fails', async () => {
      const t = await factory(seed);
      expect([...(await t.listLabels())._unsafeUnwrap()].sort()).toEqual([...seed.labels].sort());
      (await t.createLabel('in-progress', { color: 'FBCA04', description: 'WoterClip status' }))._unsafeUnwrap();
      expect((await t.listLabels())._unsafeUnwrap()).toContain('in-progress');
      expect((await t.createLabel('backend', { color: '1D76DB' })).isErr()).toBe(true);
    });

    it('a label name starting with a dash is a label, not an option', async () => {
      const t = await factory(seed);
      (await t.createLabel('--repo=evil/x'))._unsafeUnwrap();
      (await t.editLabels(1, { add: ['--repo=evil/x'] }))._unsafeUnwrap();
      expect((await t.viewLabels(1))._unsafeUnwrap()).toContain('--repo=evil/x');
    });

    it('posts comments byte-exact, whatever they contain, and returns their URL', async () => {
      const t = await factory(seed);
      for (const body of HOSTILE) {
        const posted = (await t.comment(2, body))._unsafeUnwrap();
        // github.com, or the GitHub Enterprise host gh talks to (the API double).
        expect(posted.url).toMatch(/^https:\/\/(?:github\.com|localhost:\d+)\/o\/r\/issues\/2#issuecomment-\d+$/);
      }
      const issue = (await t.viewIssue(2))._unsafeUnwrap();
      // Real gh (2.23) prints C0 control characters of API text in caret notation (ESC as ^[):
      // what the tracker reads back is the posted text with those, and nothing else, rewritten.
      expect(issue.comments.map((c) => c.body)).toEqual(HOSTILE.map((h) => (controlsAsCarets ? caretNotation(h) : h)));
      expect(issue.comments.every((c) => c.author === 'octocat')).toBe(true);
    });

    it('close leaves labels alone and drops the issue from the inbox', async () => {
      const t = await factory(seed);
      (await t.close(1))._unsafeUnwrap();
      expect((await t.listInbox())._unsafeUnwrap().map((i) => i.number)).toEqual([2]);
      expect((await t.viewLabels(1))._unsafeUnwrap()).toEqual(['backend']);
    });

    it('creates hostile-titled children assigned to me, attaches them by REST id and lists them', async () => {
      const t = await factory(seed);
      const children: number[] = [];
      for (const title of HOSTILE.slice(1, 3)) {
        const made = (await t.createIssue({ title, body: `-- hostile\n\nParent: #1`, labels: ['backend'] }))._unsafeUnwrap();
        const id = (await t.issueId(made.number))._unsafeUnwrap();
        expect(id).not.toBe(made.number);
        (await t.addSubIssue(1, id))._unsafeUnwrap();
        children.push(made.number);
      }
      const inbox = (await t.listInbox())._unsafeUnwrap();
      expect(children.map((c) => inbox.find((i) => i.number === c)?.title)).toEqual([HOSTILE[1], HOSTILE[2]]);
      expect((await t.listSubIssues(1))._unsafeUnwrap()).toEqual(children.map((number) => ({ number, state: 'open' })));
      expect((await t.viewIssue(children[0]!))._unsafeUnwrap().body).toBe('-- hostile\n\nParent: #1');
      expect((await t.listSubIssues(2))._unsafeUnwrap()).toEqual([]);
    });
  });
}
