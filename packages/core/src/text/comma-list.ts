/**
 * The items of a list as people write it in a flag or a config line: `A, B,C`. Every list the
 * project reads (`--env-allow`, the `Allow:` line of `## Environment`, the expected orchestrators) is split here, so a flag
 * and the config key it mirrors accept the same spellings.
 */
export interface CommaListOptions {
  /**
   * Whitespace separates items too (`A B, C`): for lists of words that never hold a space, such as
   * variable names. Off by default, so an item may hold a space (a tmux session name may).
   */
  readonly spaces?: boolean;
}

/** The items of a comma-separated list: each trimmed, empty items dropped, each once in first-seen order. */
export function splitCommaList(text: string, options: CommaListOptions = {}): string[] {
  const parts = text.split(options.spaces === true ? /[\s,]+/ : ',');
  return [...new Set(parts.map((part) => part.trim()).filter((part) => part !== ''))];
}
