import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { DEFAULT_HEARTBEAT_FILE, renderHeartbeatMarkdown } from '@heartbeat-kit/core/host';
import { BUILTIN_CONFIG_SECTIONS } from '@heartbeat-kit/scanners';
import { ok } from 'neverthrow';
import { commandFailure, defineCommand } from '../cli-kernel/index.js';
import { EXIT } from '../exit-codes.js';
import { createCliRunner } from '../wiring/cli-runner.js';
import { resolvePath } from '../wiring/cycle-deps.js';
import { locateProject } from '../wiring/project-location.js';

/** `heartbeat-kit init`: writes the default HEARTBEAT.md when asked. */
export const initCommand = defineCommand(
  {
    name: 'init',
    usage: '[--cwd DIR] [--force] [--json]',
    description: `Writes a commented .claude/HEARTBEAT.md with the defaults of spec 000. Never overwrites an
existing file unless --force. The heartbeat itself never creates this file. It then says where
'heartbeat-kit cycle' will keep its state: inside the repository's git directory, never in the
working tree (it writes nothing there itself).

Commit the file (git add .claude/HEARTBEAT.md) to share it with every worktree and clone; the
cycle never counts the config it reads as an uncommitted change.`,
    flags: {
      cwd: { type: 'string', value: 'DIR', help: 'the project directory to write it in (default: current directory)' },
      force: { type: 'boolean', help: 'overwrite an existing file' },
      json: { type: 'boolean', help: 'print {"status": "written" | "exists", "file", "stateDir"}' },
    },
    exitCodes: [
      [EXIT.ok, 'written'],
      [EXIT.rejected, 'file exists (nothing written)'],
      [EXIT.usage, 'usage error'],
      [EXIT.failure, 'write failed'],
    ],
  },
  async ({ flags: values, io }) => {
    const dir = resolvePath(io.cwd, values.cwd ?? '.');
    const file = join(dir, DEFAULT_HEARTBEAT_FILE);
    const report = async (status: string): Promise<void> => {
      // Where the cycle will keep state, so nobody goes looking for a .heartbeat/ in the project.
      const located = await locateProject(dir, { runner: createCliRunner(io), env: io.env, flag: '--cwd' });
      const stateDir = located.isOk() ? located.value.stateDir : null;
      if (values.json) {
        io.stdout(`${JSON.stringify({ status, file, stateDir })}\n`);
        return;
      }
      io.stdout(status === 'exists' ? `${file} already exists; not overwritten (use --force)\n` : `wrote ${file}\n`);
      // Untracked, it would sit in the worktree as a change; the cycle never counts it, but a
      // teammate's clone and every new worktree only get this config once it is committed.
      if (status === 'written' && located.isOk())
        io.stdout(`commit it to share it with every worktree: git add ${DEFAULT_HEARTBEAT_FILE} && git commit\n`);
      io.stdout(
        located.isOk() ? `heartbeat state will be kept in ${located.value.stateDir} (git never sees it)\n` : `note: ${located.error}\n`,
      );
    };
    try {
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, renderHeartbeatMarkdown(undefined, { sections: BUILTIN_CONFIG_SECTIONS }), { flag: values.force ? 'w' : 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
        await report('exists');
        return ok(EXIT.rejected);
      }
      return commandFailure(`cannot write ${file}: ${(error as Error).message}`);
    }
    await report('written');
    return ok(EXIT.ok);
  },
);
