// Walks HEARTBEAT.md line by line: skips fenced code and comments, follows the headings into sections,
// and hands each `- Key: value` item to its section's setter (or a legacy key's), which fills the draft.
import { err, ok, type Result } from 'neverthrow';
import { stripTerminalEscapes } from '../text/terminal-escapes.js';
import { hasOwn, normalizeName, shorten, stripHtmlComments, trimMarks } from './heartbeat-markdown-text.js';
import { markdownKeysFor, type MarkdownKeys } from './heartbeat-section-keys.js';
import type { ConfigSection } from './config-section.js';
import type { Draft, Problem, SectionDraft } from './heartbeat-setting-draft.js';

const MAX_LINE = 10_000;

/** What the lines of HEARTBEAT.md set, before the schema fills in the defaults. */
export interface ReadSettings {
  readonly draft: Draft & SectionDraft;
  /** Field path (as a setter names it) → the line that last set it. */
  readonly fieldLines: ReadonlyMap<string, number>;
  /** True once one heading or key was one heartbeat-kit knows. */
  readonly recognised: boolean;
}

/** The first unusable value: where it is, as written, and the problem. */
export interface ValueProblem extends Problem {
  readonly line: number;
  readonly key: string;
  readonly value: string;
}

interface Walk {
  readonly warnings: string[];
  readonly table: MarkdownKeys;
  readonly draft: Draft & SectionDraft;
  readonly fieldLines: Map<string, number>;
  section: string | undefined;
  sectionTitle: string;
  fence: string | undefined;
  recognised: boolean;
}

type Warn = (message: string) => void;

/**
 * Reads the settings of a non-blank HEARTBEAT.md, core's and those of the host's config `sections`;
 * warnings (prefixed `file:line: `) are pushed to `warnings`.
 */
export function readHeartbeatSettings(
  text: string,
  file: string,
  warnings: string[],
  sections: readonly ConfigSection[] = [],
): Result<ReadSettings, ValueProblem> {
  const walk: Walk = {
    warnings,
    table: markdownKeysFor(sections),
    draft: { activeHours: {} },
    fieldLines: new Map(),
    section: 'root',
    sectionTitle: '',
    fence: undefined,
    recognised: false,
  };
  const { lines, unclosedAt } = stripHtmlComments(text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/));
  if (unclosedAt !== undefined)
    warnings.push(
      `${file}:${unclosedAt}: "<!--" opens a comment that is never closed, so every line after it is ignored. Fix: end the comment with "-->".`,
    );
  for (let index = 0; index < lines.length; index++) {
    const lineNo = index + 1;
    const warn: Warn = (message) => {
      warnings.push(`${file}:${lineNo}: ${message}`);
    };
    const problem = readLine(walk, lines[index] ?? '', lineNo, warn);
    if (problem !== undefined) return err(problem);
  }
  return ok({ draft: walk.draft, fieldLines: walk.fieldLines, recognised: walk.recognised });
}

function readLine(walk: Walk, raw: string, lineNo: number, warn: Warn): ValueProblem | undefined {
  if (raw.length > MAX_LINE) {
    warn(`line longer than ${MAX_LINE} characters — ignored.`);
    return undefined;
  }
  const line = stripTerminalEscapes(raw);
  if (inCodeFence(walk, line) || readHeading(walk, line, warn)) return undefined;
  const item = /^[ \t]*[-*+][ \t]+(.*)$/.exec(line);
  if (!item) return undefined; // prose between settings is allowed
  return readItem(walk, item[1] ?? '', lineNo, warn);
}

/** True for a fence line or a line inside fenced code (both are skipped). */
function inCodeFence(walk: Walk, line: string): boolean {
  const fenceMatch = /^ {0,3}(`{3,}|~{3,})/.exec(line);
  if (fenceMatch?.[1] !== undefined) {
    const marker = fenceMatch[1];
    if (walk.fence === undefined) walk.fence = marker[0];
    else if (marker[0] === walk.fence) walk.fence = undefined;
    return true;
  }
  return walk.fence !== undefined;
}

/** True for a heading, which starts a section (an unknown one: its lines are ignored). */
function readHeading(walk: Walk, line: string, warn: Warn): boolean {
  const heading = /^ {0,3}#{1,6}(?:[ \t]+(.*))?$/.exec(line);
  if (!heading) return false;
  walk.sectionTitle = (heading[1] ?? '')
    .replace(/[ \t]#+[ \t]*$/, '')
    .replace(/[*`:]+/g, '')
    .trim();
  const name = normalizeName(walk.sectionTitle);
  walk.section = hasOwn(walk.table.names, name);
  if (walk.section !== undefined) walk.recognised = true;
  if (walk.section === undefined) warn(`unknown section "${shorten(walk.sectionTitle)}" — its lines are ignored.`);
  return true;
}

/** A list item's `Key: value`: set through its setter, warned about, or the problem with its value. */
function readItem(walk: Walk, body: string, lineNo: number, warn: Warn): ValueProblem | undefined {
  const { section, sectionTitle } = walk;
  const colon = body.indexOf(':');
  const keyText = colon === -1 ? '' : trimMarks(body.slice(0, colon));
  if (colon === -1 || !/^\p{L}[\p{L}\p{N} _-]{0,60}$/u.test(keyText)) {
    if (section !== undefined && section !== 'root') warn(`"${shorten(body.trim())}" is not "Key: value" — ignored.`);
    return undefined;
  }
  const key = normalizeName(keyText);
  const value = trimMarks(body.slice(colon + 1));
  const sectionKeys = section === undefined ? undefined : walk.table.keys[section];
  const setter = (sectionKeys === undefined ? undefined : hasOwn(sectionKeys, key)) ?? hasOwn(walk.table.legacy, key);
  if (setter === undefined) {
    if (section !== undefined)
      warn(`unknown key "${shorten(keyText)}"${section === 'root' ? '' : ` under ${shorten(sectionTitle)}`} — ignored.`);
    return undefined;
  }
  walk.recognised = true;
  const shownKey = section === 'root' || sectionTitle === '' ? keyText : `${sectionTitle} → ${keyText}`;
  const outcome = setter(value, { draft: walk.draft, warn, raw: body.slice(colon + 1), key: shownKey });
  if (typeof outcome === 'object') {
    return { line: lineNo, key: shownKey, value: shorten(value), message: outcome.message, fix: outcome.fix };
  }
  if (outcome !== undefined) {
    const previous = walk.fieldLines.get(outcome);
    if (previous !== undefined) warn(`"${shorten(keyText)}" also set on line ${previous}; this line wins.`);
    walk.fieldLines.set(outcome, lineNo);
  }
  return undefined;
}
