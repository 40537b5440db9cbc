/**
 * docs/metrics.md's alert rule, as an operator would paste it: valid for the real `promtool check
 * rules`, and `promtool test rules` shows it fires after 30 minutes without a cycle, not before, not
 * while paused, and when the heartbeat never wrote its figures.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from './support/cli-world.js';

const tempDir = useTempDirs();
const DOC = resolve(import.meta.dirname, '../../../docs/metrics.md');

function promtool(args: string[], cwd: string): { code: number | null; output: string } {
  const run = spawnSync('promtool', args, { cwd, encoding: 'utf8' });
  if (run.error) throw run.error;
  return { code: run.status, output: `${run.stdout}${run.stderr}` };
}

const annotations = (instance: string) => `
            exp_annotations:
              summary: 'heartbeat-kit ran no cycle for 30 min on ${instance}'
              description: 'See heartbeat-kit history and heartbeat-kit check-liveness on that host.'`;

const TESTS = `rule_files: [rules.yml]
evaluation_interval: 1m
tests:
  - interval: 1m
    input_series:
      - series: 'heartbeat_kit_last_cycle_end_timestamp_seconds{instance="host-a"}'
        values: '0x60'
      - series: 'heartbeat_kit_paused{instance="host-a"}'
        values: '0x60'
    alert_rule_test:
      - eval_time: 20m
        alertname: HeartbeatNoCycle
        exp_alerts: []
      - eval_time: 40m
        alertname: HeartbeatNoCycle
        exp_alerts:
          - exp_labels: { severity: page, instance: host-a }${annotations('host-a')}
  - interval: 1m
    input_series:
      - series: 'heartbeat_kit_last_cycle_end_timestamp_seconds{instance="host-b"}'
        values: '0x60'
      - series: 'heartbeat_kit_paused{instance="host-b"}'
        values: '1x60'
    alert_rule_test:
      - eval_time: 40m
        alertname: HeartbeatNoCycle
        exp_alerts: []
  - interval: 1m
    input_series:
      - series: 'up{instance="host-c"}'
        values: '1x60'
    alert_rule_test:
      - eval_time: 5m
        alertname: HeartbeatNoCycle
        exp_alerts:
          - exp_labels: { severity: page }${annotations('')}
`;

describe('docs/metrics.md: the "no cycle in 30 min" alert', () => {
  it('is a valid rule file that fires after 30 min without a cycle, not while paused, and when the figures are absent', () => {
    const block = /## An alert: no cycle in 30 minutes\n[\s\S]*?```yaml\n([\s\S]*?)```/.exec(readFileSync(DOC, 'utf8'))?.[1];
    expect(block).toBeDefined();
    const dir = tempDir('hk-metrics-rules-');
    writeFileSync(join(dir, 'rules.yml'), block!);
    writeFileSync(join(dir, 'tests.yml'), TESTS);
    const checked = promtool(['check', 'rules', 'rules.yml'], dir);
    expect(checked.output).toMatch(/SUCCESS: 1 rules found/);
    expect(checked.code).toBe(0);
    const tested = promtool(['test', 'rules', 'tests.yml'], dir);
    expect(tested.output).toMatch(/SUCCESS/);
    expect(tested.code).toBe(0);
  });
});
