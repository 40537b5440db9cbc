/*
 * The server's line rule behind "effectively empty" (reference §2), in one place. The tick's empty
 * check and the parser (and so `check`, `due`, `prune`, `quiet`, `tick` and `plan`) all read lines
 * through these functions: when each had its own rule, `check` counted `- [ ]` as a tracked item
 * and refused a runbook the tick would have skipped as empty.
 */

const ATX_HEADER = /^#{1,6}\s/;
// The server's two patterns, kept as written there: `- [ ]`, `*[]`, `+ [  ]`, `-`, `*`, `+`.
// A ticked box (`- [x]`) and an ordered marker (`1.`) are content on the server, so they are here.
const EMPTY_TASK_ITEM = /^[-*+]\s*\[\s*\]\s*$/;
const BARE_MARKER = /^[-*+]\s*$/;

// A list marker with nothing after it but an unticked box; `t` is trimmed.
function isEmptyListItem(t: string): boolean {
  return EMPTY_TASK_ITEM.test(t) || BARE_MARKER.test(t);
}

/**
 * Whether a line outside an HTML comment carries content by the server's rule: it is not blank,
 * not an ATX header (`#`–`######` then whitespace) and not an empty list item.
 */
export function isContentLine(line: string): boolean {
  const t = line.trim();
  return t !== '' && !ATX_HEADER.test(t) && !isEmptyListItem(t);
}

/**
 * Which lines the server skips as HTML comment: a line starting (after trimming) with `<!--`, and
 * when it does not close the comment, every line up to and including the one holding `-->`.
 * Text after `-->` on either line is skipped too, as the server does.
 */
export function htmlCommentLines(lines: readonly string[]): readonly boolean[] {
  let inComment = false;
  return lines.map((raw) => {
    const line = raw.trim();
    if (inComment) {
      if (line.includes('-->')) inComment = false;
      return true;
    }
    if (line.startsWith('<!--')) {
      inComment = !line.includes('-->');
      return true;
    }
    return false;
  });
}

/**
 * What a runbook item is: a list entry (its leading line and the lines under it, comments left
 * out) with at least one content line. An entry of empty markers is not an item anywhere, so a
 * runbook the tick skips as effectively empty has no items for any command.
 */
export function isRunbookItem(entryLines: readonly string[]): boolean {
  return entryLines.some(isContentLine);
}
