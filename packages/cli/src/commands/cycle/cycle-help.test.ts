import { describe, expect, it } from 'vitest';
import { CYCLE_OPTIONS } from '../../wiring/cycle-options.js';
import { CYCLE_SPEC } from './cycle-help.js';

/** A flag table in parseArgs form, as the prefetch reads argv. */
function parserTable(flags: Record<string, { type: string; short?: string; multiple?: boolean }>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(flags).map(([name, f]) => [
      name,
      { type: f.type, ...(f.short === undefined ? {} : { short: f.short }), ...(f.multiple === true ? { multiple: true } : {}) },
    ]),
  );
}

describe('CYCLE_SPEC', () => {
  // The bin's prefetch parses cycle's argv with CYCLE_OPTIONS before the command loads: a flag the
  // command takes that the prefetch does not know would make it refuse a valid argv and start nothing.
  it('declares exactly the flags of the prefetch table (plus the kernel`s own --help)', () => {
    expect({ ...parserTable(CYCLE_SPEC.flags), help: { type: 'boolean', short: 'h' } }).toEqual(CYCLE_OPTIONS);
  });
});
