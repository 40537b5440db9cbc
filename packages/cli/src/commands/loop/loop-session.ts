import type { CycleDeps, CycleOutcome, ReceiptStore } from '@heartbeat-kit/core';
import type { PauseDecision } from '@heartbeat-kit/core/host';
import type { CliIo } from '../../io.js';
import type { SlotPinger } from '../../pings/slot-pinger.js';
import type { LoadedHeartbeatSettings } from '../../wiring/heartbeat-settings.js';

/** What changes while the loop runs: the settings in force, the last cycle, the pause, a scan in flight. */
export interface LoopLive {
  current: LoadedHeartbeatSettings;
  /** This loop's last cycle that ran (for the figures). */
  lastOutcome?: CycleOutcome;
  paused: PauseDecision;
  /** A first signal waits for the scan in flight. */
  inFlight: boolean;
}

/** One running loop: what its slots, receipts and reports need. */
export interface LoopSession {
  readonly io: CliIo;
  readonly json: boolean;
  /** `--now`: nothing is written that a real run reads, no lock is taken. */
  readonly rehearsal: boolean;
  readonly statePath: string;
  readonly receipts: ReceiptStore;
  /** The cycle's ports on the loop's clock (a rehearsal's state in memory). */
  readonly deps: CycleDeps;
  readonly pinger: SlotPinger | undefined;
  /** The default route's sink kind: the SINK_FAILING advisory goes to stderr when it is stdout. */
  readonly sinkKind: string;
  /** Rewrites `--metrics-textfile` (nothing without it). */
  readonly exportTextfile: () => Promise<void>;
  readonly live: LoopLive;
}
