import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compilePanePrompt, DEFAULT_PANE_PROMPT, readPanePrompt } from './pane-prompt.js';

const prompt = compilePanePrompt(DEFAULT_PANE_PROMPT)!;
// What a person may type: no line breaks, and not only blanks or box borders.
const typedArb = fc.string({ minLength: 1, maxLength: 40 }).filter((t) => !/[\n\r]/.test(t) && /[^\s│┃|]/u.test(t));

describe('readPanePrompt', () => {
  it('reads the fake REPL, Claude Code and Codex input lines', () => {
    expect(readPanePrompt('fake agent ready\n> \n\n\n', prompt)).toEqual({ kind: 'idle' });
    expect(readPanePrompt('fake agent ready\n> half typ\n', prompt)).toEqual({ kind: 'typing', typed: 'half typ' });
    const claude = '⏺ Done.\n\n╭──────────────╮\n│ >            │\n╰──────────────╯\n  ? for shortcuts\n';
    expect(readPanePrompt(claude, prompt)).toEqual({ kind: 'idle' });
    expect(readPanePrompt(claude.replace('│ >            │', '│ > fix the bu │'), prompt)).toEqual({ kind: 'typing', typed: 'fix the bu' });
    expect(readPanePrompt('• Ran tests\n\n› \n\n  ⏎ send   ⌃J newline\n', prompt)).toEqual({ kind: 'idle' });
    expect(readPanePrompt('Compiling…\n  Running 12 tests\n', prompt)).toEqual({ kind: 'no-prompt', lastLine: '  Running 12 tests' });
    // A prompt far above the bottom is history, not the input line.
    expect(readPanePrompt('> \n1\n2\n3\n4\n', prompt).kind).toBe('no-prompt');
  });

  it('property: an empty prompt at the bottom is idle, text after it is typing, whatever came before', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.string({ maxLength: 30 }).map((l) => l.replace(/[\n\r]/g, ' ')),
          { maxLength: 8 },
        ),
        typedArb,
        (above, typed) => {
          const history = above.join('\n');
          expect(readPanePrompt(`${history}\n> \n`, prompt)).toEqual({ kind: 'idle' });
          const typing = readPanePrompt(`${history}\n> ${typed}\n`, prompt);
          expect(typing.kind).toBe('typing');
        },
      ),
    );
  });

  it('never throws on any capture', () => {
    fc.assert(fc.property(fc.string(), (capture) => typeof readPanePrompt(capture, prompt).kind === 'string'));
  });
});
