import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_HEARTBEAT_FILE, renderHeartbeatMarkdown } from '@heartbeat-kit/core';
import { EXIT, type Command } from '../io.js';
import { resolvePath } from '../wiring/cycle-deps.js';

/** Help text of `heartbeat-kit init`. */
export const INIT_HELP = `Usage: heartbeat-kit init [--cwd DIR] [--force] [--json]

Writes a commented .claude/HEARTBEAT.md with the defaults of spec 000. Never overwrites an
existing file unless --force. The heartbeat itself never creates this file.

Exit codes: 0 written, 1 file exists (nothing written), 2 usage error, 3 write failed.
`;

/** `heartbeat-kit init`: writes the default HEARTBEAT.md when asked. */
export const initCommand: Command = async (argv, io) => {
  let values;
  try {
    ({ values } = parseArgs({ args: [...argv], options: { cwd: { type: 'string' }, force: { type: 'boolean' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals: false }));
  } catch (error) {
    io.stderr(`heartbeat-kit init: ${(error as Error).message}. Fix: see 'heartbeat-kit init --help'.\n`);
    return EXIT.usage;
  }
  if (values.help) {
    io.stdout(INIT_HELP);
    return EXIT.ok;
  }
  const file = join(resolvePath(io.cwd, values.cwd ?? '.'), DEFAULT_HEARTBEAT_FILE);
  const report = (status: string): void => {
    io.stdout(values.json ? `${JSON.stringify({ status, file })}\n` : status === 'exists' ? `${file} already exists; not overwritten (use --force)\n` : `wrote ${file}\n`);
  };
  try {
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, renderHeartbeatMarkdown(), { flag: values.force ? 'w' : 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      report('exists');
      return EXIT.rejected;
    }
    io.stderr(`heartbeat-kit init: cannot write ${file}: ${(error as Error).message}\n`);
    return EXIT.failure;
  }
  report('written');
  return EXIT.ok;
};
