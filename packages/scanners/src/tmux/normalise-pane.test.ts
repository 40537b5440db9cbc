import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fixture } from '../../test/support/fixtures.js';
import { hashPaneCapture, normalisePaneCapture } from './normalise-pane.js';

describe('normalisePaneCapture', () => {
  it('drops the empty rows below the prompt of a real capture', () => {
    const text = normalisePaneCapture(fixture('tmux', 'capture-pane-p.txt'));
    expect(text.split('\n')).toHaveLength(6);
    expect(text.endsWith('root@vm:/tmp/hbscratch#')).toBe(true);
  });

  it('gives -p and -e captures of the same pane the same hash', () => {
    expect(hashPaneCapture(fixture('tmux', 'capture-pane-p-e.txt'))).toBe(hashPaneCapture(fixture('tmux', 'capture-pane-p.txt')));
    expect(hashPaneCapture(fixture('tmux', 'capture-pane-p-session-with-space.txt'))).not.toBe(
      hashPaneCapture(fixture('tmux', 'capture-pane-p.txt')),
    );
  });

  it('keeps only the last 20 lines, strips colours and redacts secrets', () => {
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i}`);
    lines.push('\x1b[31mtoken ghp_abcdefghijklmnopqrstuvwxyz0123\x1b[0m   ', '', '');
    const text = normalisePaneCapture(lines.join('\n'));
    expect(text.split('\n')).toHaveLength(20);
    expect(text.split('\n')[0]).toBe('line 11');
    expect(text.endsWith('token [REDACTED]')).toBe(true);
    expect(hashPaneCapture(lines.join('\n'))).toMatch(/^[0-9a-f]{64}$/);
  });

  it('a change in the last 20 lines changes the hash; trailing blank rows do not', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z ]{0,10}$/), { maxLength: 30 }), fc.nat(5), (lines, blanks) => {
        const base = lines.join('\n');
        expect(hashPaneCapture(base + '\n'.repeat(blanks))).toBe(hashPaneCapture(base));
        expect(hashPaneCapture(`${base}\nnew output`)).not.toBe(hashPaneCapture(base));
      }),
    );
  });

  it('is idempotent and never throws', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const once = normalisePaneCapture(text);
        expect(normalisePaneCapture(once)).toBe(once);
      }),
    );
  });
});
