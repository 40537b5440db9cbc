// The CLI's command kernel: one declaration per command (CommandSpec) from which parsing, --help,
// "did you mean" for a mistyped flag and the error line are derived.
export type { CommandFailure, CommandSpec, FlagSpec, FlagSpecs, FlagValues } from './command-spec.js';
export {
  commandFailure,
  defineCommand,
  usageFailure,
  type CommandBody,
  type CommandInput,
  type DeclaredCommand,
} from './define-command.js';
export { parseCommand, type ParsedArgs } from './parse-command.js';
export { renderHelp } from './render-help.js';
