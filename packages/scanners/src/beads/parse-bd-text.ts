import { err, ok, type Result } from 'neverthrow';
import { stripTerminalEscapes } from '@heartbeat-kit/core/host';
import { BEAD_ID_PATTERN, isBeadPriority, type BdParseError, type Bead, type BeadPriority } from './bead.js';

// The one bead-id pattern (tools.md §2.1), without its anchors, to embed in row patterns.
const ID = BEAD_ID_PATTERN.source.slice(1, -1);
const ICON = '(?:○|◐|●|✓|❄|📌|◇|⊘)';
// `[● P1]` (v0.47–v1.0.x), `[P1]` (older and newer), `● P1` / `P1` unbracketed in pretty views.
const PRIO = String.raw`(?:● )?P([0-4])`;
const TREE = '(?:├── |└── |│ {3}| {4})*';

const PRETTY_ROW = new RegExp(String.raw`^${TREE}(${ICON}) (${ID}) ${PRIO} (?:\[([^\]]+)\] )?(.*)$`, 'u');
const PLAIN_ROW = new RegExp(String.raw`^\d+\. \[${PRIO}\] (?:\[([^\]]+)\] )?(${ID}): (.*)$`, 'u');
const FLAT_ROW = new RegExp(
  String.raw`^(?:(${ICON}) )?(${ID}) \[${PRIO}\] \[([^\]]+)\] (?:([a-z_]+) )?(?:@(\S+) )?(?:\[([^\]]*)\] )?- (.*)$`,
  'u',
);
const LONG_HEADER = new RegExp(String.raw`^(${ID}) \[${PRIO}\] \[([^\]]+)\] (\S+)$`, 'u');
const AGENT_ROW = new RegExp(String.raw`^(${ID}): (.*)$`, 'u');
const DETAIL = /^\s{2,}([A-Za-z][A-Za-z ]*): ?(.*)$/;
const RELATION_SUFFIX = / \((?:parent|blocked by|blocks): [^()]*\)$/;

const IGNORED: readonly RegExp[] = [
  /^💡/u, // random tips and the upgrade hint
  /^🔄/u, // "bd upgraded from vA to vB since last use"
  /^✨ No (?:ready work found|open issues)/u,
  /^📋 Ready work \(\d+ issues? with no (?:active )?blockers\):$/u,
  /^-{10,}$/,
  /^Ready: \d+ issues? with no active blockers$/,
  /^Total: \d+ issues?/,
  /^Status: /,
  /^Showing \d+ /,
  /^Found \d+ issues?:$/,
  /^No issues found\.$/,
  /^NOTE: bd --json /,
];

const STATUS_BY_ICON: Readonly<Record<string, string>> = {
  '○': 'open',
  '◐': 'in_progress',
  '●': 'blocked',
  '✓': 'closed',
  '❄': 'deferred',
  '📌': 'pinned',
};

const KNOWN_TYPES = new Set([
  'bug',
  'feature',
  'task',
  'epic',
  'chore',
  'decision',
  'message',
  'molecule',
  'gate',
  'spike',
  'story',
  'milestone',
  'event',
]);

interface Draft {
  id: string;
  title: string;
  priority?: BeadPriority;
  status?: string;
  assignee?: string;
  labels?: readonly string[];
  issueType?: string;
}

function priorityOf(text: string | undefined): BeadPriority | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  return isBeadPriority(n) ? n : undefined;
}

function withoutRelations(title: string): string {
  return title.replace(RELATION_SUFFIX, '');
}

function fromPretty(m: RegExpExecArray): Draft {
  const [, icon = '', id = '', prio, type, rest = ''] = m;
  let title = rest;
  // The ready view appends ` ← EPIC TITLE` for children.
  const arrow = title.indexOf(' ← ');
  if (arrow !== -1) title = title.slice(0, arrow);
  let issueType = type;
  // Closed tree rows print the type as a bare word.
  if (issueType === undefined && icon === '✓') {
    const space = title.indexOf(' ');
    const first = space === -1 ? '' : title.slice(0, space);
    if (KNOWN_TYPES.has(first)) {
      issueType = first;
      title = title.slice(space + 1);
    }
  }
  const status = STATUS_BY_ICON[icon];
  const priority = priorityOf(prio);
  return {
    id,
    title,
    ...(priority === undefined ? {} : { priority }),
    ...(status === undefined ? {} : { status }),
    ...(issueType === undefined ? {} : { issueType }),
  };
}

function fromFlat(m: RegExpExecArray): Draft {
  const [, icon, id = '', prio, type, statusWord, assignee, labels, title = ''] = m;
  const status = statusWord ?? (icon === undefined ? undefined : STATUS_BY_ICON[icon]);
  const priority = priorityOf(prio);
  return {
    id,
    title: withoutRelations(title),
    ...(priority === undefined ? {} : { priority }),
    ...(status === undefined ? {} : { status }),
    ...(type === undefined ? {} : { issueType: type }),
    ...(assignee === undefined ? {} : { assignee }),
    ...(labels === undefined ? {} : { labels: labels.split(' ').filter((l) => l !== '') }),
  };
}

function freeze(draft: Draft): Bead {
  return { ...draft };
}

/**
 * Parses every known human format of `bd ready` and `bd list` (tools.md §2.2–2.4): the pretty and
 * tree views, `--plain`, legacy v0.30 and v0.33–v0.46, `--flat` (current and legacy), `--long`
 * and agent mode, plus the "nothing" messages, tips, upgrade notices and footers. Fields a
 * format does not print are absent. An unknown line is an error rather than a silent skip, so a
 * new bd format cannot hide ready P0 work.
 */
export function parseBdText(stdout: string): Result<readonly Bead[], BdParseError> {
  const beads: Draft[] = [];
  // The bead whose indented detail lines (`Assignee:`, `Labels:`, long-view title) follow.
  let current: Draft | undefined;
  let longTitlePending = false;
  const lines = stripTerminalEscapes(stdout).split(/\r?\n/);
  for (const [index, raw] of lines.entries()) {
    const line = raw.trimEnd();
    if (line.trim() === '') {
      current = undefined;
      longTitlePending = false;
      continue;
    }
    if (/^\s/.test(line) && current !== undefined) {
      if (longTitlePending) {
        current.title = line.trim();
        longTitlePending = false;
        continue;
      }
      const detail = DETAIL.exec(line);
      if (detail !== null) {
        const [, key = '', value = ''] = detail;
        if (key === 'Assignee' && value !== '') current.assignee = value;
        else if (key === 'Labels')
          current.labels = value
            .replace(/^\[|\]$/g, '')
            .split(' ')
            .filter((l) => l !== '');
        continue;
      }
      return err({ kind: 'unrecognised-line', line: index + 1, text: line.slice(0, 200) });
    }
    if (IGNORED.some((pattern) => pattern.test(line))) continue;
    let m: RegExpExecArray | null;
    let draft: Draft | undefined;
    let isLongHeader = false;
    if ((m = PLAIN_ROW.exec(line)) !== null) {
      const [, prio, type, id = '', title = ''] = m;
      const priority = priorityOf(prio);
      draft = { id, title, ...(priority === undefined ? {} : { priority }), ...(type === undefined ? {} : { issueType: type }) };
    } else if ((m = LONG_HEADER.exec(line)) !== null) {
      const [, id = '', prio, type = '', status = ''] = m;
      const priority = priorityOf(prio);
      draft = { id, title: '', status, issueType: type, ...(priority === undefined ? {} : { priority }) };
      isLongHeader = true;
    } else if ((m = FLAT_ROW.exec(line)) !== null) {
      draft = fromFlat(m);
    } else if ((m = PRETTY_ROW.exec(line)) !== null) {
      draft = fromPretty(m);
    } else if ((m = AGENT_ROW.exec(line)) !== null) {
      const [, id = '', title = ''] = m;
      draft = { id, title: withoutRelations(title) };
    }
    if (draft === undefined) return err({ kind: 'unrecognised-line', line: index + 1, text: line.slice(0, 200) });
    longTitlePending = isLongHeader;
    beads.push(draft);
    current = draft;
  }
  return ok(beads.map(freeze));
}
