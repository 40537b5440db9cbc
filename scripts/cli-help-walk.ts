/**
 * The one walk over the CLI's `--help` pages: the top page, each command's page and, for a command
 * that lists subcommands, each subcommand's page. `docs-gen-sources.ts` renders docs/reference/cli.md
 * from it and `packages/cli/src/exit-codes.test.ts` checks each page's "Exit codes:" section, so the
 * two cannot drift apart in which pages they see.
 */
import { main, type CliIo } from '../packages/cli/src/index.js';

/** What `heartbeat-kit ...argv` printed (stdout and stderr together) and its exit code. */
export interface HelpText {
  readonly code: number;
  readonly text: string;
}

/** One command's or subcommand's page; a subcommand's carries its command's page as `parent`. */
export interface HelpPage extends HelpText {
  /** The command words, without `--help`. */
  readonly argv: readonly string[];
  readonly parent?: HelpText;
}

/** How a walk runs `heartbeat-kit ...argv`: in-process (the default) or the built bin as a process. */
export type HelpRunner = (argv: readonly string[]) => Promise<HelpText>;

/** Runs `heartbeat-kit ...argv` in-process with no project around it. */
async function inProcess(argv: readonly string[]): Promise<HelpText> {
  let text = '';
  const io: CliIo = {
    stdout: (t) => void (text += t),
    stderr: (t) => void (text += t),
    cwd: '/nonexistent',
    env: {},
    shutdownSignal: new AbortController().signal,
  };
  const code = await main(argv, io);
  return { code, text };
}

/**
 * Names listed two spaces in, the way every help text lists its commands and subcommands; an
 * example command line (`  heartbeat-kit runbook init && ...`) is indented the same way but names the program.
 */
function listedNames(text: string): string[] {
  return [...text.matchAll(/^ {2}([a-z][a-z0-9-]*)\b/gm)].map((m) => m[1] ?? '').filter((n) => n !== '' && n !== 'heartbeat-kit');
}

/** Every page, each command followed by its subcommands, as the help texts list them. */
export async function walkHelp(help: HelpRunner = inProcess): Promise<{ readonly top: HelpText; readonly pages: readonly HelpPage[] }> {
  const top = await help(['--help']);
  const pages: HelpPage[] = [];
  for (const command of listedNames(top.text)) {
    const own = await help([command, '--help']);
    pages.push({ argv: [command], ...own });
    if (!/<subcommand>|<[a-z-]+(\|[a-z-]+)+>/.test(own.text)) continue;
    for (const sub of listedNames(own.text)) pages.push({ argv: [command, sub], ...(await help([command, sub, '--help'])), parent: own });
  }
  return { top, pages };
}
