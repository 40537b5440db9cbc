import type { PlannedAck } from '@heartbeat-kit/core/host';

/** The text lines of `plan` for the acks in force: a heading, then one line per ack (none: no lines). */
export function plannedAckLines(acks: readonly PlannedAck[]): string[] {
  if (acks.length === 0) return [];
  const lines = [`Operator acks in force: ${acks.length} (list: heartbeat-kit ack --list; end one: heartbeat-kit unack ID)`];
  for (const ack of acks) {
    const end =
      ack.until === undefined
        ? 'no end: until the finding changes'
        : ack.endsInSlot === undefined
          ? `until ${ack.until}, past this plan`
          : `until ${ack.until}, ends in the slot at ${ack.endsInSlot}`;
    lines.push(`  ${ack.id}  ${ack.selector}${ack.snooze ? ' (snooze)' : ''}  by ${ack.by}, ${end}: ${ack.note}`);
  }
  return lines;
}
