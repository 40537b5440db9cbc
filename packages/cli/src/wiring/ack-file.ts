import { decodeHeartbeatState, type JsonValue } from '@heartbeat-kit/core';
import { type Ack, type AckHolding, ackHolding } from '@heartbeat-kit/core/host';
import { ackPathFor, createFileAckStore, readRegularFile } from '@heartbeat-kit/core/node';

/**
 * The last state as the cycle left it, read only: a command that only reads (ack, plan,
 * check-liveness) must not set a corrupt state aside, so the state store's repairs are not used.
 */
export async function readLastState(statePath: string): Promise<JsonValue | undefined> {
  try {
    return JSON.parse(await readRegularFile(statePath)) as JsonValue;
  } catch {
    return undefined; // none yet, or unreadable: nothing was held
  }
}

/** The operator's acks beside a state file, or the reason they cannot be read (a warning: never fatal to a reader). */
export async function readAcks(statePath: string): Promise<{ acks: readonly Ack[]; warnings: readonly string[] }> {
  const loaded = await createFileAckStore({ path: ackPathFor(statePath) }).load();
  if (loaded.isErr()) return { acks: [], warnings: [`the acks are not shown: ${loaded.error.message}`] };
  return { acks: loaded.value.book.acks, warnings: loaded.value.warnings };
}

/** What the acks beside `statePath` hold at `nowMs` (see {@link ackHolding}), with the warnings of reading them. */
export async function readAckHolding(
  statePath: string,
  nowMs: number,
  maxOpenAgeMs: number,
): Promise<{ holding: AckHolding; warnings: readonly string[] }> {
  const { acks, warnings } = await readAcks(statePath);
  if (acks.length === 0) return { holding: { inForce: 0, held: [], warnings: [] }, warnings };
  const memory = decodeHeartbeatState(await readLastState(statePath)).state.acked;
  return { holding: ackHolding(acks, memory, nowMs, maxOpenAgeMs), warnings };
}

/** The text line of a holding: how many findings the acks hold, or nothing when no ack is in force. */
export function ackHoldingLine(holding: AckHolding): string | undefined {
  if (holding.inForce === 0) return undefined;
  const findings = `${holding.held.length} finding${holding.held.length === 1 ? '' : 's'}`;
  return `held by acks: ${findings} (${holding.inForce} ack${holding.inForce === 1 ? '' : 's'} in force; see 'heartbeat-kit ack --list')`;
}
