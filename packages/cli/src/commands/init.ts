import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_HEARTBEAT_FILE, renderHeartbeatMarkdown } from '@heartbeat-kit/core/host';
import { EXIT } from '../exit-codes.js';
import type { Command } from '../io.js';
import { createCliRunner } from '../wiring/cli-runner.js';
import { resolvePath } from '../wiring/cycle-deps.js';
import { locateProject } from '../wiring/project-location.js';

/** Help text of `heartbeat-kit init`. */
export const INIT_HELP = `Usage: heartbeat-kit init [--cwd DIR] [--force] [--json]

Writes a commented .claude/HEARTBEAT.md with the defaults of spec 000. Never overwrites an
existing file unless --force. The heartbeat itself never creates this file. It then says where
'heartbeat-kit cycle' will keep its state: inside the repository's git directory, never in the
working tree (it writes nothing there itself).

Commit the file (git add .claude/HEARTBEAT.md) to share it with every worktree and clone; the
cycle never counts the config it reads as an uncommitted change.

Exit codes: 0 written, 1 file exists (nothing written), 2 usage error, 3 write failed.
`;

/** `heartbeat-kit init`: writes the default HEARTBEAT.md when asked. */
export const initCommand: Command = async (argv, io) => {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: { cwd: { type: 'string' }, force: { type: 'boolean' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    io.stderr(`heartbeat-kit init: ${(error as Error).message}. Fix: see 'heartbeat-kit init --help'.\n`);
    return EXIT.usage;
  }
  if (values.help) {
    io.stdout(INIT_HELP);
    return EXIT.ok;
  }
  const dir = resolvePath(io.cwd, values.cwd ?? '.');
  const file = join(dir, DEFAULT_HEARTBEAT_FILE);
  const report = async (status: string): Promise<void> => {
    // Where the cycle will keep state, so nobody goes looking for a .heartbeat/ in the project.
    const located = await locateProject(dir, { runner: createCliRunner(io), env: io.env, flag: '--cwd' });
    const stateDir = located.ok ? located.value.stateDir : null;
    if (values.json) {
      io.stdout(`${JSON.stringify({ status, file, stateDir })}\n`);
      return;
    }
    io.stdout(status === 'exists' ? `${file} already exists; not overwritten (use --force)\n` : `wrote ${file}\n`);
    // Untracked, it would sit in the worktree as a change; the cycle never counts it, but a
    // teammate's clone and every new worktree only get this config once it is committed.
    if (status === 'written' && located.ok)
      io.stdout(`commit it to share it with every worktree: git add ${DEFAULT_HEARTBEAT_FILE} && git commit\n`);
    io.stdout(
      located.ok ? `heartbeat state will be kept in ${located.value.stateDir} (git never sees it)\n` : `note: ${located.message}\n`,
    );
  };
  try {
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, renderHeartbeatMarkdown(), { flag: values.force ? 'w' : 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      await report('exists');
      return EXIT.rejected;
    }
    io.stderr(`heartbeat-kit init: cannot write ${file}: ${(error as Error).message}\n`);
    return EXIT.failure;
  }
  await report('written');
  return EXIT.ok;
};
