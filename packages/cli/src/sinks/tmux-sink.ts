import { ResultAsync } from 'neverthrow';
import { type CommandRunner, redactSecrets, sanitizeForMessage, type Sink, type SinkDelivery, type Sleep } from '@heartbeat-kit/core';
import { readPanePrompt } from './pane-prompt.js';

/** Where and how {@link createTmuxSink} types. */
export interface TmuxSinkOptions {
  /** The one process runner (argv, never a shell). */
  readonly runner: CommandRunner;
  /** Socket selection before the subcommand (`['-L', name]`), as the tmux scanners get it. */
  readonly tmuxArgs?: readonly string[];
  readonly session: string;
  readonly window?: number;
  readonly pane?: number;
  /** The pane must show the same text for this long before anything is typed (0: two captures back to back). */
  readonly idleMs: number;
  /** Waits between the two captures (the cycle's sleep: a fake one in tests). */
  readonly sleep: Sleep;
  /** The prompt, anchored at the line start (see `compilePanePrompt`). */
  readonly prompt: RegExp;
}

/** The exact target: `=SESSION:` (its active pane) or `=SESSION:W.P`; `=` stops tmux matching a prefix. */
export function tmuxPaneTarget(options: Pick<TmuxSinkOptions, 'session' | 'window' | 'pane'>): string {
  return options.window === undefined ? `=${options.session}:` : `=${options.session}:${options.window}.${options.pane ?? 0}`;
}

class TmuxSinkFailure extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/**
 * Types each message into a tmux pane where an agent waits at its prompt (`--sink tmux:…`), but only
 * when that is safe: the pane shows the prompt with nothing typed after it, and showed exactly the
 * same text `idleMs` earlier. Otherwise the message is held (`{ state: 'held', why }`): nobody was
 * told, the findings stay unreported and are offered again next cycle, and a person's half-typed
 * line is never corrupted. One line is typed with `send-keys -l` (literal, no key names); more
 * lines are pasted with `load-buffer` + `paste-buffer -p` (bracketed when the agent asked for it)
 * so they arrive as one input; then Enter. A pane that does not exist is a failed delivery.
 */
export function createTmuxSink(options: TmuxSinkOptions): Sink {
  const target = tmuxPaneTarget(options);
  const tmux = async (args: readonly string[], input?: string): Promise<string> => {
    const ran = await options.runner.run({
      file: 'tmux',
      args: ['-u', ...(options.tmuxArgs ?? []), ...args],
      profile: 'tmux',
      timeoutMs: 10_000,
      ...(input === undefined ? {} : { input }),
    });
    if (ran.isErr()) throw new TmuxSinkFailure(`tmux ${args[0] ?? ''} ${ran.error.kind}`, ran.error.kind);
    if (ran.value.exitCode !== 0) {
      const stderr = sanitizeForMessage(ran.value.stderr.trim().split('\n').at(-1) ?? '', { maxLength: 300 });
      const missing = /can't find (session|window|pane)|no server running|error connecting to/.test(stderr);
      throw new TmuxSinkFailure(
        missing
          ? `tmux pane ${target} does not exist (${stderr}). Fix: start the agent in tmux session ${options.session}${options.tmuxArgs?.length ? ` on ${options.tmuxArgs.join(' ')}` : ''}, or point --sink tmux:SESSION:WINDOW.PANE at its pane`
          : `tmux ${args[0] ?? ''} exited ${ran.value.exitCode}: ${stderr}`,
        missing ? 'no-pane' : `exit ${ran.value.exitCode}`,
      );
    }
    return ran.value.stdout;
  };
  const capture = () => tmux(['capture-pane', '-p', '-t', target]);

  const deliver = async (content: string, id: string | undefined): Promise<SinkDelivery> => {
    const first = await capture();
    const before = readPanePrompt(first, options.prompt);
    if (before.kind === 'typing')
      return { state: 'held', why: `tmux pane ${target} has typed-but-unsent input after its prompt; not typing over it` };
    if (before.kind === 'no-prompt')
      return {
        state: 'held',
        why: `tmux pane ${target} shows no prompt (the agent is busy, or set HEARTBEAT_TMUX_PROMPT); last line: ${sanitizeForMessage(before.lastLine, { maxLength: 80 })}`,
      };
    await options.sleep.sleep(options.idleMs);
    const second = await capture();
    if (second !== first) return { state: 'held', why: `tmux pane ${target} changed within ${options.idleMs / 1000} s (not idle)` };
    const text = content.replace(/\r\n?/g, '\n').replace(/\n+$/, '');
    if (!text.includes('\n')) {
      // `--` so a message starting with '-' is text, never an option; -l so "Enter" or "C-c" in it are letters.
      await tmux(['send-keys', '-t', target, '-l', '--', text]);
    } else {
      const buffer = `heartbeat-kit-${(id ?? 'message').replace(/[^A-Za-z0-9_-]/g, '').slice(0, 40)}`;
      await tmux(['load-buffer', '-b', buffer, '-'], text);
      // -p: bracketed when the agent enabled it, so the lines arrive as one input; -d: the buffer goes.
      await tmux(['paste-buffer', '-p', '-d', '-b', buffer, '-t', target]);
    }
    await tmux(['send-keys', '-t', target, 'Enter']);
    return undefined;
  };

  return {
    name: 'tmux',
    deliver: (message) =>
      ResultAsync.fromPromise(deliver(message.content, message.id), (error) => ({
        kind: 'delivery-failed' as const,
        message: redactSecrets((error as Error).message),
        code: error instanceof TmuxSinkFailure ? error.code : 'failed',
      })),
  };
}
