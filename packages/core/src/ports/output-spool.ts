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
  /**
   * After the child exited: flush the spool to disk and read it back, no more than the adapter's
   * read cap of it (it stays until `remove`).
   */
  readonly collect: () => ResultAsync<SpoolText, OutputSpoolError>;
}

/** A child's stdout redirected to a spool: a file descriptor the child inherits, and who writes it. */
export interface SpoolStdout {
  readonly fd: number;
  /** Called as soon as the child exists, so a later cycle can tell whether it still writes. */
  readonly onSpawn: (pid: number) => void;
}

/**
 * What was read of a spool. A child may print without limit into a file, so a spool is read like
 * every other output is captured: up to a cap (the process runner's, 4 MiB, by default); past it,
 * only the first `readBytes` bytes are in `text`.
 */
export interface SpoolText {
  /** The spool's bytes as UTF-8, its first `readBytes` of them when it is over the cap. */
  readonly text: string;
  /** The spool's whole size in bytes. */
  readonly size: number;
  /** How many of its bytes `text` holds: less than `size` when the spool is over the cap. */
  readonly readBytes: number;
}

/** A spool left by a cycle that died before it was done with it. */
export interface LeftoverSpool extends SpoolText {
  readonly id: string;
}

/**
 * An entry named like a spool that is not one the adapter wrote (a symbolic link, a directory, a
 * FIFO) or that could not be opened: never followed or read. `setAside(id)` moves it out of the way.
 */
export interface RefusedSpool {
  readonly id: string;
  /** `not-a-file`: a link, directory, FIFO… (never a spool this kit wrote); `unreadable`: a file it could not open or read. */
  readonly kind: 'not-a-file' | 'unreadable';
  /** What it is (`a symbolic link, …`, `could not be opened (EACCES)`): never any of the entry's (or its target's) content. */
  readonly reason: string;
}

/** What the leftover spools are: those still being written (their writer lives) are left for a later cycle. */
export interface LeftoverSpools {
  readonly spools: readonly LeftoverSpool[];
  /** Entries that are not spools, or could not be opened: set them aside, they are never read. */
  readonly refused: readonly RefusedSpool[];
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
  /**
   * Spools of earlier (killed) cycles whose writer has exited, oldest first. Reads about one cap's
   * worth in all (at least one spool): the rest wait for the next listing, so memory stays bounded.
   */
  readonly leftovers: () => ResultAsync<LeftoverSpools, OutputSpoolError>;
  /** Its content is safe elsewhere: delete it. */
  readonly remove: (id: string) => ResultAsync<void, OutputSpoolError>;
  /** It could not be (fully) read: keep it for the operator under a new name, returned. */
  readonly setAside: (id: string) => ResultAsync<string, OutputSpoolError>;
}
