import { Counter, Gauge, Registry } from 'prom-client';
import type { MetricFamily } from './metric-figures.js';

/** The exposition format's content type, for the `/metrics` endpoint. */
export const PROMETHEUS_CONTENT_TYPE = Registry.PROMETHEUS_CONTENT_TYPE;

/**
 * The figures in Prometheus' text exposition format (node_exporter's textfile format), written by
 * prom-client from a registry of its own (never the global one: no process metrics sneak in).
 * A family without samples is left out: prom-client would print an unlabelled gauge as 0, and
 * "the last cycle ended at 1970" is worse than no figure.
 */
export async function prometheusText(families: readonly MetricFamily[]): Promise<string> {
  const registry = new Registry();
  for (const f of families) {
    if (f.samples.length === 0) continue;
    const config = { name: f.name, help: f.help, labelNames: [...f.labelNames], registers: [registry] };
    if (f.type === 'counter') {
      const counter = new Counter(config);
      for (const sample of f.samples) counter.inc(sample.labels, sample.value);
    } else {
      const gauge = new Gauge(config);
      for (const sample of f.samples) gauge.set(sample.labels, sample.value);
    }
  }
  return registry.metrics();
}
