import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createProcessRunner } from '@heartbeat-kit/core/node';
import { scriptedRunner } from '../../test/support/context.js';
import { describeGitError, worktreeStatuses } from './git-client.js';

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

describe('worktreeStatuses', () => {
  const paths = ['/w/a', '/w/b', '/w/c', '/w/d', '/w/e', '/w/f', '/w/g', '/w/h'];
  it('keeps the whole blocks a batch printed before it timed out, and counts the time it waited', async () => {
    // Batches of two; the first timed out while on its second worktree, after a's block and part of b's.
    const runner = scriptedRunner([
      [
        /heartbeatkit\.worktree=\/w\/a .* for-each-repo/,
        { error: { kind: 'timeout', file: 'git', timeoutMs: 10_000, stdout: '## main\0 M one\0## feat\0?? tw', stderr: '' } },
      ],
      [/for-each-repo/, { stdout: '## x\0## y\0 M z\0' }],
    ]);
    const meter = { ms: 0 };
    const answers = await worktreeStatuses({ runner }, '/w', paths, new AbortController().signal, meter);
    expect(answers).toEqual([
      [{ x: ' ', y: 'M', path: 'one' }],
      undefined,
      [],
      [{ x: ' ', y: 'M', path: 'z' }],
      [],
      [{ x: ' ', y: 'M', path: 'z' }],
      [],
      [{ x: ' ', y: 'M', path: 'z' }],
    ]);
    expect(meter.ms).toBeGreaterThanOrEqual(10_000);
  });

  it('answers nothing from a batch that failed outright, and leaves paths git would expand to the caller', async () => {
    const runner = scriptedRunner([[/for-each-repo/, { exitCode: 1, stderr: "git: 'for-each-repo' is not a git command.\n" }]]);
    const answers = await worktreeStatuses({ runner }, '/w', paths, new AbortController().signal, { ms: 0 });
    expect(answers.every((a) => a === undefined)).toBe(true);
    const ok = scriptedRunner([[/for-each-repo/, { stdout: '## x\0## y\0' }]]);
    const mixed = await worktreeStatuses(
      { runner: ok },
      '/w',
      ['~/a', ...paths, '%(prefix)/b', '/w/new\nline'],
      new AbortController().signal,
      { ms: 0 },
    );
    expect(mixed).toEqual([undefined, ...paths.map(() => []), undefined, undefined]);
    expect(ok.calls).toHaveLength(4);
  });

  describe('with real git', () => {
    const made: string[] = [];
    afterEach(() => {
      for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
    });

    it('reads each worktree against its own index, also when the batch runs from a linked worktree', async () => {
      const root = mkdtempSync(join(tmpdir(), 'hk-git-batch-'));
      made.push(root);
      const main = join(root, 'main');
      const git = (cwd: string, ...args: string[]) =>
        execFileSync('git', ['-C', cwd, '-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], { stdio: 'pipe' });
      git(root, 'init', '-q', '-b', 'main', main);
      writeFileSync(join(main, 'shared.txt'), 'x\n');
      git(main, 'add', '.');
      git(main, 'commit', '-q', '-m', 'one');
      // Each linked worktree's branch has files the others do not: another index would see them as changes.
      // Eight, so the batches hold more than one worktree each (a batch of one is left to the caller).
      const linked = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((name) => {
        const path = join(root, name);
        git(main, 'worktree', 'add', '-q', '-b', name, path);
        writeFileSync(join(path, `${name}.txt`), `${name}\n`);
        git(path, 'add', '.');
        git(path, 'commit', '-q', '-m', name);
        return path;
      });
      writeFileSync(join(linked[7]!, 'dirty.txt'), 'pending\n');
      const paths = [main, ...linked];
      for (const from of [main, linked[0]!]) {
        const answers = await worktreeStatuses({ runner: createProcessRunner() }, from, paths, new AbortController().signal, { ms: 0 });
        const clean = paths.slice(0, -1).map(() => []);
        expect({ from, answers }).toEqual({ from, answers: [...clean, [{ x: '?', y: '?', path: 'dirty.txt' }]] });
      }
    });
  });
});
