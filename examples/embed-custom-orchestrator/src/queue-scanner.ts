import { readFile } from 'node:fs/promises';
import { createFinding, scanOk, type Scanner } from '@heartbeat-kit/core';

/** Options of {@link createQueueScanner}. */
export interface QueueScannerOptions {
  /** A file holding one number: how many jobs wait in the orchestrator's queue. */
  readonly file: string;
  /** Report when more than this many jobs wait. */
  readonly threshold: number;
}

/**
 * An embedder's own scan target: the length of a job queue, read from a file. A custom category
 * carries its own priority class; the subject (the queue file) is the fingerprint, so the same
 * backlog is reported once per dedup window however long it stays. Its `content` leaves out the
 * length, which moves all the time: a longer queue is not news, only a backlog is (a changed
 * content would be reported at once, inside the window).
 */
export function createQueueScanner(options: QueueScannerOptions): Scanner {
  return {
    name: 'job-queue',
    runsOutsideActiveHours: false,
    scan: async () => {
      let text: string;
      try {
        text = await readFile(options.file, 'utf8');
      } catch (error) {
        // A scanner never rejects: a failure becomes an error result and the cycle goes on.
        return { scanner: 'job-queue', status: 'error', error: (error as Error).message, durationMs: 0 };
      }
      const length = Number.parseInt(text.trim(), 10);
      if (!Number.isFinite(length) || length <= options.threshold) return scanOk('job-queue', {});
      const finding = createFinding({
        category: 'QUEUE_BACKLOG',
        priority: 'Advisory',
        subject: options.file,
        line: `QUEUE BACKLOG: ${length} jobs waiting (threshold ${options.threshold})`,
        action: 'Start another worker or drain the queue',
        short: `${length} jobs queued`,
        details: { length, threshold: options.threshold },
        content: { threshold: options.threshold },
      });
      return scanOk('job-queue', { findings: [finding] });
    },
  };
}
