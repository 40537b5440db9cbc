import { scanLineTokens, type LineTokens } from '../dates/date-tokens.js';
import { htmlCommentLines, isRunbookItem } from './content-lines.js';

/** Sections whose items are live and capped. */
export const TRACKED_SECTIONS = ['Active Blockers', 'Watch Items', 'Open Discussion'] as const;
/** Evergreen sections, not capped. */
export const REFERENCE_SECTIONS = ['Standing Orders', 'Governance', 'Playbook index'] as const;

/** What a section is for. */
export type SectionKind = 'tracked' | 'reference' | 'other';

/** A pull request a lift trigger waits on (`lift when #N merges`). */
export interface PullRequestRef {
  /** `owner/name` when the trigger names one (`lift when o/r#12 merges`). */
  readonly repo?: string;
  readonly number: number;
}

/**
 * One list item: its leading line and the indented lines that belong to it. An entry with no
 * content (`- [ ]`, `-`, `*` and nothing under it) is not an item.
 */
export interface RunbookItem {
  /** 1-based line number of the leading line. */
  readonly line: number;
  /** 1-based line number of the last line of the item (sub-bullets, continuations). */
  readonly endLine: number;
  /** The leading line, trimmed. */
  readonly text: string;
  /** The indented lines under it, trimmed. */
  readonly children: readonly string[];
  /** The `##` section it sits in (canonical name for known sections). */
  readonly section: string;
  readonly kind: SectionKind;
  /** Date tokens of the leading line: dates in sub-bullets are not on the line the gate reads. */
  readonly tokens: LineTokens;
  readonly liftTrigger: boolean;
  readonly pullRequests: readonly PullRequestRef[];
}

/** A `##` (or `#`) section. `###` and deeper subsections belong to the section above them. */
export interface RunbookSection {
  readonly name: string;
  readonly kind: SectionKind;
  /** 1-based line of the header. */
  readonly line: number;
  readonly items: readonly RunbookItem[];
}

/** A parsed runbook. `lines` keeps the text exactly (a `\r` stays on its line) so edits are surgical. */
export interface Runbook {
  readonly lines: readonly string[];
  readonly sections: readonly RunbookSection[];
  /** Every item of a tracked section, in document order. */
  readonly trackedItems: readonly RunbookItem[];
}

function normaliseName(name: string): string {
  return name
    .replace(/\s+/g, ' ')
    .replace(/[:\s]+$/, '')
    .trim()
    .toLowerCase();
}

/** Classifies a section header's text; matching ignores case, extra spaces and a trailing colon. */
export function classifySection(name: string): { readonly kind: SectionKind; readonly name: string } {
  const n = normaliseName(name);
  const tracked = TRACKED_SECTIONS.find((s) => s.toLowerCase() === n);
  if (tracked !== undefined) return { kind: 'tracked', name: tracked };
  const reference = REFERENCE_SECTIONS.find((s) => s.toLowerCase() === n);
  if (reference !== undefined) return { kind: 'reference', name: reference };
  return { kind: 'other', name: name.trim() };
}

const LIST_ITEM = /^ {0,1}(?:[-*+]|\d{1,9}[.)])(?:\s+|$)/;
const HEADER = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const PR_TRIGGER =
  /\b(?:lift|lifts|lifted|remove|drop|delete|close)\s+(?:it\s+)?(?:when|once|after|if)\s+(?:PR\s+)?((?:[\w.-]+\/[\w.-]+)?#(\d+))\s+(?:merges|is merged|gets merged|lands|has merged)\b/gi;
const LIFT_TRIGGER =
  /\b(?:lift|lifts|lifted|remove|drop|delete|close|resolve|expire|done)s?\s+(?:it\s+)?(?:when|once|after|if|on|by)\b|\buntil\b|(?<![\w-])DELETE\s+\d{2}-\d{2}(?![\w-])/i;

/** Pull requests named by `lift when #N merges` triggers on a line. */
export function findPullRequestTriggers(line: string): readonly PullRequestRef[] {
  const refs: PullRequestRef[] = [];
  for (const m of line.matchAll(PR_TRIGGER)) {
    const whole = m[1] ?? '';
    const number = Number(m[2]);
    const hash = whole.indexOf('#');
    const repo = hash > 0 ? whole.slice(0, hash) : undefined;
    refs.push(repo === undefined ? { number } : { repo, number });
  }
  return refs;
}

/** Whether a line states a removal condition (`Lift when …`, `until …`, `DELETE MM-DD`, a PR trigger). */
export function hasLiftTrigger(line: string): boolean {
  return LIFT_TRIGGER.test(line) || findPullRequestTriggers(line).length > 0;
}

/**
 * Parses runbook markdown. Items are list lines indented by at most one space; deeper lines and
 * indented continuations belong to the item above. HTML comments are skipped, and so is an entry
 * with no content (`isRunbookItem`), the rule the tick's empty check uses. Never throws.
 */
export function parseRunbook(text: string): Runbook {
  const lines = text.split('\n');
  const sections: { name: string; kind: SectionKind; line: number; items: RunbookItem[] }[] = [];
  let current: (typeof sections)[number] | undefined;
  let openItem: { item: Omit<RunbookItem, 'endLine' | 'children'>; endLine: number; children: string[] } | undefined;
  const comment = htmlCommentLines(lines);
  const closeItem = (): void => {
    // An empty entry still closes the item above it and owns the lines under it; it is only dropped.
    if (openItem !== undefined && current !== undefined && isRunbookItem([openItem.item.text, ...openItem.children])) {
      current.items.push({ ...openItem.item, endLine: openItem.endLine, children: openItem.children });
    }
    openItem = undefined;
  };
  lines.forEach((raw, index) => {
    const lineNo = index + 1;
    const line = raw.replace(/\r$/, '');
    const trimmed = line.trim();
    if (comment[index] === true) return;
    const header = HEADER.exec(line);
    if (header !== null) {
      const level = header[1]?.length ?? 1;
      if (level <= 2) {
        closeItem();
        const c = classifySection(header[2] ?? '');
        current = { name: c.name, kind: c.kind, line: lineNo, items: [] };
        sections.push(current);
      }
      // Subsections inherit their section; a header still ends the item above it.
      else closeItem();
      return;
    }
    if (trimmed === '') return;
    if (LIST_ITEM.test(line) && current !== undefined) {
      closeItem();
      openItem = {
        item: {
          line: lineNo,
          text: trimmed,
          section: current.name,
          kind: current.kind,
          tokens: scanLineTokens(line),
          liftTrigger: hasLiftTrigger(line),
          pullRequests: findPullRequestTriggers(line),
        },
        endLine: lineNo,
        children: [],
      };
      return;
    }
    if (openItem !== undefined && /^\s/.test(line)) {
      openItem.children.push(trimmed);
      openItem.endLine = lineNo;
      return;
    }
    closeItem();
  });
  closeItem();
  return {
    lines,
    sections,
    trackedItems: sections.filter((s) => s.kind === 'tracked').flatMap((s) => s.items),
  };
}
