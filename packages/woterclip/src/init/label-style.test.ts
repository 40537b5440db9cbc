import { describe, expect, it } from 'vitest';
import { INIT_LABELS } from './init-files.js';
import { OTHER_LABEL_COLOR, woterclipLabelStyle } from './label-style.js';

const DEFAULT_NAMES = { working: 'agent-working', blocked: 'agent-blocked' };

describe('woterclipLabelStyle: the fixed colour of a label the beat creates', () => {
  it('every init label gets the colour and description init gives it', () => {
    for (const l of INIT_LABELS) expect(woterclipLabelStyle(l.name, DEFAULT_NAMES)).toEqual({ color: l.color, description: l.description });
  });

  it('renamed working/blocked labels (labels: in config.yaml) keep the working/blocked colours', () => {
    const names = { working: 'bot-busy', blocked: 'bot-stuck' };
    expect(woterclipLabelStyle('bot-busy', names).color).toBe('0E8A16');
    expect(woterclipLabelStyle('bot-stuck', names).color).toBe('B60205');
    expect(woterclipLabelStyle('agent-working', names).color).toBe('0E8A16');
  });

  it('any other label (a persona of the user, say) gets GitHub’s default grey, never a random colour', () => {
    expect(woterclipLabelStyle('infra', DEFAULT_NAMES)).toEqual({ color: OTHER_LABEL_COLOR });
    expect(OTHER_LABEL_COLOR).toMatch(/^[0-9A-F]{6}$/);
  });
});
