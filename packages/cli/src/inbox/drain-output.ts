import type { AgentInboxMessage } from '@heartbeat-kit/core/node';
import { err, ok, type Result } from 'neverthrow';

/** The output formats of `heartbeat-kit inbox drain`. */
export type DrainFormat = 'claude-hook' | 'text' | 'json';

/** Claude Code hook events whose JSON output may carry `hookSpecificOutput.additionalContext`. */
export const CONTEXT_HOOK_EVENTS = ['UserPromptSubmit', 'SessionStart'] as const;

/** One of {@link CONTEXT_HOOK_EVENTS}. */
export type ContextHookEvent = (typeof CONTEXT_HOOK_EVENTS)[number];

/** What one drain prints, and what it leaves waiting for the next. */
export interface DrainSelection {
  readonly printed: readonly AgentInboxMessage[];
  readonly left: readonly AgentInboxMessage[];
}

/** One message as the agent reads it: its id first, so the agent can tell copies apart. */
export function renderMessage(entry: AgentInboxMessage): string {
  return `[heartbeat-kit inbox message ${entry.id} at ${entry.message.at}]\n${entry.message.content}`;
}

/**
 * The messages one drain prints: one per id (the first), in order, while their rendered text fits
 * `maxChars` (Claude Code shows a long `additionalContext` only as a preview); the first always
 * goes, so an oversized message cannot block the inbox. The rest stay waiting.
 */
export function selectForDrain(messages: readonly AgentInboxMessage[], maxChars: number): DrainSelection {
  const seen = new Set<string>();
  const printed: AgentInboxMessage[] = [];
  const left: AgentInboxMessage[] = [];
  let used = 0;
  for (const entry of messages) {
    if (seen.has(entry.id)) continue;
    seen.add(entry.id);
    const size = renderMessage(entry).length + 2;
    if (printed.length === 0 || (left.length === 0 && used + size <= maxChars)) {
      printed.push(entry);
      used += size;
    } else left.push(entry);
  }
  return { printed, left };
}

/** The text an agent receives: a header with the ids, each message, and how many still wait. */
export function renderDrainText(selection: DrainSelection): string {
  const { printed, left } = selection;
  if (printed.length === 0) return '';
  const header = `heartbeat-kit inbox: ${printed.length} new message${printed.length === 1 ? '' : 's'} (ids ${printed.map((m) => m.id).join(', ')}); each id is delivered once.`;
  const more = left.length === 0 ? '' : `\n\n(${left.length} more waiting: the next drain delivers them)`;
  return `${header}\n\n${printed.map(renderMessage).join('\n\n')}${more}`;
}

/** The stdout of a drain, or '' when nothing is waiting (a hook that prints nothing adds nothing). */
export function renderDrain(format: DrainFormat, selection: DrainSelection, event: ContextHookEvent): string {
  if (format === 'json')
    return `${JSON.stringify({
      messages: selection.printed.map(({ id, message }) => ({
        id,
        kind: message.kind,
        at: message.at,
        ...(message.cycle === undefined ? {} : { cycle: message.cycle }),
        summary: message.summary,
        content: message.content,
      })),
      waiting: selection.left.length,
    })}\n`;
  const text = renderDrainText(selection);
  if (text === '') return '';
  if (format === 'text') return `${text}\n`;
  return `${JSON.stringify({ hookSpecificOutput: { hookEventName: event, additionalContext: text } })}\n`;
}

/** The hook event of a Claude Code hook's stdin JSON, or why it cannot be read. */
export function parseHookInput(text: string): Result<string, string> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return err('stdin is not JSON');
  }
  const event = typeof value === 'object' && value !== null ? (value as { hook_event_name?: unknown }).hook_event_name : undefined;
  return typeof event === 'string' && event !== '' ? ok(event) : err('stdin JSON has no "hook_event_name"');
}

/** Whether `event` is one whose output can add context. */
export function isContextHookEvent(event: string): event is ContextHookEvent {
  return (CONTEXT_HOOK_EVENTS as readonly string[]).includes(event);
}
