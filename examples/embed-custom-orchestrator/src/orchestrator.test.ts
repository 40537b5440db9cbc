import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runOrchestrator } from './orchestrator.js';
import { createQueueScanner } from './queue-scanner.js';
import { DEFAULT_HEARTBEAT_CONFIG } from '@heartbeat-kit/core';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hk-embed-test-'));
});
afterEach(async () => {
  vi.restoreAllMocks();
  await rm(dir, { recursive: true, force: true });
});

describe('embed-custom-orchestrator', () => {
  it('runs the loop on a fake clock with its own scanner and sink: report, dedup, window over, dedup', async () => {
    const lines: string[] = [];
    const run = await runOrchestrator({
      queueFile: join(dir, 'queue'),
      queueLengths: [0, 12, 14, 3, 25, 25],
      write: (line) => lines.push(line),
    });
    expect(run.decisions.map((d) => [d.at, d.status, d.categories.join('+')])).toEqual([
      ['2026-02-19T10:00:00.000Z', 'ok', ''],
      ['2026-02-19T10:10:00.000Z', 'report', 'QUEUE_BACKLOG'],
      ['2026-02-19T10:20:00.000Z', 'ok', ''],
      ['2026-02-19T10:30:00.000Z', 'ok', ''],
      ['2026-02-19T10:40:00.000Z', 'report', 'QUEUE_BACKLOG'],
      ['2026-02-19T10:50:00.000Z', 'ok', ''],
    ]);
    expect(run.decisions[2]?.suppressed.map((s) => s.reason)).toEqual(['dedup']);
    expect(run.decisions[5]?.suppressed.map((s) => s.reason)).toEqual(['dedup']);
    // The custom sink got the loop's whole protocol: online, two reports, shutdown.
    expect(run.sink.messages.map((m) => m.kind)).toEqual(['online', 'work_found', 'work_found', 'shutdown']);
    expect(run.sink.messages[1]?.content).toContain('QUEUE BACKLOG: 12 jobs waiting (threshold 10)');
    expect(run.sink.messages[1]?.content).toContain('1. Start another worker or drain the queue');
    expect(run.sink.messages[3]?.content).toMatch(/6 cycles/);
    expect(lines).toContain('[work_found] QUEUE_BACKLOG -- 12 jobs queued');
    expect(await readFile(join(dir, 'queue'), 'utf8')).toBe('25\n');
  });

  it('the queue scanner turns a missing file into an error result, not a rejection', async () => {
    const scanner = createQueueScanner({ file: join(dir, 'absent'), threshold: 1 });
    const result = await scanner.scan({
      now: new Date(0),
      config: DEFAULT_HEARTBEAT_CONFIG,
      insideActiveHours: true,
      signal: new AbortController().signal,
    });
    expect(result.status).toBe('error');
  });

  // 04:00 UTC is outside the default active hours, 10:00 inside: a scanner with
  // runsOutsideActiveHours is heard at both (issue 26 item 2), so the example prints the same.
  it.each(['2026-02-19T04:00:00Z', '2026-02-19T10:00:00Z'])(
    'the README embedding example prints one report then two deduplicated cycles at %s',
    async (at) => {
      vi.useFakeTimers({ toFake: ['Date'], now: new Date(at) });
      vi.resetModules();
      const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
      try {
        await import('./readme-example.js');
        expect(log.mock.calls.map((call) => call.join(' '))).toEqual([
          '1 report INBOX_WAITING',
          '2 ok ',
          '3 ok ',
          'online, work_found, shutdown',
        ]);
      } finally {
        log.mockRestore();
        vi.useRealTimers();
      }
    },
  );

  it('the README shows the embedding example verbatim', async () => {
    const readme = await readFile(new URL('../../../README.md', import.meta.url), 'utf8');
    const example = await readFile(new URL('./readme-example.ts', import.meta.url), 'utf8');
    expect(readme).toContain(`\`\`\`ts\n${example}\`\`\``);
  });
});
