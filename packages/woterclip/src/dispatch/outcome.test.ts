import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseOutcome } from './outcome.js';
import { expandCommand } from './command-dispatcher.js';
import { parentReference } from './prompt.js';

describe('parseOutcome', () => {
  it('reads the last marker line and maps "in progress" to in_progress', () => {
    const out = 'thinking…\nWOTERCLIP_OUTCOME {"status":"blocked"}\nmore\nWOTERCLIP_OUTCOME {"status":"in progress","commits":["a1b2c3d feat: x"]}\n';
    const o = parseOutcome(out)._unsafeUnwrap();
    expect(o.status).toBe('in_progress');
    expect(o.commits).toEqual([{ sha: 'a1b2c3d', message: 'feat: x' }]);
  });

  it('no marker, bad JSON or a bad status are errors', () => {
    expect(parseOutcome('done!').isErr()).toBe(true);
    expect(parseOutcome('WOTERCLIP_OUTCOME {oops').isErr()).toBe(true);
    expect(parseOutcome('WOTERCLIP_OUTCOME {"status":"done"}').isErr()).toBe(true);
  });

  it('property: never throws on arbitrary output', () => {
    fc.assert(fc.property(fc.string(), fc.jsonValue(), (noise, value) => {
      void parseOutcome(noise);
      void parseOutcome(`${noise}\nWOTERCLIP_OUTCOME ${JSON.stringify(value)}`);
    }));
  });
});

describe('expandCommand', () => {
  it('property: values stay inside their argument, however hostile', () => {
    fc.assert(fc.property(fc.string(), (value) => {
      const argv = expandCommand(['agent', '--model', '{model}', 'x{persona}y'], { model: value, persona: value, max_turns: '1', thinking_effort: 'low' });
      expect(argv).toEqual(['agent', '--model', value, `x${value}y`]);
    }));
  });
});

describe('parentReference', () => {
  it('finds Parent: #N', () => {
    expect(parentReference('Do this.\n\nParent: #42')).toBe(42);
    expect(parentReference('no parent; see #42')).toBeUndefined();
  });
});
