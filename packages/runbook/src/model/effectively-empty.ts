/**
 * Whether a runbook holds nothing a checklist tick should pay for (reference §2, the server's exact
 * rule): every line is blank, a header, an HTML comment or an empty list item.
 */
export function isEffectivelyEmpty(text: string): boolean {
  let inComment = false;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (inComment) {
      if (line.includes('-->')) inComment = false;
      continue;
    }
    if (line.startsWith('<!--')) {
      // Text after `-->` on a comment-opening line is ignored, as the server does.
      if (!line.includes('-->')) inComment = true;
      continue;
    }
    if (line === '') continue;
    if (/^#{1,6}\s/.test(line)) continue;
    if (/^[-*+]\s*\[\s*\]\s*$/.test(line) || /^[-*+]\s*$/.test(line)) continue;
    return false;
  }
  return true;
}
