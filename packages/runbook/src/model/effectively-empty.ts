import { htmlCommentLines, isContentLine } from './content-lines.js';

/**
 * Whether a runbook holds nothing a checklist tick should pay for (reference §2, the server's exact
 * rule): every line is blank, a header, an HTML comment or an empty list item.
 */
export function isEffectivelyEmpty(text: string): boolean {
  const lines = text.split('\n');
  const comment = htmlCommentLines(lines);
  return lines.every((line, i) => comment[i] === true || !isContentLine(line));
}
