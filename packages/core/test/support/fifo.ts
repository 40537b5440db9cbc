/**
 * FIFOs for in-process tests of code that must never read one. A blocking read of a FIFO holds a
 * libuv thread in the kernel, and a test worker with such a thread can never exit: a regression
 * would hang the whole suite, not fail one test. So the test holds the FIFO open read-write until
 * it finishes (passed, failed or timed out): a reader that wrongly opens it then waits only until
 * then, and reads end of file.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync } from 'node:fs';
import { onTestFinished } from 'vitest';

/** A FIFO made at `path` with `mkfifo`, held open until the current test finishes (or `release()`). */
export function heldFifo(path: string): { readonly release: () => void } {
  execFileSync('mkfifo', [path]);
  // Read-write never blocks on Linux, whatever else has the FIFO open.
  const fd = openSync(path, constants.O_RDWR | constants.O_NONBLOCK);
  let open = true;
  const release = (): void => {
    if (open) closeSync(fd);
    open = false;
  };
  onTestFinished(release);
  return { release };
}
