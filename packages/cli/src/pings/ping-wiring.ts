// Picks a command's pinger: `--ping` (with `--ping-flavour`) over HEARTBEAT.md `## Delivery` → `Ping:`; none for a rehearsal.
import { err, ok, type Result } from 'neverthrow';
import type { CliIo } from '../io.js';
import { parsePingSpec, PING_FLAVOURS } from './ping-spec.js';
import { createSlotPinger, type SlotPinger } from './slot-pinger.js';

/** The ping flags' values. */
export interface PingFlagValues {
  readonly ping?: string | undefined;
  readonly 'ping-flavour'?: string | undefined;
}

/** Checks the ping flags before anything is read: bad input is a usage error that writes nothing. */
export function checkPingFlags(values: PingFlagValues): Result<void, string> {
  const flavour = values['ping-flavour'];
  if (flavour !== undefined && !(PING_FLAVOURS as readonly string[]).includes(flavour))
    return err(`--ping-flavour "${flavour}" is not a ping protocol. Fix: --ping-flavour healthchecks or cronitor.`);
  if (values.ping === undefined) return ok(undefined);
  const parsed = parsePingSpec(values.ping, '--ping', flavour);
  return parsed.isOk() ? ok(undefined) : err(parsed.error);
}

/**
 * The pinger of this invocation, or undefined: no target, or a dry run / rehearsal (which never
 * pings: a monitor would count it as a real slot). A failed ping is one stderr warning.
 */
export function pingerFor(
  values: PingFlagValues,
  configPing: { readonly value: string | undefined; readonly file: string },
  context: {
    readonly io: CliIo;
    readonly command: string;
    readonly statePath: string;
    readonly dryRun: boolean;
    readonly fetch?: typeof fetch;
  },
): Result<SlotPinger | undefined, string> {
  const target = values.ping ?? configPing.value;
  if (target === undefined) return ok(undefined);
  const where = values.ping === undefined ? `${configPing.file}: Delivery → Ping` : '--ping';
  const parsed = parsePingSpec(target, where, values['ping-flavour']);
  if (parsed.isErr()) return err(parsed.error);
  if (context.dryRun) return ok(undefined);
  const { io, command } = context;
  return ok(
    createSlotPinger({
      spec: parsed.value,
      statePath: context.statePath,
      onFailure: (line) => io.stderr(`heartbeat-kit ${command}: warning: ${line}\n`),
      ...(context.fetch === undefined ? {} : { fetch: context.fetch }),
    }),
  );
}
