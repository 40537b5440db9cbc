import type { CommandError, CommandOutput, CommandRunner } from '@heartbeat-kit/core';
import type { ResultAsync } from 'neverthrow';
import { errAsync, okAsync } from 'neverthrow';
import type { DispatchFailure, DispatchReport, DispatchRequest, Dispatcher, ModelUsed } from '../ports/dispatcher.js';
import { parseOutcome } from './outcome.js';

/** Exit code by which an agent command says "refused before doing any work" (e.g. model override rejected). */
export const REFUSED_EXIT_CODE = 125;

/** Options of {@link createCommandDispatcher}. */
export interface CommandDispatcherOptions {
  readonly runner: CommandRunner;
  /** argv with `{model}`, `{max_turns}`, `{thinking_effort}`, `{persona}` placeholders. */
  readonly command: readonly string[];
  /** Run when the command is refused at invocation; `{model}` becomes `fallbackModel`. */
  readonly fallbackCommand?: readonly string[];
  /** The session model the fallback runs on, named on the Model line. */
  readonly fallbackModel?: string;
  readonly cwd?: string;
  readonly timeoutMs?: number;
  readonly env?: Readonly<Record<string, string>>;
}

/** Replaces the placeholders inside each argv element; values never become separate arguments. */
export function expandCommand(template: readonly string[], values: Readonly<Record<string, string>>): string[] {
  return template.map((part) => part.replace(/\{(model|max_turns|thinking_effort|persona)\}/g, (_, key: string) => values[key] ?? ''));
}

type Attempt =
  | { readonly kind: 'refused'; readonly message: string }
  | { readonly kind: 'ran'; readonly output: CommandOutput }
  | { readonly kind: 'error'; readonly error: CommandError };

const tail = (text: string): string => (text.length > 4000 ? `…${text.slice(-4000)}` : text);

/**
 * The default {@link Dispatcher}: runs the configured agent command with the prompt on stdin and
 * parses the outcome contract from stdout. A command that cannot start, or exits 125, was refused
 * at invocation and the fallback command runs instead (disclosed in `model`). Any other failure,
 * or stdout without a parseable outcome, is a `DispatchFailure` — the loop reports it as blocked,
 * because re-running could duplicate commits, PRs or sub-issues.
 *
 * @example
 * ```ts
 * import { createProcessRunner } from '@heartbeat-kit/core/node';
 * import { createCommandDispatcher } from '@heartbeat-kit/woterclip';
 *
 * // The prompt goes to the agent CLI on stdin; the outcome contract is parsed from its stdout.
 * const dispatcher = createCommandDispatcher({
 *   runner: createProcessRunner({ timeoutMs: 3_600_000, profile: 'agent' }),
 *   command: ['claude', '--print', '--model', '{model}', '--max-turns', '{max_turns}'],
 *   fallbackCommand: ['claude', '--print', '--max-turns', '{max_turns}'],
 *   fallbackModel: 'session',
 * });
 * ```
 */
export function createCommandDispatcher(options: CommandDispatcherOptions): Dispatcher {
  const attempt = (file: string, args: readonly string[], prompt: string): ResultAsync<Attempt, never> =>
    options.runner
      .run({
        file,
        args,
        input: prompt,
        profile: 'agent',
        ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
        ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
        ...(options.env === undefined ? {} : { env: options.env }),
      })
      .map((output): Attempt =>
        output.exitCode === REFUSED_EXIT_CODE ? { kind: 'refused', message: `exit ${REFUSED_EXIT_CODE}` } : { kind: 'ran', output },
      )
      .orElse((error) =>
        okAsync<Attempt, never>(
          error.kind === 'not-found' || error.kind === 'not-executable' || error.kind === 'spawn-failed'
            ? { kind: 'refused', message: error.message }
            : { kind: 'error', error },
        ),
      );

  const run = (template: readonly string[], request: DispatchRequest, model: string): ResultAsync<Attempt, never> => {
    const [file, ...args] = expandCommand(template, {
      model,
      max_turns: String(request.maxTurns),
      thinking_effort: request.thinkingEffort,
      persona: request.persona,
    });
    if (file === undefined) return okAsync({ kind: 'refused', message: 'empty command' });
    return attempt(file, args, request.prompt);
  };

  const settle = (result: Attempt, model: ModelUsed): ResultAsync<DispatchReport, DispatchFailure> => {
    if (result.kind === 'refused')
      return errAsync({
        kind: 'failed',
        message: `dispatch refused at invocation and no fallback ran (${result.message})`,
        raw: '',
        model,
      });
    if (result.kind === 'error') {
      const e = result.error;
      const raw = e.kind === 'timeout' ? tail(`${e.stdout}\n${e.stderr}`) : '';
      return errAsync({
        kind: 'failed',
        message: `dispatch ${e.kind === 'timeout' ? `timed out after ${e.timeoutMs} ms` : `failed (${e.kind})`}`,
        raw,
        model,
      });
    }
    const { output } = result;
    if (output.exitCode !== 0) {
      return errAsync({
        kind: 'failed',
        message: `dispatch exited ${output.exitCode}`,
        raw: tail(`${output.stdout}\n${output.stderr}`),
        model,
      });
    }
    return parseOutcome(output.stdout).match(
      (outcome) => okAsync<DispatchReport, DispatchFailure>({ outcome, model }),
      (message) => errAsync<DispatchReport, DispatchFailure>({ kind: 'unparseable', message, raw: tail(output.stdout), model }),
    );
  };

  return {
    dispatch: (request) => {
      const primaryModel: ModelUsed = { configured: request.model, actual: request.model, fallback: false };
      return run(options.command, request, request.model).andThen((first) => {
        if (first.kind !== 'refused' || options.fallbackCommand === undefined) return settle(first, primaryModel);
        const fallbackModel = options.fallbackModel ?? 'session';
        const model: ModelUsed = { configured: request.model, actual: fallbackModel, fallback: true };
        return run(options.fallbackCommand, request, fallbackModel).andThen((second) => settle(second, model));
      });
    },
  };
}
