import type { CommandRequest } from '@heartbeat-kit/core';

/**
 * The listings a cycle may start before its scanners ask, by id: a closed set, and each request is
 * built here, in code, from facts the bin found itself (the project root from its own `git
 * rev-parse`, the `--tmux-socket` flag). A plan file names ids only, so nothing it holds ever
 * becomes a command line, an argument, a directory or an environment variable.
 *
 * Each entry is the request a built-in scanner makes (`speculative: true`), copied here because
 * this module loads while Node loads the command, before the scanners (a test runs the scanners
 * and checks that every request they mark speculative is one of these, field for field).
 */
export const PREFETCH_IDS = [
  'bd-ready-json',
  'bd-ready-plain',
  'bd-ready',
  'bd-list-in-progress-json-all',
  'bd-list-in-progress-json',
  'bd-list-in-progress-flat',
  'bd-list-in-progress',
  'tmux-list-sessions',
  'git-worktree-list',
] as const;

/** One listing the prefetch knows how to build. */
export type PrefetchId = (typeof PREFETCH_IDS)[number];

/** What the requests are built from: nothing read from the plan. */
export interface PrefetchContext {
  /** The project root (bd's workspace, the git scanners' repository), found as the project lookup finds it. */
  readonly project: string;
  /** `--tmux-socket NAME`, already checked to be a socket name; undefined: the user's server. */
  readonly tmuxSocket: string | undefined;
}

/** A listing request with every field the runner reads (no input, no spool). */
export type PrefetchRequest = Required<Pick<CommandRequest, 'file' | 'args'>> & Pick<CommandRequest, 'cwd' | 'env' | 'profile'>;

// As the scanners write them (packages/scanners: beads-source.ts, tmux-client.ts, git-client.ts).
const TMUX_SESSION_FORMAT =
  '#{session_name}\t#{session_id}\t#{session_activity}\t#{session_created}\t#{session_attached}\t#{session_windows}';
const GIT_ENV = { GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0' } as const;
/** `--tmux-socket`'s rule (heartbeat-flags.ts): anything else is refused by the command, so never prefetched. */
const SOCKET_NAME = /^[A-Za-z0-9._-]+$/;

const bd =
  (args: readonly string[]) =>
  (ctx: PrefetchContext): PrefetchRequest => ({ file: 'bd', args: [...args], cwd: ctx.project, profile: 'bd' });

const BUILDERS: Readonly<Record<PrefetchId, (ctx: PrefetchContext) => PrefetchRequest>> = {
  'bd-ready-json': bd(['ready', '--json']),
  'bd-ready-plain': bd(['ready', '--plain']),
  'bd-ready': bd(['ready']),
  'bd-list-in-progress-json-all': bd(['list', '--status=in_progress', '--json', '--limit', '0']),
  'bd-list-in-progress-json': bd(['list', '--status=in_progress', '--json']),
  'bd-list-in-progress-flat': bd(['list', '--status=in_progress', '--flat']),
  'bd-list-in-progress': bd(['list', '--status=in_progress']),
  'tmux-list-sessions': (ctx) => ({
    file: 'tmux',
    args: ['-u', ...(ctx.tmuxSocket === undefined ? [] : ['-L', ctx.tmuxSocket]), 'list-sessions', '-F', TMUX_SESSION_FORMAT],
    profile: 'tmux',
  }),
  'git-worktree-list': (ctx) => ({
    file: 'git',
    args: ['-C', ctx.project, '--no-optional-locks', 'worktree', 'list', '--porcelain', '-z'],
    env: { ...GIT_ENV },
    profile: 'git',
  }),
};

/** Whether `value` is one of {@link PREFETCH_IDS}. */
export function isPrefetchId(value: unknown): value is PrefetchId {
  return typeof value === 'string' && (PREFETCH_IDS as readonly string[]).includes(value);
}

/** The request `id` stands for in `ctx`; undefined when `ctx` cannot be trusted to build it (a socket name the command refuses). */
export function prefetchRequest(id: PrefetchId, ctx: PrefetchContext): PrefetchRequest | undefined {
  if (ctx.tmuxSocket !== undefined && !SOCKET_NAME.test(ctx.tmuxSocket)) return undefined;
  return BUILDERS[id](ctx);
}

/** Whether `request` asks for exactly the run `planned` is (every field the runner reads equal, nothing more). */
export function sameRequest(planned: PrefetchRequest, request: CommandRequest): boolean {
  if (request.input !== undefined || request.stdoutTo !== undefined) return false;
  if (request.timeoutMs !== undefined || request.maxOutputBytes !== undefined) return false;
  return canonical(planned) === canonical(request);
}

/** The id whose request, in `ctx`, is exactly `request`; undefined for anything else. */
export function prefetchIdOf(request: CommandRequest, ctx: PrefetchContext): PrefetchId | undefined {
  return PREFETCH_IDS.find((id) => {
    const built = prefetchRequest(id, ctx);
    return built !== undefined && sameRequest(built, request);
  });
}

function canonical(request: Pick<CommandRequest, 'file' | 'args' | 'cwd' | 'env' | 'profile'>): string {
  const env = request.env === undefined ? null : Object.entries(request.env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([request.file, request.args, request.cwd ?? null, env, request.profile ?? null]);
}
