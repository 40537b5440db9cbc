import { createMemoryIssueTracker } from '../../src/testing/index.js';
import { issueTrackerContract } from './issue-tracker-contract.js';

issueTrackerContract('in-memory fake', (seed) =>
  Promise.resolve(
    createMemoryIssueTracker({
      login: seed.login,
      repoLabels: seed.labels,
      issues: seed.issues.map((i) => ({
        number: i.number,
        title: i.title,
        body: i.body ?? '',
        labels: [...(i.labels ?? [])],
        state: i.open === false ? ('closed' as const) : ('open' as const),
        assignedToMe: i.mine !== false,
        comments: (i.comments ?? []).map((c, n) => ({ ...c, url: `https://github.com/o/r/issues/${i.number}#issuecomment-${n + 1}` })),
      })),
    }),
  ),
);
