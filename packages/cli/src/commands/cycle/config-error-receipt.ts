import type { Clock } from '@heartbeat-kit/core';
import { settleSlot } from '@heartbeat-kit/core/host';
import { EXIT } from '../../exit-codes.js';
import type { CliIo } from '../../io.js';
import { withPingFailures } from '../../pings/ping-outcome.js';
import { pingerFor, type PingFlagValues } from '../../pings/ping-wiring.js';
import { appendReceipt, receiptStoreFor } from '../../wiring/receipts.js';

/**
 * The receipt of a slot whose config could not be read, so liveness checks see why it did not
 * run. The config is what names the monitor, so only `--ping` can say so off-host: the slot
 * ended with exit 2.
 */
export async function recordConfigError(
  flags: PingFlagValues,
  failure: { readonly statePath: string; readonly message: string },
  context: { readonly io: CliIo; readonly wall: Clock },
): Promise<void> {
  const { statePath, message } = failure;
  const { io, wall } = context;
  const at = (): number => wall.now().getTime();
  const pinging = pingerFor(flags, { value: undefined, file: '' }, { io, command: 'cycle', statePath, dryRun: false });
  // The one ending->receipt mapping every runner uses; the ping goes first, as the slot's end.
  await settleSlot({
    body: async () => ({
      end: { kind: 'config-error', detail: message.slice(0, 200) },
      value: pinging.isOk()
        ? await pinging.value?.end(at(), { kind: 'end', result: { kind: 'exit', code: EXIT.usage }, summary: `config error: ${message}` })
        : undefined,
    }),
    stamp: () => ({ slotMs: at(), atMs: at(), source: 'cycle' }),
    record: async ({ receipt, value: pinged }) => {
      if (receipt !== undefined)
        await appendReceipt(receiptStoreFor(statePath, wall), withPingFailures(receipt, pinged), statePath, io, 'cycle');
    },
  });
}
