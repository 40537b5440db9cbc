import { killRunningProcessGroups } from '@heartbeat-kit/core/node';

/**
 * Ends this process now, as `signal`'s default action would, whatever it is waiting for. Node's
 * own exit (`process.exit`, or the event loop running dry) waits for every libuv worker thread,
 * and a thread stuck in the kernel (a FIFO's open with no writer, a read from a dead NFS server)
 * never returns, so neither way ever ends a process with such a read; only the kernel's default
 * action does. The groups this process's runners started are killed first, because the 'exit'
 * hook that does it on an ordinary exit is skipped. The shell sees 128 + the signal (130, 143).
 */
export function endBySignal(signal: 'SIGINT' | 'SIGTERM'): void {
  killRunningProcessGroups();
  // Without a listener Node restores the default disposition: the raised signal ends the process.
  process.removeAllListeners(signal);
  process.kill(process.pid, signal);
}
