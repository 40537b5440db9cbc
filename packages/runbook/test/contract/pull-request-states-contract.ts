import { describe, expect, it } from 'vitest';
import type { PullRequestState, PullRequestStates } from '../../src/index.js';

/** The PRs every implementation under test must know. */
export const CONTRACT_WORLD: Readonly<Record<string, PullRequestState>> = {
  '#12': { state: 'MERGED', mergedAt: '2026-10-19T08:00:00Z' },
  '#13': { state: 'CLOSED', mergedAt: null },
  '#14': { state: 'OPEN', mergedAt: null },
};

/** The contract of the PullRequestStates port, run against the fake and the gh adapter. */
export function pullRequestStatesContract(name: string, make: () => PullRequestStates): void {
  describe(`PullRequestStates contract: ${name}`, () => {
    it.each([12, 13, 14])('reads #%i', async (n) => {
      const r = await make().read({ number: n });
      expect(r._unsafeUnwrap()).toEqual(CONTRACT_WORLD[`#${n}`]);
    });
    it('an unknown PR is a not-found error, never a throw', async () => {
      const r = await make().read({ number: 999 });
      expect(r._unsafeUnwrapErr().kind).toBe('not-found');
    });
  });
}
