import { DEFAULT_HEARTBEAT_CONFIG, createFinding, runLoop, scanOk, type Scanner } from '@heartbeat-kit/core';
import { createFakeClock, createMemoryStateStore, createRecordingSink } from '@heartbeat-kit/core/testing';

// Your own scan target: anything that can say "there is work" (a queue, an inbox, an API).
const inbox: Scanner = {
  name: 'inbox',
  runsOutsideActiveHours: true,
  scan: () =>
    Promise.resolve(
      scanOk('inbox', {
        findings: [
          createFinding({
            category: 'INBOX_WAITING',
            priority: 'Immediate',
            subject: 'team-inbox',
            line: 'INBOX: 3 unread requests',
            action: 'Triage the team inbox',
            short: '3 unread',
          }),
        ],
      }),
    ),
};
const clock = createFakeClock(new Date()); // or systemClock from ./node
const sink = createRecordingSink(); // or your own Sink: Slack, an agent's inbox, a queue
const stop = new AbortController();
await runLoop(
  { clock, sleep: clock, stateStore: createMemoryStateStore(), sink, scanners: [inbox] },
  {
    settings: () => ({ config: DEFAULT_HEARTBEAT_CONFIG, timeZone: 'UTC' }),
    configFound: false,
    signal: stop.signal,
    onCycle: ({ decision }) => {
      console.log(decision.cycle, decision.status, decision.categories.join(' + '));
      if (decision.cycle === 3) stop.abort();
      else setImmediate(() => clock.advance(600_000));
    },
  },
);
console.log(sink.delivered.map((m) => m.kind).join(', ')); // online, work_found, shutdown
