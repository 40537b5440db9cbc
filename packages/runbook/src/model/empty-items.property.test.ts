/**
 * One definition of "item" across every command's view of a runbook: a runbook built only from
 * headers, HTML comments, empty list items and blank lines is effectively empty and has no item for
 * `check`, `due`, `prune`, `quiet` or `tick`; one real tracked item makes it non-empty everywhere.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { calendarDateIn } from '../dates/date-tokens.js';
import { dueItemsOn, itemsAtOrPastDateOn } from '../dates/due-items.js';
import { planPruneOn } from '../prune/prune-plan.js';
import { decideQuietFastPath } from '../quiet/quiet-fast-path.js';
import { createFakeGate, makeStatus, makeTask } from '../testing/index.js';
import { runChecklistTick, type TickInput } from '../tick/checklist-tick.js';
import { validateRunbook } from '../validate/validate-runbook.js';
import { isEffectivelyEmpty } from './effectively-empty.js';
import { parseRunbook, REFERENCE_SECTIONS, TRACKED_SECTIONS } from './runbook.js';

const now = new Date('2026-10-20T10:00:00Z');
const today = calendarDateIn(now, 'UTC');
const status = makeStatus({
  tasks: [makeTask({ id: 'prev-1', status: 'completed', taskType: 'heartbeat-checklist', output: 'All clear' }, '2026-10-20T09:00:00Z')],
});
const noScripts = { scheduleHealth: { flagged: [], totalSchedules: 0 }, failureAudit: { taskIds: [] } };
const tickInput = (runbookText: string): TickInput => ({
  runbookText,
  status,
  now,
  timeZone: 'UTC',
  settings: { intervalMs: 1_800_000, disabled: false, gateMode: 'enforce' },
});

const ws = fc.constantFrom('', ' ', '  ', '\t');
const cr = fc.constantFrom('', '\r');
// Free text on one line with no `>`, so it can never close a comment early.
const text = fc.string({ maxLength: 30 }).map((s) => s.replace(/[\r\n]/g, ' ').replace(/>/g, ')'));
const dueLine = '- Real item. Lift when x (check 10-20)';

const emptyItem = fc
  .tuple(
    fc.constantFrom('', ' ', '  ', '   '),
    fc.constantFrom('-', '*', '+'),
    ws,
    fc.constantFrom('', '[]', '[ ]', '[  ]', '[\t]'),
    ws,
    cr,
  )
  .map((parts) => parts.join(''));
const header = fc
  .tuple(
    fc.constantFrom('', ' ', '   '),
    fc.integer({ min: 1, max: 6 }).map((n) => '#'.repeat(n)),
    fc.constantFrom(' ', '  ', '\t'),
    // A header needs a name: `## ` alone trims to `##`, which is content on the server.
    fc.oneof(
      fc.constantFrom(...TRACKED_SECTIONS, ...REFERENCE_SECTIONS, 'Notes'),
      text.filter((s) => s.trim() !== ''),
    ),
    cr,
  )
  .map((parts) => parts.join(''));
const comment = fc.oneof(
  fc.tuple(ws, text, text).map(([indent, body, tail]) => `${indent}<!--${body}-->${tail}`),
  fc
    .tuple(text, fc.array(fc.oneof(text, fc.constant(dueLine)), { maxLength: 3 }), text, text)
    .map(([open, inner, close, tail]) => [`<!--${open}`, ...inner, `${close}-->${tail}`].join('\n')),
);
const blank = fc.constantFrom('', ' ', '\t', '\r', '  \r');
const emptyBlocks = fc.array(fc.oneof(header, comment, emptyItem, blank), { maxLength: 25 });

const realItem = fc
  .tuple(fc.constantFrom('-', '*', '+', '1.'), fc.constantFrom('', '[ ] '), fc.nat(99))
  .map(([marker, box, n]) => `${marker} ${box}Real item ${n}. Lift when x (check 10-20)`);

describe('"heartbeatMd is empty, or holds only headers and comments: no checklist task, no cost" (spec 003), empty list items included (reference §2)', () => {
  it('property: headers, comments, empty items and blank lines are effectively empty and hold no item for any command', async () => {
    await fc.assert(
      fc.asyncProperty(emptyBlocks, async (blocks) => {
        const runbookText = blocks.join('\n');
        const runbook = parseRunbook(runbookText);
        expect(isEffectivelyEmpty(runbookText)).toBe(true);
        expect(runbook.sections.flatMap((s) => s.items)).toEqual([]);
        expect(validateRunbook(runbook)).toEqual({ accepted: true, trackedItemCount: 0, errors: [], warnings: [] }); // check
        expect(dueItemsOn(runbook, today)).toEqual([]); // due
        expect(planPruneOn(runbook, today).entries).toEqual([]); // prune
        expect(itemsAtOrPastDateOn(runbook, today)).toEqual([]); // quiet
        expect(decideQuietFastPath({ status, runbook, now, timeZone: 'UTC', scripts: noScripts }).quiet).toBe(true);
        const gate = createFakeGate({ quiet: false, reason: 'wake', summary: 'wake' });
        expect(await runChecklistTick(tickInput(runbookText), { gate })).toMatchObject({ kind: 'skip', reason: 'runbook-empty' }); // tick
        expect(gate.calls).toEqual([]);
      }),
    );
  });

  it('property: one real tracked item among them makes the runbook non-empty and is the one item every command sees', async () => {
    await fc.assert(
      fc.asyncProperty(emptyBlocks, fc.nat(), realItem, async (blocks, at, item) => {
        const k = at % (blocks.length + 1);
        const runbookText = [...blocks.slice(0, k), '## Watch Items', item, ...blocks.slice(k)].join('\n');
        const runbook = parseRunbook(runbookText);
        expect(isEffectivelyEmpty(runbookText)).toBe(false);
        expect(runbook.trackedItems.map((i) => i.text)).toEqual([item]);
        expect(validateRunbook(runbook)).toMatchObject({ accepted: true, trackedItemCount: 1 });
        expect(dueItemsOn(runbook, today).map((d) => d.item.text)).toEqual([item]);
        expect(itemsAtOrPastDateOn(runbook, today).map((d) => d.item.text)).toEqual([item]);
        const gate = createFakeGate({ quiet: false, reason: 'wake', summary: 'wake' });
        expect(await runChecklistTick(tickInput(runbookText), { gate })).toMatchObject({ kind: 'create' });
        expect(gate.calls).toHaveLength(1);
      }),
    );
  });
});
