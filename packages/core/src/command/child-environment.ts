import type { ToolProfile } from '../ports/command-runner.js';

/** Every tool profile, in the order the docs list them. */
export const TOOL_PROFILES: readonly ToolProfile[] = ['bd', 'git', 'tmux', 'gh', 'gchat', 'agent', 'gate', 'command'];

/** One deny-list entry: a variable name, or a prefix when it ends in `*`, with the reason it is removed. */
export interface EnvDenyRule {
  readonly pattern: string;
  /** The profiles it is removed for; `all` = every child. */
  readonly profiles: readonly ToolProfile[] | 'all';
  readonly reason: string;
}

const HOOK_REASON =
  'git sets it while a hook runs; inherited, it points every child git (and bd, which finds its database through git) at the hook’s repository instead of the directory the heartbeat names';

/**
 * The switches removed from the user's environment: only those that change what a tool prints or
 * where it looks, never credentials or network settings (docs/environment.md explains each).
 */
export const ENV_DENY_LIST: readonly EnvDenyRule[] = [
  { pattern: 'BD_AGENT_MODE', profiles: ['bd'], reason: 'switches bd to its terse agent format and lowers the default list limit to 20' },
  {
    pattern: 'CLAUDE_CODE*',
    profiles: ['bd'],
    reason: 'bd treats any non-empty CLAUDE_CODE variable as agent mode (same effect as BD_AGENT_MODE)',
  },
  { pattern: 'GH_FORCE_TTY', profiles: ['gh'], reason: 'makes gh print terminal tables, colour and truncation into a pipe' },
  {
    pattern: 'FORCE_COLOR',
    profiles: 'all',
    reason: 'forces ANSI colour into piped output the heartbeat parses (Node-based tools, poll scripts, agent CLIs)',
  },
  { pattern: 'CLICOLOR_FORCE', profiles: 'all', reason: 'forces ANSI colour into piped output (gh, bd and other Go/Rust CLIs honour it)' },
  { pattern: 'GIT_DIR', profiles: 'all', reason: HOOK_REASON },
  { pattern: 'GIT_WORK_TREE', profiles: 'all', reason: HOOK_REASON },
  { pattern: 'GIT_INDEX_FILE', profiles: 'all', reason: HOOK_REASON },
  { pattern: 'GIT_COMMON_DIR', profiles: 'all', reason: HOOK_REASON },
  { pattern: 'GIT_OBJECT_DIRECTORY', profiles: 'all', reason: HOOK_REASON },
  { pattern: 'GIT_ALTERNATE_OBJECT_DIRECTORIES', profiles: 'all', reason: HOOK_REASON },
  { pattern: 'GIT_NAMESPACE', profiles: 'all', reason: HOOK_REASON },
];

/**
 * Quiet defaults a parser needs, set for that one tool only (over the user's values; a request's
 * own `env` still wins). Never `LC_ALL=C` outside git: tmux would print non-ASCII as `_` and an
 * agent would lose UTF-8.
 */
export const TOOL_ENV_DEFAULTS: Readonly<Record<ToolProfile, Readonly<Record<string, string>>>> = {
  bd: { NO_COLOR: '1' },
  git: { LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', GIT_PAGER: 'cat' },
  tmux: {},
  gh: { GH_PROMPT_DISABLED: '1', GH_PAGER: 'cat', NO_COLOR: '1', GH_NO_UPDATE_NOTIFIER: '1', GH_SPINNER_DISABLED: '1' },
  gchat: { NO_COLOR: '1' },
  agent: {},
  gate: { NO_COLOR: '1' },
  command: {},
};

/** What every child keeps in allow-list mode, so that tools are found and temp files work. */
export const ESSENTIAL_ENV_KEYS: readonly string[] = ['PATH', 'HOME', 'USER', 'LANG', 'TMPDIR', 'TMUX_TMPDIR'];

/** An allow-list entry: a variable name, or a prefix ending in `*` (`XDG_*`). */
export const ENV_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*\*?$/;

/** True when `name` matches `pattern` (exact, or prefix for a trailing `*`). */
export function envPatternMatches(pattern: string, name: string): boolean {
  return pattern.endsWith('*') ? name.startsWith(pattern.slice(0, -1)) : name === pattern;
}

/** The profile of a well-known executable (`/usr/local/bin/bd` → `bd`); anything else is `command`. */
export function inferToolProfile(file: string): ToolProfile {
  const base = file.slice(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1).replace(/\.exe$/i, '');
  return base === 'bd' || base === 'git' || base === 'tmux' || base === 'gh' ? base : 'command';
}

/** Inputs of `buildChildEnv` (the process runner's environment builder). */
export interface ChildEnvOptions {
  readonly profile: ToolProfile;
  /** Hardened mode: only {@link ESSENTIAL_ENV_KEYS} and these names/prefixes pass. Absent = the user's whole environment. */
  readonly allow?: readonly string[] | undefined;
  /** The request's own variables; set last. */
  readonly requestEnv?: Readonly<Record<string, string>> | undefined;
}

/**
 * A child's environment: the user's environment (or, in allow-list mode, only the essentials
 * and the listed names), minus the deny-list for this tool, plus this tool's quiet defaults,
 * plus the request's own variables.
 */
export function buildChildEnv(base: Readonly<Record<string, string | undefined>>, options: ChildEnvOptions): Record<string, string> {
  const denied = deniedFor(options.profile);
  const allow = options.allow;
  const env: Record<string, string> = {};
  for (const name of Object.keys(base)) {
    const value = base[name];
    if (value === undefined) continue;
    if (allow !== undefined && !ESSENTIAL_ENV_KEYS.includes(name) && !allow.some((pattern) => envPatternMatches(pattern, name))) continue;
    if (denied.names.has(name) || denied.prefixes.some((prefix) => name.startsWith(prefix))) continue;
    env[name] = value;
  }
  Object.assign(env, TOOL_ENV_DEFAULTS[options.profile]);
  if (options.requestEnv !== undefined) Object.assign(env, options.requestEnv);
  return env;
}

// The deny-list of each profile split once into exact names and prefixes: a cycle builds an
// environment for every one of its ~60 children.
const deniedByProfile = new Map<ToolProfile, { readonly names: ReadonlySet<string>; readonly prefixes: readonly string[] }>();

function deniedFor(profile: ToolProfile): { readonly names: ReadonlySet<string>; readonly prefixes: readonly string[] } {
  let denied = deniedByProfile.get(profile);
  if (denied === undefined) {
    const rules = ENV_DENY_LIST.filter((rule) => rule.profiles === 'all' || rule.profiles.includes(profile));
    denied = {
      names: new Set(rules.filter((r) => !r.pattern.endsWith('*')).map((r) => r.pattern)),
      prefixes: rules.filter((r) => r.pattern.endsWith('*')).map((r) => r.pattern.slice(0, -1)),
    };
    deniedByProfile.set(profile, denied);
  }
  return denied;
}
