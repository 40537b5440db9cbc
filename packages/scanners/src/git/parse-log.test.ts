import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fixture } from '../../test/support/fixtures.js';
import { classifyGitFailure, interpretCommitCount, interpretLastCommitEpoch } from './parse-log.js';

const out = (stdout: string, stderr: string, exitCode: number) => ({ stdout, stderr, exitCode, durationMs: 0 });

describe('interpretLastCommitEpoch', () => {
  it('reads the committer epoch', () => {
    expect(interpretLastCommitEpoch(out(fixture('git', 'log-1-ct.txt'), '', 0))._unsafeUnwrap()).toBe(1795177800);
    expect(interpretLastCommitEpoch(out(fixture('git', 'log-1-ct-branch.txt'), '', 0))._unsafeUnwrap()).toBeGreaterThan(1795177800);
  });

  it('reads an unborn branch (exit 128) and an empty log as no commit', () => {
    expect(interpretLastCommitEpoch(out('', fixture('git', 'log-1-ct-unborn.stderr.txt'), 128))._unsafeUnwrap()).toBeUndefined();
    expect(interpretLastCommitEpoch(out(fixture('git', 'log-1-ct-no-commits-since.txt'), '', 0))._unsafeUnwrap()).toBeUndefined();
  });

  it('types "not a repository" and junk output', () => {
    expect(interpretLastCommitEpoch(out('', fixture('git', 'status-not-a-repo.stderr.txt'), 128))._unsafeUnwrapErr().kind).toBe(
      'not-a-repo',
    );
    expect(interpretLastCommitEpoch(out('2026-11-20 12:30:00 +0000\n', '', 0))._unsafeUnwrapErr().kind).toBe('malformed-output');
  });

  it('round-trips any epoch and never throws', () => {
    fc.assert(
      fc.property(fc.nat(), (n) => {
        expect(interpretLastCommitEpoch(out(`${n}\n`, '', 0))._unsafeUnwrap()).toBe(n);
      }),
    );
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: 0, max: 255 }), (s, code) => {
        expect(() => interpretLastCommitEpoch(out(s, s, code))).not.toThrow();
      }),
    );
  });
});

describe('interpretCommitCount', () => {
  it('counts %H lines; none is zero', () => {
    const hashes =
      fixture('git', 'log-format-tab.txt')
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('\t')[0])
        .join('\n') + '\n';
    expect(interpretCommitCount(out(hashes, '', 0))._unsafeUnwrap()).toBe(3);
    expect(interpretCommitCount(out(fixture('git', 'log-since-oneline-none.txt'), '', 0))._unsafeUnwrap()).toBe(0);
  });

  it('types an unknown branch and rejects --oneline output', () => {
    expect(interpretCommitCount(out('', fixture('git', 'log-since-oneline-nobranch.stderr.txt'), 128))._unsafeUnwrapErr().kind).toBe(
      'unknown-revision',
    );
    expect(interpretCommitCount(out(fixture('git', 'log-since-oneline.txt'), '', 0))._unsafeUnwrapErr().kind).toBe('malformed-output');
  });

  it('counts generated hash lists exactly', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[0-9a-f]{40}$/), { maxLength: 20 }), (hashes) => {
        expect(interpretCommitCount(out(hashes.map((h) => `${h}\n`).join(''), '', 0))._unsafeUnwrap()).toBe(hashes.length);
      }),
    );
  });
});

describe('classifyGitFailure', () => {
  it('classifies the captured failures', () => {
    expect(classifyGitFailure(out('', fixture('git', 'worktree-list-not-a-repo.stderr.txt'), 128)).kind).toBe('not-a-repo');
    expect(classifyGitFailure(out('', 'fatal: something else\n', 1))).toEqual({
      kind: 'git-failed',
      exitCode: 1,
      stderr: 'fatal: something else\n',
    });
  });
});
