import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ENV_NAME_PATTERN } from '@heartbeat-kit/core/host';
import {
  fileSignature,
  formatPrefetchPlan,
  parsePrefetchPlan,
  prefetchKey,
  prefetchPlanName,
  sameEnvAllow,
  type PrefetchPlan,
} from './prefetch-plan.js';
import { PREFETCH_IDS, prefetchRequest } from './prefetch-requests.js';

const envName = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,10}\*?$/);
const plan = fc.record({
  kit: fc.string({ maxLength: 10 }),
  key: fc.string({ maxLength: 40 }),
  config: fc.oneof(
    fc.constant('absent'),
    fc
      .tuple(fc.nat(), fc.double({ min: 0, max: 4e12, noNaN: true }), fc.nat())
      .map(([size, mtimeMs, ino]) => fileSignature({ size, mtimeMs, ino })),
  ),
  validUntilMs: fc.integer({ min: 0, max: 4_000_000_000_000 }),
  envAllow: fc.option(fc.array(envName, { maxLength: 4 }), { nil: null }),
  ids: fc.uniqueArray(fc.constantFrom(...PREFETCH_IDS)),
});

/** A valid plan's JSON, to damage. */
const good = (): Record<string, unknown> =>
  JSON.parse(
    formatPrefetchPlan({
      kit: '1',
      key: 'k',
      config: 'absent',
      validUntilMs: 9,
      envAllow: null,
      ids: ['bd-ready-json', 'tmux-list-sessions'],
    }),
  ) as Record<string, unknown>;

/** Any JSON value, and objects shaped like a plan with any value in any field (the near misses). */
const anyPlanJson = fc.oneof(
  fc.jsonValue(),
  fc
    .record({
      field: fc.constantFrom('version', 'kit', 'key', 'config', 'validUntilMs', 'envAllow', 'ids', 'requests', 'file', 'args', 'env'),
      value: fc.oneof(
        fc.jsonValue(),
        fc.array(fc.oneof(fc.constantFrom(...PREFETCH_IDS), fc.string()), { maxLength: 4 }),
        fc.constant([{ file: 'sh', args: ['-c', 'touch /tmp/x'] }]),
      ),
      drop: fc.boolean(),
    })
    .map(({ field, value, drop }) => {
      const json = good();
      if (drop) delete json[field];
      else json[field] = value;
      return json;
    }),
);

describe('prefetch plan', () => {
  it('reads back what it wrote, each id once, and an unchanged plan is the same text', () => {
    fc.assert(
      fc.property(plan, (p) => {
        const text = formatPrefetchPlan(p);
        const read = parsePrefetchPlan(text);
        expect(read._unsafeUnwrap()).toEqual({ version: 2, ...p });
        if (read.isOk()) expect(formatPrefetchPlan(read.value)).toBe(text);
        // A repeated id is written once.
        expect(formatPrefetchPlan({ ...p, ids: [...p.ids, ...p.ids] })).toBe(text);
      }),
    );
  });

  it('any JSON in the file is either a subset of the closed id set or refused with a reason — never a command line', () => {
    let accepted = 0;
    fc.assert(
      fc.property(anyPlanJson, (json) => {
        const verdict = parsePrefetchPlan(JSON.stringify(json));
        if (verdict.isErr()) {
          expect(verdict.error).toMatch(/^[\x20-\x7e]+$/);
          return;
        }
        accepted += 1;
        const p: PrefetchPlan = verdict.value;
        // Exactly the plan's fields: nothing else is carried over from the file.
        expect(Object.keys(p).sort()).toEqual(['config', 'envAllow', 'ids', 'key', 'kit', 'validUntilMs', 'version']);
        expect(new Set(p.ids).size).toBe(p.ids.length);
        for (const id of p.ids) expect(PREFETCH_IDS).toContain(id);
        for (const name of p.envAllow ?? []) expect(name).toMatch(ENV_NAME_PATTERN);
        // What an accepted plan can start: the code's listings, whatever else the file said.
        for (const id of p.ids)
          expect(['bd', 'tmux', 'git']).toContain(prefetchRequest(id, { project: '/p', tmuxSocket: undefined })?.file);
      }),
      { numRuns: 2000 },
    );
    // The generator reaches acceptance too, so the property is not vacuous.
    expect(accepted).toBeGreaterThan(0);
    fc.assert(
      fc.property(fc.string(), (text) => {
        expect(() => parsePrefetchPlan(text)).not.toThrow();
      }),
    );
  });

  it('refuses a plan with anything unexpected, and never quotes the file in the reason', () => {
    const damaged: [Record<string, unknown>, RegExp][] = [
      [{ ...good(), version: 1 }, /format version is 1, not 2/],
      [{ ...good(), version: '2' }, /format version is not a number/],
      [{ ...good(), requests: [{ file: 'sh', args: ['-c', 'rm -rf /'] }] }, /a field a plan never has \(requests\)$/],
      [{ ...good(), 'sh -c evil': 1 }, /a field a plan never has$/],
      [{ ...good(), ids: ['bd-ready-json', 'sh -c touch /tmp/x'] }, /^ids\[1\] is not one of the listings/],
      [{ ...good(), ids: [{ file: 'sh' }] }, /^ids\[0\] is not one of/],
      [{ ...good(), ids: ['bd-ready', 'bd-ready'] }, /^ids\[1\] repeats bd-ready$/],
      [{ ...good(), ids: 'bd-ready' }, /^ids is not a list$/],
      [{ ...good(), envAllow: ['LD_PRELOAD=/tmp/x.so'] }, /^envAllow is neither/],
      [{ ...good(), envAllow: 'PATH' }, /^envAllow is neither/],
      [{ ...good(), config: '$(touch x)' }, /^config is not a file signature$/],
      [{ ...good(), validUntilMs: 'tomorrow' }, /^validUntilMs is not a time$/],
      [{ ...good(), kit: 7 }, /^kit is not a version$/],
      [(({ ids: _ids, ...rest }) => rest)(good() as { ids: unknown }), /^it lacks ids$/],
      [[] as unknown as Record<string, unknown>, /^it is not a JSON object$/],
    ];
    for (const [json, reason] of damaged) {
      const reasonGiven = parsePrefetchPlan(JSON.stringify(json))._unsafeUnwrapErr();
      expect(reasonGiven).toMatch(reason);
      expect(reasonGiven).not.toMatch(/sh -c|rm -rf|touch|LD_PRELOAD/);
    }
    // Cut short (a write that never finished): not a plan.
    expect(parsePrefetchPlan(JSON.stringify(good()).slice(0, -9))._unsafeUnwrapErr()).toBe('it is not JSON (cut short?)');
  });

  it('compares environment policies by their names, absent and null alike', () => {
    expect(sameEnvAllow(undefined, null)).toBe(true);
    expect(sameEnvAllow(['A', 'B'], ['A', 'B'])).toBe(true);
    expect(sameEnvAllow(['A'], undefined)).toBe(false);
    expect(sameEnvAllow(['A', 'B'], ['B', 'A'])).toBe(false);
    expect(sameEnvAllow([], null)).toBe(false);
  });

  it('names one file per directory and flags, and a changed file has another signature', () => {
    const key = prefetchKey({ cwd: '/repo', config: undefined, state: undefined, tmuxSocket: undefined });
    expect(prefetchPlanName(key)).toMatch(/^cycle-prefetch-[0-9a-f]{8}\.json$/);
    expect(prefetchPlanName(key)).toBe(prefetchPlanName(key));
    expect(prefetchPlanName(prefetchKey({ cwd: '/repo', config: undefined, state: undefined, tmuxSocket: 'work' }))).not.toBe(
      prefetchPlanName(key),
    );
    expect(fileSignature(undefined)).toBe('absent');
    expect(fileSignature({ size: 1, mtimeMs: 2, ino: 3 })).not.toBe(fileSignature({ size: 1, mtimeMs: 2.5, ino: 3 }));
  });

  it('keeps core’s rule for variable names (a copy: core’s index would load zod before the first command)', () => {
    fc.assert(
      fc.property(fc.oneof(envName, fc.string({ maxLength: 12 })), (name) => {
        const viaPlan = parsePrefetchPlan(JSON.stringify({ ...good(), envAllow: [name] })).isOk();
        expect(viaPlan).toBe(ENV_NAME_PATTERN.test(name));
      }),
    );
  });
});
