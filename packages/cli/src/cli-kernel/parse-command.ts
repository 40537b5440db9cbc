import { parseArgs, type ParseArgsConfig } from 'node:util';
import { err, ok, type Result } from 'neverthrow';
import { suggestName } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import type { CommandFailure, CommandSpec, FlagSpecs, FlagValues } from './command-spec.js';

/** What argv gave a command: its typed flags and its positional arguments. */
export interface ParsedArgs<F extends FlagSpecs> {
  readonly flags: FlagValues<F>;
  readonly positionals: readonly string[];
}

function parserOptions(flags: FlagSpecs): NonNullable<ParseArgsConfig['options']> {
  const options: NonNullable<ParseArgsConfig['options']> = { help: { type: 'boolean', short: 'h' } };
  for (const [name, flag] of Object.entries(flags)) {
    options[name] = {
      type: flag.type,
      ...(flag.short === undefined ? {} : { short: flag.short }),
      ...(flag.multiple ? { multiple: true } : {}),
    };
  }
  return options;
}

/**
 * The usage error for argv the parser refused, naming the help page. For an unknown flag close to
 * a declared one it names that flag instead of node's note on positionals starting with `-`.
 */
function refused(spec: CommandSpec, error: Error): CommandFailure {
  const fix = ` Fix: see 'heartbeat-kit ${spec.name} --help'.`;
  const typed = /^Unknown option '--([^'=]+)'/.exec(error.message)?.[1];
  const guess =
    typed === undefined
      ? undefined
      : suggestName(typed, [...Object.entries(spec.flags).flatMap(([name, flag]) => (flag.hidden === true ? [] : [name])), 'help']);
  if (guess !== undefined) return { exit: EXIT.usage, message: `Unknown option '--${typed}'. Did you mean \`--${guess}\`?${fix}` };
  return { exit: EXIT.usage, message: `${error.message.replace(/\.$/, '')}.${fix}` };
}

/** The refusal of the first flag given that only a sibling subcommand takes, if any. */
function notApplying(spec: CommandSpec, given: readonly string[]): CommandFailure | undefined {
  const foreign = given.find((name) => !Object.hasOwn(spec.flags, name) && name !== 'help');
  if (foreign === undefined) return undefined;
  const sub = spec.name.split(' ').at(-1) ?? spec.name;
  return { exit: EXIT.usage, message: `--${foreign} does not apply to '${sub}'. Fix: see 'heartbeat-kit ${spec.name} --help'.` };
}

/**
 * Parses argv by the command's declaration (node:util's strict parser underneath): unknown flags,
 * a flag only a sibling subcommand takes, a value missing or given to a boolean, and a wrong number
 * of positional arguments are usage errors.
 */
export function parseCommand<F extends FlagSpecs>(spec: CommandSpec<F>, argv: readonly string[]): Result<ParsedArgs<F>, CommandFailure> {
  const allowPositionals = (spec.positionals?.max ?? 0) > 0;
  let parsed;
  try {
    const options = { ...parserOptions(spec.siblingFlags ?? {}), ...parserOptions(spec.flags) };
    parsed = parseArgs({ args: [...argv], options, strict: true, allowPositionals });
  } catch (error) {
    return err(refused(spec, error as Error));
  }
  const flags = parsed.values as FlagValues<F>;
  if (flags.help === true) return ok({ flags, positionals: parsed.positionals });
  const sibling = notApplying(spec, Object.keys(parsed.values));
  if (sibling !== undefined) return err(sibling);
  if (spec.positionals === undefined) return ok({ flags, positionals: parsed.positionals });
  const { min = 0, max = Number.POSITIVE_INFINITY, fix } = spec.positionals;
  const count = parsed.positionals.length;
  if (count < min || count > max) {
    const word = (n: number): string => (n === 1 ? 'one' : String(n));
    const expected = min === max ? `exactly ${word(min)}` : count < min ? `at least ${word(min)}` : `at most ${word(max)}`;
    const what = spec.usage.split(' ')[0] ?? 'argument';
    return err({ exit: EXIT.usage, message: `expected ${expected} ${what}. Fix: ${fix}` });
  }
  return ok({ flags, positionals: parsed.positionals });
}
