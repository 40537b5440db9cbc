import type { Clock, LockStore, Receipt, ReceiptStore } from '@heartbeat-kit/core';
import type { BreakerSettings } from '@heartbeat-kit/core/host';
import type { PersonaConfig, WoterclipConfig } from '../config/woterclip-config.js';
import type { IssueStatus } from '../log/log-lines.js';
import type { BeatLog } from '../ports/beat-log.js';
import type { Dispatcher } from '../ports/dispatcher.js';
import type { IssueTracker } from '../ports/issue-tracker.js';
import type { ToolProbe, WorkspaceFiles } from '../ports/workspace.js';
import type { StopReason } from './stop-reasons.js';

// The beat's types, apart from the steps that use them: every step imports this module and none
// imports another step for a type, so the beat's files form no import circle.

/** The ports a beat runs on. The CLI picks the concrete adapters; tests pass fakes. */
export interface BeatDeps {
  readonly tracker: IssueTracker;
  readonly dispatcher: Dispatcher;
  /** The `.woterclip/.heartbeat-lock` store (core's file lock store with the WoterClip codec). */
  readonly lock: LockStore;
  readonly log: BeatLog;
  /** Reads files relative to `.woterclip/`. */
  readonly files: WorkspaceFiles;
  readonly tools: ToolProbe;
  readonly clock: Clock;
  /** Second half of the beat id `<epoch>-<pid>`. */
  readonly pid: number;
  /**
   * Where every beat leaves exactly one receipt (`ran` or `skipped` with its reason); the last
   * one also carries the beat count and the dispatch breaker. Without it nothing is recorded
   * and the dispatch breaker never trips.
   */
  readonly receipts?: ReceiptStore;
  /** Overrides the dispatch circuit breaker's settings of `.woterclip/config.yaml` (`dispatch.breaker`; default after 3 beats, back-off cap 8). */
  readonly dispatchBreaker?: BreakerSettings;
  /**
   * Ctrl-C or SIGTERM (the CLI's shutdown signal; abort it with the signal's name). Once aborted,
   * a failure is the interruption's, not GitHub's or the agent's: the beat ends `interrupted` at its
   * next step, writes no beat line (the closed set of stop reasons has none for it), does not count
   * the cut-off dispatch in the breaker and releases its lock.
   */
  readonly signal?: AbortSignal;
}

/** Flags of one beat. */
export interface BeatOptions {
  readonly dryRun?: boolean;
  readonly persona?: string;
  /**
   * An operator pause with `--except-critical` (see `decideBeatPause`): the beat runs as in quiet
   * hours with behavior triage-only, and this line says why.
   */
  readonly triageOnly?: string;
  /** The config the caller already loaded (the CLI, to wire the ports): the beat does not read it again. */
  readonly loaded?: LoadedWoterclipConfig;
}

/** How a beat ended: one entry per row of the reference's exit table, plus usage and I/O errors. */
export type BeatExit =
  | 'config-missing'
  | 'config-invalid'
  | 'usage'
  | 'lock-conflict'
  | 'lock-error'
  | 'quiet-hours'
  | 'dry-run'
  | 'queue-empty'
  | 'complete'
  | 'blocked-exit'
  | 'superseded'
  | 'withdrawn'
  | 'time-ceiling'
  | 'issue-budget'
  | 'breaker-open'
  | 'interrupted';

/** One issue worked this beat. */
export interface WorkedIssue {
  readonly issue: number;
  readonly persona: string;
  readonly status: IssueStatus;
  readonly heartbeat: number;
}

/** What a beat did. `messages` are for the operator; the CLI maps `exit` to its exit code. */
export interface BeatResult {
  readonly exit: BeatExit;
  readonly stopReason?: StopReason;
  readonly beatId?: string;
  readonly messages: readonly string[];
  readonly warnings: readonly string[];
  readonly worked: readonly WorkedIssue[];
  readonly suggestions: readonly string[];
  /** The dry-run listing, when `dryRun`. */
  readonly dryRun?: string;
  /** An issue whose report comment could not be posted (GitHub failed), when one could not. */
  readonly reportNotPosted?: number;
  /** The issue in hand when a signal interrupted the beat (exit `interrupted`). */
  readonly interruptedIssue?: number;
  /** This beat's number (beats that reached the inbox or were held back), when receipts are kept. */
  readonly beatNumber?: number;
  /** The dispatch breaker's advisory, recovery or held-back line of this beat. */
  readonly breakerLine?: string;
  /** The receipt this beat left (absent without a receipt store, or when it could not be written). */
  readonly receipt?: Receipt;
}

/** A persona with its validated config and its SOUL.md / TOOLS.md text. */
export interface LoadedPersona {
  readonly name: string;
  readonly label: string | null;
  readonly config: PersonaConfig;
  readonly soul: string;
  readonly tools: string;
}

/** The repo config and its personas, loaded and validated once per beat (the CLI loads it to wire the ports). */
export interface LoadedWoterclipConfig {
  readonly config: WoterclipConfig;
  readonly personas: ReadonlyMap<string, LoadedPersona>;
}
