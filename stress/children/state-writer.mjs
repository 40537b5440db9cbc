// Child of stress/scenarios/state-kills.mjs: loads the state file with the BUILT file store
// (packages/core/dist), then saves counter documents in a loop until it is SIGKILLed. Progress
// lines go to a pipe, written synchronously: a line the parent reads was written before the kill.
import { createFileStateStore } from '../../packages/core/dist/node/index.js';

const path = process.argv[2];
const say = (line) => process.stdout.write(`${line}\n`);
const store = createFileStateStore({ path });
const loaded = await store.load();
if (loaded.isErr()) {
  say(`error ${loaded.error.message}`);
  process.exit(2);
}
if (loaded.value.warnings.length > 0) say(`warning ${loaded.value.warnings.join(' | ')}`);
let counter = loaded.value.document?.counter ?? 0;
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
