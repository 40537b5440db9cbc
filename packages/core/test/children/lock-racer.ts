/**
 * Child process for the cross-process lock tests. Waits for commands over IPC and runs them on
 * the real file lock store, answering with the outcome. `at` (epoch ms) lines racers up so
 * they hit the file system in the same millisecond.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { createFileLockStore } from '../../src/node/index.js';

/** A command from the parent. */
export type RacerCommand =
  | {
      readonly op: 'acquire';
      readonly id: number;
      readonly path: string;
      readonly owner: string;
      readonly nowMs: number;
      readonly staleAfterMs: number;
      readonly at: number;
    }
  | { readonly op: 'release'; readonly id: number; readonly path: string; readonly owner: string; readonly at: number }
  | { readonly op: 'exit' };

/** The child's answer. */
export interface RacerReply {
  readonly id: number;
  readonly pid: number;
  readonly ok: boolean;
  readonly value: unknown;
}

const send = (message: unknown): void => {
  process.send?.(message);
};

process.on('message', (raw) => {
  const command = raw as RacerCommand;
  if (command.op === 'exit') {
    process.disconnect();
    return;
  }
  void (async () => {
    const wait = command.at - Date.now();
    if (wait > 0) await delay(wait);
    const store = createFileLockStore({ path: command.path });
    const result =
      command.op === 'acquire'
        ? await store.acquire({ owner: command.owner, nowMs: command.nowMs, staleAfterMs: command.staleAfterMs })
        : await store.release(command.owner);
    const reply: RacerReply = result.isOk()
      ? { id: command.id, pid: process.pid, ok: true, value: result.value }
      : { id: command.id, pid: process.pid, ok: false, value: result.error };
    send(reply);
  })();
});

send('ready');
