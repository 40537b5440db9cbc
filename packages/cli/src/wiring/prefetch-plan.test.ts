import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_PLANNED_REQUESTS,
  fileSignature,
  formatPrefetchPlan,
  parsePrefetchPlan,
  plannedRequest,
  prefetchKey,
  prefetchPlanName,
  sameEnvAllow,
  sameRequest,
  type PlannedRequest,
} from './prefetch-plan.js';

const request = fc.record(
  {
    file: fc.string({ minLength: 1, maxLength: 12 }),
    args: fc.array(fc.string({ maxLength: 12 }), { maxLength: 6 }),
    cwd: fc.string({ maxLength: 20 }),
    env: fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 3 }),
    profile: fc.constantFrom('bd', 'git', 'tmux', 'gh', 'gchat', 'agent', 'gate', 'command' as const),
    timeoutMs: fc.integer({ min: 1, max: 100_000 }),
    maxOutputBytes: fc.integer({ min: 1, max: 10_000_000 }),
  },
  { requiredKeys: ['file', 'args'] },
) as fc.Arbitrary<PlannedRequest>;

const plan = fc.record({
  kit: fc.string({ maxLength: 10 }),
  key: fc.string({ maxLength: 40 }),
  config: fc.record({ path: fc.string({ maxLength: 30 }), signature: fc.string({ maxLength: 20 }) }),
  validUntilMs: fc.integer({ min: 0, max: 4_000_000_000_000 }),
  envAllow: fc.option(fc.array(fc.string({ minLength: 1, maxLength: 8 }), { maxLength: 4 }), { nil: null }),
  requests: fc.array(request, { maxLength: MAX_PLANNED_REQUESTS }),
});

/** A plan of one version, key and config, holding `requests`. */
const smallPlan = (requests: PlannedRequest[]) => ({
  kit: '1',
  key: 'k',
  config: { path: '/c', signature: 'absent' },
  validUntilMs: 9,
  envAllow: null,
  requests,
});

describe('prefetch plan', () => {
  it('reads back what it wrote, each distinct request once, and an unchanged plan is the same text', () => {
    fc.assert(
      fc.property(plan, (p) => {
        const text = formatPrefetchPlan(p);
        const read = parsePrefetchPlan(text);
        expect(read).toBeDefined();
        expect(read?.key).toBe(p.key);
        expect(read?.envAllow).toEqual(p.envAllow);
        expect(read?.validUntilMs).toBe(p.validUntilMs);
        const distinct = new Set(p.requests.map((r) => JSON.stringify(plannedRequest(r))));
        expect(read?.requests.length).toBe(distinct.size);
        for (const r of p.requests) expect(read?.requests.some((back) => sameRequest(back, r))).toBe(true);
        expect(formatPrefetchPlan({ ...p, requests: read?.requests ?? [] })).toBe(text);
      }),
    );
  });

  it('never throws on any text, and a plan with anything unexpected in it is not a plan', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), (text) => {
        expect(() => parsePrefetchPlan(text)).not.toThrow();
      }),
    );
    const good = JSON.parse(formatPrefetchPlan(smallPlan([{ file: 'bd', args: ['ready'] }]))) as Record<string, unknown>;
    expect(parsePrefetchPlan(JSON.stringify(good))).toBeDefined();
    const damaged: Record<string, unknown>[] = [
      { ...good, version: 2 },
      { ...good, requests: [{ file: 'bd', args: ['ready'], input: 'rm -rf /' }] },
      { ...good, requests: [{ file: 'bd', args: 'ready' }] },
      { ...good, requests: [{ file: '', args: [] }] },
      { ...good, requests: [{ file: 'bd', args: [], profile: 'shell' }] },
      { ...good, requests: [{ file: 'bd', args: [], env: { A: 1 } }] },
      { ...good, requests: [{ file: 'bd', args: [], timeoutMs: -1 }] },
      { ...good, requests: Array.from({ length: MAX_PLANNED_REQUESTS + 1 }, () => ({ file: 'bd', args: [] })) },
      { ...good, envAllow: 'A' },
      { ...good, validUntilMs: 'tomorrow' },
      { ...good, config: { path: '/c' } },
    ];
    for (const d of damaged) expect(parsePrefetchPlan(JSON.stringify(d))).toBeUndefined();
    // Cut short (a write that never finished): not a plan.
    expect(parsePrefetchPlan(formatPrefetchPlan(smallPlan([])).slice(0, -9))).toBeUndefined();
  });

  it('hands a run only to a request equal to it in every field', () => {
    fc.assert(
      fc.property(request, (r) => {
        expect(sameRequest(r, { ...r, speculative: true })).toBe(true);
        expect(sameRequest(r, { ...r, args: [...r.args, 'x'] })).toBe(false);
        expect(sameRequest(r, { ...r, file: `${r.file}x` })).toBe(false);
        expect(sameRequest(r, { ...r, cwd: `${r.cwd ?? ''}/x` })).toBe(false);
        expect(sameRequest(r, { ...r, env: { ...r.env, HK_EXTRA: '1' } })).toBe(false);
        expect(sameRequest(r, { ...r, timeoutMs: (r.timeoutMs ?? 0) + 1 })).toBe(false);
        expect(sameRequest(r, { ...r, maxOutputBytes: (r.maxOutputBytes ?? 0) + 1 })).toBe(false);
        expect(sameRequest(r, { ...r, profile: r.profile === 'git' ? 'bd' : 'git' })).toBe(false);
        // Input or a spool: never a prefetched run.
        expect(sameRequest(r, { ...r, input: '' })).toBe(false);
        expect(sameRequest(r, { ...r, stdoutTo: { fd: 1, onSpawn: () => undefined } })).toBe(false);
      }),
    );
    // The environment's order does not matter; its content does.
    expect(sameRequest({ file: 'git', args: [], env: { A: '1', B: '2' } }, { file: 'git', args: [], env: { B: '2', A: '1' } })).toBe(true);
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
});
