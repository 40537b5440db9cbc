/**
 * Reading a captured tmux pane as an agent's REPL: is it showing an empty prompt (idle, safe to
 * type into), a prompt with typed-but-unsent input (a person is typing: never type over it), or no
 * prompt at all (the agent is working, or this is not an agent)?
 */

/**
 * Prompt patterns by agent, as regular-expression sources matched at the start of a line; what
 * follows the match on that line is input not yet sent. Claude Code draws `>` (or `❯`) inside a
 * box (`│ > …  │`); Codex draws `›` (older builds `▌`). A REPL that prints `> ` matches too.
 */
export const DEFAULT_PANE_PROMPTS = {
  'claude-code': '\\s*[│┃|]?\\s*[>❯]',
  codex: '\\s*[›▌]',
} as const;

/** The default prompt pattern: any of {@link DEFAULT_PANE_PROMPTS}. */
export const DEFAULT_PANE_PROMPT = Object.values(DEFAULT_PANE_PROMPTS)
  .map((source) => `(?:${source})`)
  .join('|');

/**
 * How many non-blank lines from the bottom are searched for the prompt: agents draw a border and a
 * hint line (`? for shortcuts`) under their input line, so it is rarely the very last line.
 */
export const PROMPT_SEARCH_LINES = 4;

/** What a captured pane shows at its prompt. */
export type PanePrompt =
  | { readonly kind: 'idle' }
  | { readonly kind: 'typing'; readonly typed: string }
  | { readonly kind: 'no-prompt'; readonly lastLine: string };

/** Compiles a prompt pattern anchored at the line start; undefined when it is not a valid pattern. */
export function compilePanePrompt(source: string): RegExp | undefined {
  try {
    return new RegExp(`^(?:${source})`, 'u');
  } catch {
    return undefined;
  }
}

// Box borders and blanks an agent draws around its input line: not input.
const BOX_TAIL = /[\s│┃|]+$/u;

/**
 * Reads a `capture-pane -p` text: the lowest of the last {@link PROMPT_SEARCH_LINES} non-blank
 * lines that starts with the prompt decides. Text after the prompt (box borders and blanks aside)
 * is typed-but-unsent input.
 */
export function readPanePrompt(capture: string, prompt: RegExp): PanePrompt {
  const lines = capture.split('\n').filter((line) => line.trim() !== '');
  const bottom = lines.slice(-PROMPT_SEARCH_LINES);
  for (let i = bottom.length - 1; i >= 0; i -= 1) {
    const line = bottom[i]!;
    const match = prompt.exec(line);
    if (match === null || match.index !== 0) continue;
    const typed = line.slice(match[0].length).replace(BOX_TAIL, '').trim();
    return typed === '' ? { kind: 'idle' } : { kind: 'typing', typed };
  }
  return { kind: 'no-prompt', lastLine: lines.at(-1) ?? '' };
}
