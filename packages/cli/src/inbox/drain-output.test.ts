import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AgentInboxMessage } from '@heartbeat-kit/core/node';
import { parseHookInput, renderDrain, renderMessage, selectForDrain } from './drain-output.js';

const entry = (id: string, content = `WORK_FOUND: ${id}`): AgentInboxMessage => ({
  id,
  message: { kind: 'work_found', content, summary: id, at: '2026-02-19T14:00:00.000Z', id },
});

const entries = fc.array(
  fc
    .record({ id: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'), content: fc.string({ maxLength: 300 }) })
    .map((r) => entry(r.id, r.content)),
  { maxLength: 12 },
);

describe('selectForDrain', () => {
  it('prints each id at most once, the first always, keeps order, and leaves every other id waiting (property)', () => {
    fc.assert(
      fc.property(entries, fc.integer({ min: 1, max: 2000 }), (messages, maxChars) => {
        const { printed, left } = selectForDrain(messages, maxChars);
        const printedIds = printed.map((m) => m.id);
        expect(new Set(printedIds).size).toBe(printedIds.length);
        const unique = [...new Set(messages.map((m) => m.id))];
        expect([...printedIds, ...left.map((m) => m.id)]).toEqual(unique);
        if (messages.length > 0) expect(printedIds[0]).toBe(messages[0]!.id);
        if (printed.length > 1) expect(printed.reduce((n, m) => n + renderMessage(m).length + 2, 0)).toBeLessThanOrEqual(maxChars);
      }),
    );
  });
});

describe('renderDrain', () => {
  const selection = selectForDrain([entry('hb-1'), entry('hb-2')], 9000);

  it('claude-hook: one JSON object answering the event, additionalContext naming every id once', () => {
    const out = JSON.parse(renderDrain('claude-hook', selection, 'SessionStart')) as {
      hookSpecificOutput: { hookEventName: string; additionalContext: string };
    };
    expect(out.hookSpecificOutput.hookEventName).toBe('SessionStart');
    expect(out.hookSpecificOutput.additionalContext).toContain('ids hb-1, hb-2');
    expect(out.hookSpecificOutput.additionalContext.match(/message hb-1 at/g)).toHaveLength(1);
  });

  it('nothing waiting: claude-hook and text print nothing, json an empty list', () => {
    const none = selectForDrain([], 9000);
    expect(renderDrain('claude-hook', none, 'UserPromptSubmit')).toBe('');
    expect(renderDrain('text', none, 'UserPromptSubmit')).toBe('');
    expect(JSON.parse(renderDrain('json', none, 'UserPromptSubmit'))).toEqual({ messages: [], waiting: 0 });
  });

  it('says how many wait for the next drain', () => {
    const cut = selectForDrain([entry('hb-1', 'x'.repeat(50)), entry('hb-2', 'y'.repeat(50))], 60);
    expect(renderDrain('text', cut, 'UserPromptSubmit')).toContain('(1 more waiting: the next drain delivers them)');
  });
});

describe('parseHookInput', () => {
  it('reads hook_event_name, and says what is wrong otherwise', () => {
    expect(parseHookInput('{"hook_event_name":"UserPromptSubmit","prompt":"hi"}')._unsafeUnwrap()).toBe('UserPromptSubmit');
    expect(parseHookInput('')._unsafeUnwrapErr()).toBe('stdin is not JSON');
    expect(parseHookInput('[1]')._unsafeUnwrapErr()).toBe('stdin JSON has no "hook_event_name"');
  });
});
