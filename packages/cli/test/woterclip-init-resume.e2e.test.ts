import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { INIT_LABELS } from '@heartbeat-kit/woterclip';
import { describe, expect, it } from 'vitest';
import { useBuiltCli, useTempDirs } from './support/cli-world.js';

const cli = useBuiltCli();
const tempDir = useTempDirs();
const fakeGh = join(import.meta.dirname, '..', '..', 'woterclip', 'test', 'fixtures', 'fake-gh', 'gh.mjs');

describe('woterclip init --labels without gh, then with gh (issue 26 item 9)', () => {
  it('writes the files and says labels need gh; the same command later creates only the labels', async () => {
    const root = tempDir('hk-wc-resume-');
    const repo = join(root, 'repo');
    const noGh = join(root, 'no-gh');
    const withGh = join(root, 'with-gh');
    for (const dir of [repo, noGh, withGh]) mkdirSync(dir);
    const state = join(root, 'gh.json');
    writeFileSync(
      state,
      JSON.stringify({ repo: 'o/r', login: 'octocat', authMode: 'ok', seq: 100, argv: [], labels: ['bug'], issues: [] }),
    );
    writeFileSync(join(withGh, 'gh'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(fakeGh)} "$@"\n`);
    chmodSync(join(withGh, 'gh'), 0o755);
    const argv = ['woterclip', 'init', '--cwd', repo, '--repo', 'o/r', '--board-user', 'boss', '--labels'];
    const env = { HOME: root, FAKE_GH_STATE: state };

    const first = await cli.run(argv, { ...env, PATH: noGh });
    expect(first.code).toBe(3);
    expect(first.stdout).toBe('');
    expect(first.stderr).toContain('files written, labels not created');
    expect(first.stderr).toContain('the labels need gh');
    expect(first.stderr).toContain('heartbeat-kit woterclip init --repo o/r --labels` again; it creates only the labels');
    const config = readFileSync(join(repo, '.woterclip', 'config.yaml'), 'utf8');

    const second = await cli.run([...argv, '--json'], { ...env, PATH: `${withGh}:/usr/bin:/bin` });
    expect(second.stderr).toBe('');
    expect(second.code).toBe(0);
    const report = JSON.parse(second.stdout) as { files: string[]; kept: string[]; labelsCreated: string[] };
    expect(report.files).toEqual([]);
    expect(report.kept).toHaveLength(4);
    expect(report.labelsCreated).toEqual(INIT_LABELS.map((l) => l.name));
    expect(readFileSync(join(repo, '.woterclip', 'config.yaml'), 'utf8')).toBe(config);
  });
});
