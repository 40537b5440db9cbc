import { err, type Result } from 'neverthrow';
import { EXIT, type ExitCode } from '../exit-codes.js';
import type { CliIo, Command } from '../io.js';
import type { CommandFailure, CommandSpec, FlagSpecs } from './command-spec.js';
import { parseCommand, type ParsedArgs } from './parse-command.js';
import { renderHelp } from './render-help.js';

/** What a command's body gets: its parsed arguments and the io. */
export interface CommandInput<F extends FlagSpecs> extends ParsedArgs<F> {
  readonly io: CliIo;
}

/** A command's body: the exit code it ends with, or the failure the kernel prints. */
export type CommandBody<F extends FlagSpecs> = (input: CommandInput<F>) => Promise<Result<ExitCode, CommandFailure>>;

/** A runnable command that carries its declaration (for tests and the reference). */
export type DeclaredCommand<F extends FlagSpecs = FlagSpecs> = Command & { readonly spec: CommandSpec<F> };

/** A usage error (exit 2): `message` says what is wrong and, after `Fix:`, how to put it right. */
export function usageFailure(message: string): Result<never, CommandFailure> {
  return err({ exit: EXIT.usage, message });
}

/** A failure outside the user's input (exit 3 unless `exit` says otherwise). */
export function commandFailure(message: string, exit: ExitCode = EXIT.failure): Result<never, CommandFailure> {
  return err({ exit, message });
}

/**
 * The command the kernel runs from a declaration and a body: parse argv (a usage error exits 2
 * naming the flag and the fix), print `--help`, run the body, and print its failure as the one
 * line `heartbeat-kit NAME: problem. Fix: how` (with `--json` main turns it into `{"error", "fix"}`).
 */
export function defineCommand<const F extends FlagSpecs>(spec: CommandSpec<F>, body: CommandBody<F>): DeclaredCommand<F> {
  const command: Command = async (argv, io) => {
    const parsed = parseCommand(spec, argv);
    if (parsed.isOk() && parsed.value.flags.help === true) {
      io.stdout(renderHelp(spec));
      return EXIT.ok;
    }
    const outcome = parsed.isErr() ? parsed : await body({ ...parsed.value, io });
    if (outcome.isOk()) return outcome.value;
    io.stderr(`heartbeat-kit ${spec.name}: ${outcome.error.message}\n`);
    return outcome.error.exit;
  };
  return Object.assign(command, { spec });
}
