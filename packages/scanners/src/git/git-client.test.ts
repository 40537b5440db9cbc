import { describe, expect, it } from 'vitest';
import { describeGitError } from './git-client.js';

describe('describeGitError', () => {
  it('gives the first meaningful stderr line of a failed git call, sanitised', () => {
    const stderr = '\nfatal: cannot lock \x1b[31m/repo/wt\u202e\ngit hint: second line\n';
    expect(describeGitError({ kind: 'git-failed', exitCode: 128, stderr })).toBe('git exited 128: fatal: cannot lock /repo/wt');
  });

  it('sanitises parse errors that quote a hostile path', () => {
    const message = 'unexpected status entry: ZZ evil\u0007[x](https://attacker.example)';
    expect(describeGitError({ kind: 'malformed-output', message })).toBe('unexpected status entry: ZZ evilx (https://attacker.example)');
  });
});
