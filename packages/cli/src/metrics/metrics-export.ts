import { isIP } from 'node:net';
import { replaceFileDurably } from '@heartbeat-kit/core/node';
import { err, ok, type Result } from 'neverthrow';
import type { CliIo } from '../io.js';
import { resolvePath } from '../wiring/cycle-deps.js';
import { metricFigures, type MetricInputs } from './metric-figures.js';

/** Where `--metrics-listen` serves: a host and a port (0: any free port, said on stderr). */
export interface MetricsListen {
  readonly host: string;
  readonly port: number;
}

/** The checked metrics flags. */
export interface MetricsFlags {
  readonly textfile?: string;
  readonly listen?: MetricsListen;
}

const LOOPBACK_NAMES = new Set(['127.0.0.1', '::1', 'localhost']);
const TEMP_TAG = 'metrics';

/** Whether `host` only reaches this machine: 127.0.0.0/8, ::1 or localhost. */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_NAMES.has(host) || (isIP(host) === 4 && host.startsWith('127.'));
}

/** `HOST:PORT` or `[IPv6]:PORT`; the message names the flag and the fix. */
export function parseListenFlag(value: string, allowPublic: boolean): Result<MetricsListen, string> {
  const fix = 'Fix: e.g. --metrics-listen 127.0.0.1:9464.';
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]\s]+)):(\d{1,5})$/.exec(value);
  const host = match?.[1] ?? match?.[2];
  const port = Number(match?.[3]);
  if (match === null || host === undefined || port > 65_535 || (match[1] !== undefined && isIP(host) !== 6))
    return err(`--metrics-listen "${value}" is not HOST:PORT. ${fix}`);
  if (!allowPublic && !isLoopbackHost(host))
    return err(
      `--metrics-listen "${value}" is not a loopback address: the figures name your scanners and findings. Fix: listen on 127.0.0.1 and let node_exporter or a proxy carry them, or add --metrics-listen-public to serve ${host} on purpose.`,
    );
  return ok({ host, port });
}

/** Checks `--metrics-textfile`, `--metrics-listen` and `--metrics-listen-public` (the last two: `loop` only). */
export function parseMetricsFlags(
  values: {
    readonly 'metrics-textfile'?: string | undefined;
    readonly 'metrics-listen'?: string | undefined;
    readonly 'metrics-listen-public'?: boolean | undefined;
  },
  cwd: string,
): Result<MetricsFlags, string> {
  const textfile = values['metrics-textfile'];
  if (textfile !== undefined && !/[^/\\]\.prom$/.test(textfile))
    return err(
      `--metrics-textfile "${textfile}" does not end in .prom: node_exporter's textfile collector reads only *.prom files. Fix: e.g. --metrics-textfile /var/lib/node_exporter/textfile/heartbeat-kit.prom.`,
    );
  const listenFlag = values['metrics-listen'];
  if (listenFlag === undefined && values['metrics-listen-public'] === true)
    return err('--metrics-listen-public needs --metrics-listen HOST:PORT. Fix: add --metrics-listen, or drop --metrics-listen-public.');
  const listen = listenFlag === undefined ? undefined : parseListenFlag(listenFlag, values['metrics-listen-public'] === true);
  if (listen !== undefined && listen.isErr()) return err(listen.error);
  return ok({
    ...(textfile === undefined ? {} : { textfile: resolvePath(cwd, textfile) }),
    ...(listen === undefined ? {} : { listen: listen.value }),
  });
}

/** The figures as text; prom-client is loaded here, on first use, so a cycle without the flags never loads it. */
export async function metricsText(inputs: MetricInputs): Promise<MetricsText> {
  const { prometheusText, PROMETHEUS_CONTENT_TYPE } = await import('./prometheus-text.js');
  return { text: await prometheusText(metricFigures(inputs)), contentType: PROMETHEUS_CONTENT_TYPE };
}

/** The figures in the exposition format, and the content type `/metrics` serves them with. */
export interface MetricsText {
  readonly text: string;
  readonly contentType: string;
}

/**
 * Replaces the textfile at once (a synced temp, `.NAME.metrics-*`, renamed over it: node_exporter reads
 * the old figures or the new, never half, and never the temp, which does not end in .prom). A failure
 * is one stderr line naming the fix and `false`.
 */
export async function writeMetricsTextfile(path: string, inputs: MetricInputs, io: CliIo, command: string): Promise<boolean> {
  return writeMetricsText(path, () => metricsText(inputs), io, command);
}

/** {@link writeMetricsTextfile} for any figures: `render` computes the text (the fleet worker's own registry). */
export async function writeMetricsText(
  path: string,
  render: () => Promise<MetricsText>,
  io: Pick<CliIo, 'stderr'>,
  command: string,
): Promise<boolean> {
  try {
    await replaceFileDurably(path, (await render()).text, TEMP_TAG);
    return true;
  } catch (error) {
    // prom-client is a dependency: missing, the install is broken (the figures are not what failed to write).
    const fix =
      (error as { code?: unknown }).code === 'ERR_MODULE_NOT_FOUND'
        ? 'reinstall heartbeat-kit (prom-client is one of its dependencies)'
        : 'check that its directory exists and is writable';
    io.stderr(`heartbeat-kit ${command}: cannot write the metrics textfile ${path}: ${(error as Error).message}. Fix: ${fix}.\n`);
    return false;
  }
}
