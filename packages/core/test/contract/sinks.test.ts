import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { createAgentInboxSink, createJsonlFileSink, listAgentInbox } from '../../src/node/index.js';
import type { OutboundMessage } from '../../src/ports/sink.js';
import { createRecordingSink } from '../../src/testing/index.js';
import { sinkContract } from '../../src/testing/index.js';

const root = mkdtempSync(join(tmpdir(), 'hb-core-sink-contract-'));
let counter = 0;
const fresh = (name: string): string => join(root, `case-${(counter += 1)}`, name);
const aFile = (): string => {
  const path = join(root, `file-${(counter += 1)}`);
  writeFileSync(path, 'not a directory\n');
  return path;
};
afterAll(() => rmSync(root, { recursive: true, force: true }));

await sinkContract('memory (recording)', {
  makeSink: () => {
    const sink = createRecordingSink();
    return Promise.resolve({ sink, received: () => Promise.resolve(sink.delivered) });
  },
  makeBrokenSink: () => Promise.resolve(createRecordingSink({ failTimes: Number.POSITIVE_INFINITY })),
});

await sinkContract('JSONL file', {
  makeSink: () => {
    const path = fresh('messages.jsonl');
    const received = (): Promise<OutboundMessage[]> => {
      let text = '';
      try {
        text = readFileSync(path, 'utf8');
      } catch {
        return Promise.resolve([]);
      }
      return Promise.resolve(
        text
          .split('\n')
          .filter((line) => line !== '')
          .map((line) => JSON.parse(line) as OutboundMessage),
      );
    };
    return Promise.resolve({ sink: createJsonlFileSink({ path }), received });
  },
  // A directory where the file must be.
  makeBrokenSink: () => Promise.resolve(createJsonlFileSink({ path: root })),
});

await sinkContract('agent inbox', {
  makeSink: () => {
    const directory = fresh('inbox');
    const received = async (): Promise<OutboundMessage[]> =>
      (await listAgentInbox(directory))._unsafeUnwrap().waiting.map((entry) => entry.message);
    return Promise.resolve({ sink: createAgentInboxSink({ directory }), received });
  },
  // A file where the inbox directory must be.
  makeBrokenSink: () => Promise.resolve(createAgentInboxSink({ directory: aFile() })),
});
