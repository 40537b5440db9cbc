import { formatActiveHours, type ActiveHoursWindow } from '../active-hours/active-hours.js';
import type { FindingCategory } from '../domain/categories.js';
import { OPEN_CATEGORIES, categoryComparator, type CategoryTable } from '../domain/category-table.js';
import type { Finding } from '../domain/finding.js';
import type { MessageFinding, OutboundMessage } from '../ports/sink.js';
import type { ResolvedNotice } from '../cycle/recovery-notices.js';
import { stableFindingId } from './message-id.js';
import { sanitizeForMessage } from '../text/sanitize.js';
import { formatLocalTimestamp } from '../time/local-timestamp.js';
import { estimateTokensByChars, type TokenEstimator } from './token-estimate.js';

/** The exact text of a quiet cycle. */
export const HEARTBEAT_OK = 'HEARTBEAT_OK';

/** Inputs of {@link renderWorkFound}. */
export interface WorkFoundInput {
  readonly findings: readonly Finding[];
  readonly cycle: number;
  readonly at: Date;
  readonly timeZone: string;
  /** Cut the Findings section per category ("+N more") to stay under this many tokens. */
  readonly budgetTokens: number;
  readonly estimateTokens?: TokenEstimator;
  /** Header order, briefs and list headings; default {@link OPEN_CATEGORIES}. */
  readonly categories?: CategoryTable;
  /** Delivered findings that cleared: one `RESOLVED:` line each (a report of only these is a short one). */
  readonly resolved?: readonly ResolvedNotice[];
}

/** A rendered report and what it costs. */
export interface RenderedReport {
  readonly message: OutboundMessage;
  readonly categories: readonly FindingCategory[];
  readonly estimatedTokens: number;
  /** Findings left out of the text by the per-category cut (still part of the decision). */
  readonly omitted: number;
}

/** Groups findings by category in header order (Immediate, Advisory, Normal, then table order). */
export function groupByCategory(
  findings: readonly Finding[],
  table: CategoryTable = OPEN_CATEGORIES,
): { category: FindingCategory; findings: Finding[] }[] {
  const compare = categoryComparator(table);
  const groups = new Map<FindingCategory, Finding[]>();
  for (const finding of findings) {
    const list = groups.get(finding.category);
    if (list) list.push(finding);
    else groups.set(finding.category, [finding]);
  }
  return [...groups.entries()]
    .map(([category, list]) => ({ category, findings: list }))
    .sort((a, b) => compare(a.findings[0]!, b.findings[0]!));
}

function clean(text: string): string {
  return text
    .split('\n')
    .map((line) => {
      // Keep a finding's own indentation: a PIPELINE_* block's detail lines are indented two spaces (spec 000).
      const indent = /^ {0,8}/.exec(line)?.[0] ?? '';
      const body = sanitizeForMessage(line, { maxLength: 300 });
      return body.length === 0 ? '' : indent + body;
    })
    .filter((line) => line.length > 0)
    .join('\n');
}

/** A finding as a message carries it for receivers: its stable id and what the Findings section shows. */
function messageFindingOf(finding: Finding): MessageFinding {
  return {
    id: stableFindingId(finding),
    // Names in it are untrusted (sessions, paths, pipeline names): made safe like the text.
    fingerprint: sanitizeForMessage(finding.fingerprint, { maxLength: 300 }),
    category: finding.category,
    priority: finding.priority,
    line: clean(finding.line),
  };
}

function briefOf(table: CategoryTable, category: FindingCategory, count: number): string {
  const noun = table.info(category)?.brief ?? category;
  return count > 1 ? `${noun} (${count})` : noun;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function formatCount(n: number): string {
  // en-US grouping by hand for integers: toLocaleString would load ICU's number data (~8 MiB).
  return Number.isSafeInteger(n) ? String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',') : n.toLocaleString('en-US');
}

function buildContent(
  input: WorkFoundInput,
  groups: ReturnType<typeof groupByCategory>,
  perCategory: number,
  tokens: number,
): { content: string; omitted: number } {
  const table = input.categories ?? OPEN_CATEGORIES;
  const resolved = resolvedLines(input.resolved);
  const source = [
    '## Source',
    `Heartbeat cycle #${input.cycle} at ${formatLocalTimestamp(input.at, input.timeZone)}`,
    `Token cost this cycle: ~${formatCount(tokens)} tokens`,
  ];
  // Only recoveries: a short report, never HEARTBEAT_OK (something the operator was told changed).
  if (groups.length === 0) return { content: [...resolved, '', ...source].join('\n'), omitted: 0 };
  const header = `WORK_FOUND: ${groups.map((g) => g.category).join(' + ')}`;
  const brief = `${capitalise(groups.map((g) => briefOf(table, g.category, g.findings.length)).join(' AND '))}.`;
  const lines: string[] = [];
  const actions: string[] = [];
  let omitted = 0;
  for (const group of groups) {
    const shown = group.findings.slice(0, perCategory);
    if (table.info(group.category)?.listHeading === true) lines.push(`${group.category}:`);
    for (const finding of shown) {
      lines.push(clean(finding.line));
      actions.push(clean(finding.action));
    }
    const rest = group.findings.length - shown.length;
    if (rest > 0) {
      omitted += rest;
      lines.push(`+${rest} more ${group.category}`);
    }
  }
  const uniqueActions = [...new Set(actions)];
  const content = [
    header,
    '',
    '## Context Brief',
    brief,
    '',
    '## Findings',
    ...lines,
    '',
    '## Recommended Action',
    ...uniqueActions.map((a, i) => `${i + 1}. ${a}`),
    '',
    ...(resolved.length > 0 ? ['## Resolved', ...resolved, ''] : []),
    ...source,
  ].join('\n');
  return { content, omitted };
}

/** Renders the cost line's number as a fixed point: the estimate of the text that contains it. */
function renderWithCost(
  input: WorkFoundInput,
  groups: ReturnType<typeof groupByCategory>,
  perCategory: number,
): { content: string; tokens: number; omitted: number } {
  const estimate = input.estimateTokens ?? estimateTokensByChars;
  let tokens = 0;
  let built = buildContent(input, groups, perCategory, tokens);
  for (let i = 0; i < 4; i++) {
    const next = estimate(built.content);
    if (next === tokens) break;
    tokens = next;
    built = buildContent(input, groups, perCategory, tokens);
  }
  return { content: built.content, tokens: estimate(built.content), omitted: built.omitted };
}

/** One line per cleared finding: `RESOLVED: ` and the line the operator was told. */
function resolvedLines(resolved: readonly ResolvedNotice[] | undefined): string[] {
  return (resolved ?? []).map((notice) => `RESOLVED: ${sanitizeForMessage(notice.line.split('\n')[0] ?? '', { maxLength: 300 })}`);
}

function summaryOf(groups: ReturnType<typeof groupByCategory>, resolved: readonly ResolvedNotice[] | undefined): string {
  if (groups.length === 0) {
    const names = (resolved ?? []).map((n) => sanitizeForMessage(n.fingerprint, { maxLength: 60 }));
    return `RESOLVED -- ${names.slice(0, 3).join(', ')}${names.length > 3 ? ` +${names.length - 3} more` : ''}`;
  }
  const shorts = groups.flatMap((g) => g.findings.map((f) => sanitizeForMessage(f.short, { maxLength: 60 })));
  const shown = shorts.slice(0, 3);
  const more = shorts.length - shown.length;
  const tail = more > 0 ? `${shown.join(', ')} +${more} more` : shown.join(', ');
  return `${groups.map((g) => g.category).join(' + ')} -- ${tail}`;
}

/**
 * Renders one WORK_FOUND message for every reportable finding of a cycle: a `WORK_FOUND:` header
 * naming the categories, then each category's block (the report format of spec 000).
 * When the text would exceed the budget, each category is cut to its first findings plus
 * a `+N more CATEGORY` line, as many per category as fit.
 */
export function renderWorkFound(input: WorkFoundInput): RenderedReport {
  const groups = groupByCategory(input.findings, input.categories);
  const largest = Math.max(1, ...groups.map((g) => g.findings.length));
  let perCategory = largest;
  let rendered = renderWithCost(input, groups, perCategory);
  if (rendered.tokens > input.budgetTokens) {
    // Binary search the largest per-category count that fits; 1 is the floor.
    let lo = 1;
    let hi = largest - 1;
    let best = renderWithCost(input, groups, 1);
    let bestCount = 1;
    while (lo <= hi) {
      const mid = Math.floor((lo + hi) / 2);
      const attempt = renderWithCost(input, groups, mid);
      if (attempt.tokens <= input.budgetTokens) {
        best = attempt;
        bestCount = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    perCategory = bestCount;
    rendered = best;
  }
  return {
    message: {
      kind: groups.length === 0 ? 'resolved' : 'work_found',
      content: rendered.content,
      summary: summaryOf(groups, input.resolved),
      cycle: input.cycle,
      at: input.at.toISOString(),
      findings: groups.flatMap((g) => g.findings.map(messageFindingOf)),
      ...((input.resolved ?? []).length > 0
        ? { resolved: (input.resolved ?? []).map((n) => sanitizeForMessage(n.fingerprint, { maxLength: 300 })) }
        : {}),
    },
    categories: groups.map((g) => g.category),
    estimatedTokens: rendered.tokens,
    omitted: rendered.omitted,
  };
}

/**
 * The startup message, `HEARTBEAT_ONLINE:` with the interval, the active hours and whether HEARTBEAT.md
 * was found (spec 000's startup protocol; `Active hours: 8-22`, or `08:30-18:15 Mon-Fri` beyond its form).
 */
export function renderOnline(input: {
  intervalMs: number;
  activeHours: Pick<ActiveHoursWindow, 'start' | 'end' | 'days'>;
  configFound: boolean | 'empty';
  at: Date;
}): OutboundMessage {
  return {
    kind: 'online',
    content: `HEARTBEAT_ONLINE: Work-finder loop starting. Interval: ${Math.round(input.intervalMs / 1000)}s. Active hours: ${formatActiveHours(input.activeHours)}. HEARTBEAT.md: ${input.configFound === 'empty' ? 'empty' : input.configFound ? 'found' : 'missing'}.`,
    summary: 'Heartbeat online -- scanning starting',
    at: input.at.toISOString(),
  };
}

/** The final status message sent when the heartbeat stops: cycles completed and what it found (spec 000's shutdown protocol). */
export function renderShutdown(input: {
  cyclesCompleted: number;
  cyclesPartial?: number;
  cutOff?: readonly string[];
  reportsSent: number;
  at: Date;
}): OutboundMessage {
  // A cycle a signal cut short did not look everywhere: it is counted apart, naming what was cut off.
  const partial =
    (input.cyclesPartial ?? 0) > 0 ? ` ${input.cyclesPartial} partial (cut off: ${(input.cutOff ?? []).join(', ') || 'unknown'}),` : '';
  return {
    kind: 'shutdown',
    content: `HEARTBEAT_SHUTDOWN: Final status -- ${input.cyclesCompleted} cycles completed,${partial} ${input.reportsSent} reports sent.`,
    summary: 'Heartbeat shutting down',
    at: input.at.toISOString(),
  };
}

/** The cost warning sent when one cycle exceeds the token budget. */
export function renderCostAlert(input: { cycle: number; tokens: number; budgetTokens: number; at: Date }): OutboundMessage {
  return {
    kind: 'cost_alert',
    content: `COST_ALERT: Heartbeat cycle #${input.cycle} used ~${formatCount(input.tokens)} tokens (budget: ${formatCount(input.budgetTokens)}). Consider simplifying HEARTBEAT.md checks.`,
    summary: 'Heartbeat cost exceeded budget',
    cycle: input.cycle,
    at: input.at.toISOString(),
  };
}
