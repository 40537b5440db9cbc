import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OutboundMessage } from '../ports/sink.js';
import { createJsonlFileSink, createStdoutSink } from './sinks.js';

const message = (content: string, cycle?: number): OutboundMessage => ({
  kind: 'work_found',
  content,
  summary: content.split('\n')[0] ?? '',
  at: '2026-07-22T10:03:00.000Z',
  ...(cycle === undefined ? {} : { cycle }),
});

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'hb-core-sink-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('createStdoutSink', () => {
  it('writes the content and one newline', async () => {
    const written: string[] = [];
    const sink = createStdoutSink((text) => written.push(text));
    (await sink.deliver(message('HEARTBEAT_OK')))._unsafeUnwrap();
    (await sink.deliver(message('WORK_FOUND: A\nline two')))._unsafeUnwrap();
    expect(written).toEqual(['HEARTBEAT_OK\n', 'WORK_FOUND: A\nline two\n']);
  });

  it('turns a failing writer into delivery-failed', async () => {
    const sink = createStdoutSink(() => {
      throw new Error('EPIPE');
    });
    expect((await sink.deliver(message('x')))._unsafeUnwrapErr()).toMatchObject({
      kind: 'delivery-failed',
      message: expect.stringContaining('EPIPE') as unknown,
    });
  });
});

describe('createJsonlFileSink', () => {
  it('appends one JSON line per message, creating parent directories', async () => {
    const path = join(root, 'deep', 'messages.jsonl');
    const sink = createJsonlFileSink({ path });
    const first = message('first\nwith "quotes"', 1);
    const second = message('second');
    (await sink.deliver(first))._unsafeUnwrap();
    (await sink.deliver(second))._unsafeUnwrap();
    const lines = readFileSync(path, 'utf8').split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe('');
    expect(lines.slice(0, 2).map((line) => JSON.parse(line) as unknown)).toEqual([first, second]);
  });

  it('keeps lines whole under concurrent deliveries', async () => {
    const path = join(root, 'messages.jsonl');
    const sinks = [createJsonlFileSink({ path }), createJsonlFileSink({ path })];
    const messages = Array.from({ length: 40 }, (_, index) => message(`m${index} ${'y'.repeat(5000)}`, index));
    const results = await Promise.all(messages.map((each, index) => sinks[index % 2]!.deliver(each)));
    for (const result of results) expect(result.isOk()).toBe(true);
    const parsed = readFileSync(path, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as OutboundMessage);
    expect(parsed.map((each) => each.cycle).sort((a, b) => a! - b!)).toEqual(messages.map((each) => each.cycle));
  });

  it('reports a path it cannot write as delivery-failed naming the path', async () => {
    const sink = createJsonlFileSink({ path: root });
    const error = (await sink.deliver(message('x')))._unsafeUnwrapErr();
    expect(error.kind).toBe('delivery-failed');
    expect(error.message).toContain(root);
  });
});
