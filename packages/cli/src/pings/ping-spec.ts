// Where off-host pings go: `--ping URL` / HEARTBEAT.md `## Delivery` → `Ping:`, and in which protocol.
import { err, ok, type Result } from 'neverthrow';

/** The protocols a ping speaks: Healthchecks.io's (`/start`, base, `/fail`, `/N`) or Cronitor's telemetry (`?state=`). */
export const PING_FLAVOURS = ['healthchecks', 'cronitor'] as const;

/** A ping protocol (see {@link PING_FLAVOURS}). */
export type PingFlavour = (typeof PING_FLAVOURS)[number];

/** A validated ping target. `url` is the base URL; it is a credential (a check's UUID, an API key): never printed whole. */
export interface PingSpec {
  readonly flavour: PingFlavour;
  readonly url: string;
  /** What may be printed of the URL: its origin only (the path is the secret). */
  readonly origin: string;
}

/**
 * Parses a ping target: `https://hc-ping.com/UUID` (Healthchecks flavour), `cronitor:https://cronitor.link/p/KEY/job`
 * (Cronitor), or a bare URL with `flavour` given (`--ping-flavour`). A query or a fragment is refused (the protocol
 * adds its own), and so are credentials in the URL. The error names where the value came from and the fix.
 */
export function parsePingSpec(value: string, where: string, flavour?: string): Result<PingSpec, string> {
  if (flavour !== undefined && !(PING_FLAVOURS as readonly string[]).includes(flavour))
    return err(`--ping-flavour "${flavour}" is not a ping protocol. Fix: --ping-flavour healthchecks or cronitor.`);
  const text = value.replace(/^`([^`]*)`$/, '$1').trim();
  const scheme = /^cronitor:/i.test(text) ? 'cronitor' : undefined;
  const raw = scheme === undefined ? text : text.slice('cronitor:'.length);
  const fix = 'write https://hc-ping.com/<check-uuid> (Healthchecks) or cronitor:https://cronitor.link/p/<api-key>/<monitor> (Cronitor).';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return err(`${where}: the ping target is not a URL. Fix: ${fix}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return err(`${where}: the ping target must be http(s), not ${url.protocol}. Fix: ${fix}`);
  if (url.username !== '' || url.password !== '') return err(`${where}: the ping target carries credentials in its authority. Fix: ${fix}`);
  if (url.search !== '' || url.hash !== '')
    return err(`${where}: the ping target has a query or fragment; the protocol adds its own. Fix: ${fix}`);
  const chosen = (flavour as PingFlavour | undefined) ?? scheme ?? 'healthchecks';
  if (scheme !== undefined && flavour !== undefined && flavour !== scheme)
    return err(`${where}: the target says cronitor: but --ping-flavour says ${flavour}. Fix: drop one of them.`);
  return ok({ flavour: chosen, url: url.href.replace(/\/+$/, ''), origin: url.origin });
}
