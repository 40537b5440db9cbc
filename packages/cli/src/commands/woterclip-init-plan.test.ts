import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planInitFiles } from './woterclip-init.js';

const PATHS = ['a', 'b', 'c', 'd'];

describe('planInitFiles (issue 26 item 9: a resumable woterclip init)', () => {
  it('property: never overwrites a file, never drops one, and refuses only over a file with other content', () => {
    fc.assert(
      fc.property(fc.subarray(PATHS), fc.subarray(PATHS), fc.boolean(), (presentList, sameList, labels) => {
        const present = new Set(presentList);
        const identical = new Set(sameList.filter((p) => present.has(p)));
        const plan = planInitFiles(PATHS, present, identical, labels);
        // Nothing that exists is ever written.
        for (const p of plan.write) expect(present.has(p)).toBe(false);
        if (plan.conflicts.length > 0) {
          expect(plan.write).toEqual([]);
          for (const p of plan.conflicts) expect(present.has(p) && !identical.has(p)).toBe(true);
        } else {
          // Every file ends up there: written now or kept.
          expect([...plan.write, ...plan.kept].sort()).toEqual(PATHS);
        }
        // A resumed --labels (every file there) never refuses; without --labels an edited file does.
        if (labels && present.size === PATHS.length) expect(plan.conflicts).toEqual([]);
        if (!labels && present.size > identical.size) expect(plan.conflicts.length).toBeGreaterThan(0);
      }),
    );
  });
});
