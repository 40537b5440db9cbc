/**
 * Child process for the crash test: loads the state file with the real file store, then saves
 * counter documents in a loop until it is killed. Progress goes to stdout, which is a pipe and
 * therefore written synchronously: a line the parent reads was written before the kill.
 */
import { createFileStateStore } from '../../src/node/index.js';

const path = process.argv[2];
if (path === undefined) throw new Error('usage: state-writer <path>');
const store = createFileStateStore({ path });

const say = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

const loaded = await store.load();
if (loaded.isErr()) {
  say(`error ${loaded.error.message}`);
  process.exit(2);
}
const document = loaded.value.document as { counter?: number } | undefined;
if (loaded.value.warnings.length > 0) say(`warning ${loaded.value.warnings.join(' | ')}`);
let counter = document?.counter ?? 0;
say(`loaded ${counter}`);
// Padding makes each write span several pages, so a torn write would be visible.
const padding = 'x'.repeat(20_000);
for (;;) {
  counter += 1;
  say(`saving ${counter}`);
  const saved = await store.save({ counter, padding, checksum: counter * 7 });
  if (saved.isErr()) {
    say(`error ${saved.error.message}`);
    process.exit(2);
  }
  say(`saved ${counter}`);
}
