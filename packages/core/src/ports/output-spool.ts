import type { ResultAsync } from 'neverthrow';

/** Why an output spool could not do its job. */
export interface OutputSpoolError {
  readonly kind: 'io';
  readonly message: string;
}

/**
 * One spool opened for one command: hand `stdout` to the runner (`CommandRequest.stdoutTo`) so the
 * child writes straight into durable storage, not through this process's memory.
 */
export interface OpenSpool {
  /** Names the spool in `remove` and `setAside`. */
  readonly id: string;
  /** What the runner gives the child as its stdout. */
  readonly stdout: SpoolStdout;
  /** After the child exited: flush the spool to disk and read it back (it stays until `remove`). */
  readonly collect: () => ResultAsync<string, OutputSpoolError>;
}

/** A child's stdout redirected to a spool: a file descriptor the child inherits, and who writes it. */
export interface SpoolStdout {
  readonly fd: number;
  /** Called as soon as the child exists, so a later cycle can tell whether it still writes. */
  readonly onSpawn: (pid: number) => void;
}

/** A spool left by a cycle that died before it was done with it. */
export interface LeftoverSpool {
  readonly id: string;
  readonly text: string;
}

/** What the leftover spools are: those still being written (their writer lives) are left for a later cycle. */
export interface LeftoverSpools {
  readonly spools: readonly LeftoverSpool[];
  /** How many were skipped because the process writing them still runs. */
  readonly stillWritten: number;
}

/**
 * Raw output of a consuming command (the GChat poller marks replies read as it prints them) kept
 * on disk from the moment the child writes it until its content is safe elsewhere (the reply
 * inbox). The kernel writes the child's bytes even when the cycle is SIGKILLed, so nothing the
 * child printed depends on this process surviving; the next cycle finds the spool in `leftovers`.
 */
export interface OutputSpool {
  readonly open: () => ResultAsync<OpenSpool, OutputSpoolError>;
  /** Spools of earlier (killed) cycles whose writer has exited, oldest first. */
  readonly leftovers: () => ResultAsync<LeftoverSpools, OutputSpoolError>;
  /** Its content is safe elsewhere: delete it. */
  readonly remove: (id: string) => ResultAsync<void, OutputSpoolError>;
  /** It could not be (fully) read: keep it for the operator under a new name, returned. */
  readonly setAside: (id: string) => ResultAsync<string, OutputSpoolError>;
}
