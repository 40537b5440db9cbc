import type { WoterclipConfig } from '../config/woterclip-config.js';
import type { IssueSummary } from '../ports/issue-tracker.js';

/** Status labels the loop reads and writes (reference §10). */
export const STATUS_LABELS = { inProgress: 'in-progress', inReview: 'in-review', backlog: 'backlog', todo: 'todo' } as const;

/** Priority labels (reference §10). */
export const PRIORITY_LABELS = { high: 'priority:high', low: 'priority:low' } as const;

/** The persona an issue belongs to: the first persona whose label it carries, else the default persona. */
export function personaForLabels(labels: readonly string[], personas: WoterclipConfig['personas']): string | undefined {
  for (const [name, persona] of Object.entries(personas)) {
    if (persona.label !== null && labels.includes(persona.label)) return name;
  }
  return defaultPersona(personas);
}

/** The persona with `is_default: true`, if any. */
export function defaultPersona(personas: WoterclipConfig['personas']): string | undefined {
  return Object.entries(personas).find(([, p]) => p.is_default)?.[0];
}

/** What filtering needs besides the issues. */
export interface InboxFilter {
  readonly config: WoterclipConfig;
  /** `--persona NAME`: keep only issues carrying that persona's label (the default persona: its issues). */
  readonly persona?: string;
  /** Quiet hours `triage-only`: only issues for the default persona. */
  readonly triageOnly: boolean;
  /** `agent-blocked` issues where a human commented after the last agent comment. */
  readonly unblockedByHuman: ReadonlySet<number>;
  /** Parents whose last logged status is `decomposed`: they wait below their children. */
  readonly decomposed: ReadonlySet<number>;
}

/** An eligible issue and the persona it resolves to. */
export interface InboxEntry {
  readonly issue: IssueSummary;
  readonly persona: string;
}

function statusRank(labels: readonly string[]): number {
  return labels.includes(STATUS_LABELS.inProgress) ? 0 : 1;
}

function priorityRank(labels: readonly string[]): number {
  if (labels.includes(PRIORITY_LABELS.high)) return 0;
  if (labels.includes(PRIORITY_LABELS.low)) return 2;
  return 1;
}

/**
 * Filters and sorts the inbox (reference §8). Sort: `in-progress` first, then `priority:high` >
 * none > `priority:low`; ties (open question Q3) go to non-decomposed issues first, so a
 * decomposed parent waits below its children, then oldest `createdAt`, then lowest number.
 */
export function buildInbox(issues: readonly IssueSummary[], filter: InboxFilter): InboxEntry[] {
  const { config } = filter;
  const fallback = defaultPersona(config.personas);
  const entries: InboxEntry[] = [];
  for (const issue of issues) {
    const labels = issue.labels;
    if (labels.includes(STATUS_LABELS.backlog) || labels.includes(STATUS_LABELS.inReview)) continue;
    if (labels.includes(config.labels.blocked) && !filter.unblockedByHuman.has(issue.number)) continue;
    const persona = personaForLabels(labels, config.personas);
    if (persona === undefined) continue;
    if (filter.triageOnly && persona !== fallback) continue;
    if (filter.persona !== undefined && persona !== filter.persona) continue;
    entries.push({ issue, persona });
  }
  const time = (i: IssueSummary): number => {
    const t = Date.parse(i.createdAt);
    return Number.isNaN(t) ? Number.MAX_SAFE_INTEGER : t;
  };
  return entries.sort(
    (a, b) =>
      statusRank(a.issue.labels) - statusRank(b.issue.labels) ||
      priorityRank(a.issue.labels) - priorityRank(b.issue.labels) ||
      Number(filter.decomposed.has(a.issue.number)) - Number(filter.decomposed.has(b.issue.number)) ||
      time(a.issue) - time(b.issue) ||
      a.issue.number - b.issue.number,
  );
}

/** One line of a dry-run listing: `#12 [backend] "Title" (in-progress, priority:high)`. */
export function describeEntry(entry: InboxEntry, sanitize: (text: string) => string): string {
  const tags = [
    entry.issue.labels.includes(STATUS_LABELS.inProgress) ? STATUS_LABELS.inProgress : STATUS_LABELS.todo,
    ...entry.issue.labels.filter((l) => l === PRIORITY_LABELS.high || l === PRIORITY_LABELS.low),
  ];
  return `#${entry.issue.number} [${entry.persona}] "${sanitize(entry.issue.title)}" (${tags.join(', ')})`;
}

/** The dry-run report in the spec's shape. */
export function renderDryRun(entries: readonly InboxEntry[], sanitize: (text: string) => string): string {
  const [first, ...rest] = entries;
  if (first === undefined) return 'Dry run — would pick nothing: no issues in queue.';
  return [
    'Dry run — would pick:',
    `  ${describeEntry(first, sanitize)}`,
    'Queue:',
    ...(rest.length === 0 ? ['  (empty)'] : rest.map((e) => `  ${describeEntry(e, sanitize)}`)),
  ].join('\n');
}
