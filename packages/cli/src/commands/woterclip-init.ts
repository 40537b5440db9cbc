import { lstat, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { CommandRunner } from '@heartbeat-kit/core';
import { INIT_LABELS, renderInitFiles, type InitLabel } from '@heartbeat-kit/woterclip';
import { createGhIssueTracker } from '@heartbeat-kit/woterclip/github';
import { err, ok, type Result } from 'neverthrow';
import { commandFailure, defineCommand, type CommandFailure, type DeclaredCommand } from '../cli-kernel/index.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { createCliRunner } from '../wiring/cli-runner.js';
import { resolveCwd } from './woterclip-wiring.js';

/** What the init command may be given instead of the real adapters. */
export interface WoterclipInitOverrides {
  readonly runner?: CommandRunner;
  /** The gh executable. */
  readonly gh?: string;
}

const REPO = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;
const LOGIN = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;

const exists = async (path: string): Promise<boolean> =>
  lstat(path).then(
    () => true,
    (error: NodeJS.ErrnoException) => error.code !== 'ENOENT',
  );

/** What a file that exists holds: exactly what this run would write, or something else (or unreadable). */
const sameText = async (path: string, text: string): Promise<boolean> =>
  readFile(path, 'utf8').then(
    (found) => found === text,
    () => false,
  );

/**
 * Which files an init writes, given which exist: none exist → all; every one exists and labels
 * are asked for → none (a resumed `--labels`, the files kept as they are, edited or not); the
 * ones that exist are exactly as this run would write them → the missing ones (an earlier run
 * stopped part-way); otherwise the init is refused (`conflicts`: the files with other content).
 */
export function planInitFiles(
  paths: readonly string[],
  present: ReadonlySet<string>,
  identical: ReadonlySet<string>,
  labels: boolean,
): { readonly write: readonly string[]; readonly kept: readonly string[]; readonly conflicts: readonly string[] } {
  const kept = paths.filter((p) => present.has(p));
  const missing = paths.filter((p) => !present.has(p));
  if (labels && missing.length === 0) return { write: [], kept, conflicts: [] };
  const conflicts = kept.filter((p) => !identical.has(p));
  return conflicts.length > 0 ? { write: [], kept: [], conflicts } : { write: missing, kept, conflicts: [] };
}

/** The flags of `woterclip init`, parsed and checked. */
interface InitValues {
  readonly cwd: string;
  readonly repo?: string;
  readonly boardUser?: string;
  readonly labels: boolean;
  readonly dryRun: boolean;
  readonly json: boolean;
}

type InitFile = ReturnType<typeof renderInitFiles>[number];
type InitPlan = ReturnType<typeof planInitFiles>;
type Failed = Result<never, CommandFailure>;

/** An init that stopped: `--json` gets `{"status": "error", …}` on stdout, stderr the one line. */
function failure(io: CliIo, values: InitValues) {
  return (code: ExitCode, message: string, extra: object = {}): Failed => {
    if (values.json) io.stdout(`${JSON.stringify({ status: 'error', message, ...extra })}\n`);
    return commandFailure(message, code);
  };
}

/** `--repo`, `--board-user` and `--labels` checked before anything is read or written. */
function initFlagProblem(values: InitValues): string | undefined {
  if (values.repo !== undefined && !REPO.test(values.repo))
    return `--repo ${JSON.stringify(values.repo)} is not OWNER/NAME; use e.g. --repo acme/widgets.`;
  if (values.boardUser !== undefined && !LOGIN.test(values.boardUser))
    return `--board-user ${JSON.stringify(values.boardUser)} is not a GitHub login.`;
  if (values.labels && values.repo === undefined) return '--labels needs --repo OWNER/NAME (the repository the labels are created on).';
  return undefined;
}

/** Which files to write, given what is already in the repository. */
async function planFor(values: InitValues, files: readonly InitFile[]): Promise<InitPlan> {
  const present = new Set<string>();
  const identical = new Set<string>();
  for (const f of files) {
    const path = join(values.cwd, f.path);
    if (!(await exists(path))) continue;
    present.add(f.path);
    if (await sameText(path, f.text)) identical.add(f.path);
  }
  return planInitFiles(
    files.map((f) => f.path),
    present,
    identical,
    values.labels,
  );
}

function printDryRun(io: CliIo, values: InitValues, files: readonly InitFile[], labels: readonly InitLabel[]): void {
  if (values.json) {
    io.stdout(`${JSON.stringify({ status: 'dry-run', files, labels })}\n`);
    return;
  }
  const out: string[] = ['Dry run — would write:'];
  for (const f of files) out.push('', `--- ${f.path}`, f.text.trimEnd());
  if (labels.length > 0)
    out.push(
      '',
      `Would create these labels on ${values.repo ?? ''} (skipping existing ones):`,
      ...labels.map((l) => `  ${l.name} #${l.color}`),
    );
  io.stdout(`${out.join('\n')}\n`);
}

/** Writes the planned files, each only if it is still absent; the paths written. */
async function writeFiles(values: InitValues, files: readonly InitFile[], plan: InitPlan, fail: ReturnType<typeof failure>) {
  const written: string[] = [];
  for (const f of files.filter((file) => plan.write.includes(file.path))) {
    const path = join(values.cwd, f.path);
    try {
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, f.text, { flag: 'wx' });
      written.push(f.path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return fail(
        code === 'EEXIST' ? EXIT.rejected : EXIT.failure,
        `cannot write ${f.path} (${code ?? (error as Error).message}); written so far: ${written.join(', ') || 'none'}.`,
        { written },
      );
    }
  }
  return ok(written);
}

/** Creates the labels `--repo` lacks through gh; the ones created and the ones already there. */
async function createLabels(
  step: { io: CliIo; values: InitValues & { repo: string }; overrides: WoterclipInitOverrides; fail: ReturnType<typeof failure> },
  labels: readonly InitLabel[],
  done: { written: readonly string[]; kept: readonly string[] },
) {
  const { io, values, overrides, fail } = step;
  const runner = overrides.runner ?? createCliRunner(io, { timeoutMs: 60_000, profile: 'gh' });
  const tracker = createGhIssueTracker({
    runner,
    repo: values.repo,
    cwd: values.cwd,
    ...(overrides.gh === undefined ? {} : { gh: overrides.gh }),
  });
  const existing = await tracker.listLabels();
  if (existing.isErr()) {
    const again = `heartbeat-kit woterclip init --repo ${values.repo} --labels`;
    const fix =
      existing.error.kind === 'unavailable'
        ? `the labels need gh (https://cli.github.com): install it, run \`gh auth login\`, then run \`${again}\` again; it creates only the labels`
        : `run \`gh auth login\` if needed, then \`${again}\` again; it creates only the labels`;
    return fail(
      EXIT.failure,
      `files ${done.written.length > 0 ? 'written' : 'kept'}, labels not created: ${existing.error.message}. Fix: ${fix}.`,
      {
        written: done.written,
        kept: done.kept,
      },
    );
  }
  const have = new Set(existing.value);
  const created: string[] = [];
  const skipped: string[] = [];
  for (const label of labels) {
    if (have.has(label.name)) {
      skipped.push(label.name);
      continue;
    }
    const made = await tracker.createLabel(label.name, { color: label.color, description: label.description });
    if (made.isErr())
      return fail(EXIT.failure, `files written, but label ${label.name} could not be created: ${made.error.message}.`, {
        written: done.written,
        labelsCreated: created,
      });
    created.push(label.name);
  }
  return ok({ created, skipped });
}

function printWritten(
  io: CliIo,
  values: InitValues,
  result: { written: readonly string[]; kept: readonly string[]; created: readonly string[]; skipped: readonly string[] },
): void {
  const { written, kept, created, skipped } = result;
  const placeholders = [
    ...(values.repo === undefined ? ['github.repo'] : []),
    ...(values.boardUser === undefined ? ['github.board_user'] : []),
  ];
  if (values.json) {
    io.stdout(
      `${JSON.stringify({ status: 'written', files: written, kept, labelsCreated: created, labelsSkipped: skipped, placeholders })}\n`,
    );
    return;
  }
  const out = [...written.map((f) => `wrote ${f}`), ...(kept.length > 0 ? [`kept ${kept.join(', ')} (already there)`] : [])];
  if (values.labels)
    out.push(
      `labels on ${values.repo ?? ''}: created ${created.length === 0 ? 'none' : created.join(', ')}${skipped.length > 0 ? `; already there: ${skipped.join(', ')}` : ''}`,
    );
  if (placeholders.length > 0)
    out.push(`Set ${placeholders.join(' and ')} in .woterclip/config.yaml (they hold placeholders; the beat refuses them).`);
  out.push('Next: heartbeat-kit woterclip beat --dry-run   (what a beat would pick; changes nothing)');
  io.stdout(`${out.join('\n')}\n`);
}

/** Runs `heartbeat-kit woterclip init` with parsed flags. */
export async function runWoterclipInit(
  values: InitValues,
  io: CliIo,
  overrides: WoterclipInitOverrides = {},
): Promise<Result<ExitCode, CommandFailure>> {
  const fail = failure(io, values);
  const problem = initFlagProblem(values);
  if (problem !== undefined) return fail(EXIT.usage, problem);
  const files = renderInitFiles({
    ...(values.repo === undefined ? {} : { repo: values.repo }),
    ...(values.boardUser === undefined ? {} : { boardUser: values.boardUser }),
  });
  const plan = await planFor(values, files);
  if (plan.conflicts.length > 0) {
    if (values.json) io.stdout(`${JSON.stringify({ status: 'exists', files: plan.conflicts })}\n`);
    else
      io.stderr(
        `heartbeat-kit woterclip init: refusing to overwrite ${plan.conflicts.join(', ')}; nothing was written. Move the file(s) aside to start afresh, or edit them.\n`,
      );
    return ok(EXIT.rejected);
  }
  const labels: readonly InitLabel[] = values.labels ? INIT_LABELS : [];
  if (values.dryRun) {
    printDryRun(io, values, files, labels);
    return ok(EXIT.ok);
  }
  const written = await writeFiles(values, files, plan, fail);
  if (written.isErr()) return err(written.error);
  const done = { written: written.value, kept: plan.kept };
  const { repo } = values;
  const made =
    labels.length > 0 && repo !== undefined
      ? await createLabels({ io, values: { ...values, repo }, overrides, fail }, labels, done)
      : ok({ created: [], skipped: [] });
  if (made.isErr()) return err(made.error);
  printWritten(io, values, { ...done, ...made.value });
  return ok(EXIT.ok);
}

/** `heartbeat-kit woterclip init`: writes the config and the Orchestrator persona (and, with --labels, the labels). */
export function createWoterclipInitCommand(overrides: WoterclipInitOverrides): DeclaredCommand {
  return defineCommand(
    {
      name: 'woterclip init',
      usage: '[options]',
      description: `Sets WoterClip up in the repository in --cwd. Writes:
  .woterclip/config.yaml                      the repository config (schema version 2)
  .woterclip/personas/orchestrator/SOUL.md    the Orchestrator persona: triage, never code
  .woterclip/personas/orchestrator/TOOLS.md
  .woterclip/personas/orchestrator/config.yaml
Never overwrites: when a file exists with other content, nothing is written. Resumable: files
that exist exactly as this run would write them are kept, and with --labels, once every file
exists (as written or edited since), only the labels are created — so an init whose labels
failed (no gh, not logged in) finishes by running the same command again.`,
      flags: {
        cwd: { type: 'string', value: 'DIR', help: 'repository root (default: current directory)' },
        repo: { type: 'string', value: 'OWNER/NAME', help: 'the GitHub repository (default: the "{{REPO}}" placeholder, to edit)' },
        'board-user': { type: 'string', value: 'LOGIN', help: 'the Board\'s GitHub login (default: the "{{USER_NAME}}" placeholder)' },
        labels: {
          type: 'boolean',
          help: `also create the labels WoterClip uses on --repo through gh
(agent-working, agent-blocked, backend, frontend, in-progress,
in-review, priority:high, priority:low); existing labels are skipped`,
        },
        'dry-run': { type: 'boolean', help: 'show the files and labels it would write; write nothing' },
        json: { type: 'boolean', help: 'print one JSON object' },
      },
      helpColumn: 24,
      exitCodes: [
        [EXIT.ok, 'written (or dry run)'],
        [EXIT.rejected, 'a file exists (nothing written)'],
        [EXIT.usage, 'usage error'],
        [EXIT.failure, 'a write or gh failed'],
      ],
    },
    ({ flags, io }) =>
      runWoterclipInit(
        {
          cwd: resolveCwd(io, flags.cwd),
          ...(flags.repo === undefined ? {} : { repo: flags.repo }),
          ...(flags['board-user'] === undefined ? {} : { boardUser: flags['board-user'] }),
          labels: flags.labels === true,
          dryRun: flags['dry-run'] === true,
          json: flags.json === true,
        },
        io,
        overrides,
      ),
  );
}
