import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBuiltCli, useCliWorlds } from './support/cli-world.js';

const newWorld = useCliWorlds();
const cli = useBuiltCli();

describe('--state under a regular file (issue 26 item 9)', () => {
  it('says which step of the path is a file and how to fix it, for cycle and loop', async () => {
    const world = newWorld();
    writeFileSync(join(world.root, 'afile'), 'mine\n');
    for (const command of ['cycle', 'loop']) {
      const run = await cli.run([command, '--cwd', world.project, '--state', join(world.root, 'afile', 'sub', 'state.json')], world.env);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`${join(world.root, 'afile')} is a file, not a directory`);
      expect(run.stderr).toContain('Fix: pass --state a path whose directories are directories');
      expect(run.stderr).not.toMatch(/EEXIST|ENOTDIR/);
    }
  });
});
