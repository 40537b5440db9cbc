import type { ExitCode } from '../exit-codes.js';

/** One flag of a command: its type, its value's placeholder and its help line(s). */
export interface FlagSpec {
  readonly type: 'string' | 'boolean';
  readonly short?: string;
  readonly multiple?: boolean;
  /** The placeholder the help shows after the flag (`DIR`, `ISO`); string flags only. */
  readonly value?: string;
  /** What the flag does; a `\n` starts a continuation line, indented under the first. */
  readonly help: string;
  /** Parsed but not listed (a flag a sibling command shares and this one refuses with a fix). */
  readonly hidden?: boolean;
  /**
   * The options block the help lists the flag under (`Common options`), after the command's own
   * `Options:`; default: `Options`.
   */
  readonly group?: string;
}

/** The flags of a command by long name (without `--`). */
export type FlagSpecs = Readonly<Record<string, FlagSpec>>;

/** The parsed value of one flag, typed from its spec. */
export type FlagValue<S extends FlagSpec> = S['type'] extends 'boolean'
  ? S['multiple'] extends true
    ? boolean[]
    : boolean
  : S['multiple'] extends true
    ? string[]
    : string;

/** Every flag's parsed value (absent when not given), plus the kernel's own `--help`. */
export type FlagValues<F extends FlagSpecs> = { readonly [K in keyof F]?: FlagValue<F[K]> } & { readonly help?: boolean };

/**
 * The one declaration of a command: from it the kernel parses argv, prints `--help`, suggests a
 * flag for a typo and formats errors, and docs/reference/cli.md prints that help.
 */
export interface CommandSpec<F extends FlagSpecs = FlagSpecs> {
  /** The command words after `heartbeat-kit` (`history`, `fleet add`). */
  readonly name: string;
  /** What follows the name on the Usage line (`[options]`, `FILE [--json]`). */
  readonly usage: string;
  /** The prose under the Usage line (hand-wrapped paragraphs). */
  readonly description: string;
  readonly flags: F;
  /**
   * Flags a sibling subcommand takes and this one does not: parsed, never listed, and refused as
   * `--NAME does not apply to 'SUB'` with the help page as the fix (not as an unknown option).
   */
  readonly siblingFlags?: FlagSpecs;
  /** How many positional arguments the command takes (default: none). */
  readonly positionals?: { readonly min?: number; readonly max?: number; readonly fix: string };
  /** Paragraphs printed after the options (what the flags alone do not say). */
  readonly notes?: string;
  /**
   * Command lines printed under "Examples:" (without the `heartbeat-kit` prefix); a line that starts
   * with a space is the output of the command above it and is printed as given.
   */
  readonly examples?: readonly string[];
  /** The codes this command ends with and what each means here; 0 and 2 always (empty: the page has no exit-code line). */
  readonly exitCodes: readonly (readonly [ExitCode, string])[];
  /** List the exit codes one a line (`  3  meaning`; a `\n` in a meaning continues under it), not as one sentence. */
  readonly exitCodeTable?: boolean;
  /** The column where flag help starts (default 21: two spaces, the flag, padding). */
  readonly helpColumn?: number;
  /** Leave `-h, --help` out of the options list (the description already says it). */
  readonly omitHelpLine?: boolean;
  /**
   * `list`: "Example:" and one exit code a line (`  0  meaning`), for pages whose examples show
   * output and whose codes need a sentence each (the runbook subcommands). Default: one line each.
   */
  readonly helpLayout?: 'list';
}

/** Why a command stopped: the exit code and the one line (`problem. Fix: how`) stderr gets. */
export interface CommandFailure {
  readonly exit: ExitCode;
  readonly message: string;
}
