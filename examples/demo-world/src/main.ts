// `pnpm demo`: builds a throw-away world and runs real heartbeat cycles over it.
// Needs git and tmux on PATH; everything is created in a temp directory and removed at the end.
import { runDemo } from './demo.js';

const rule = '─'.repeat(78);
let failed = false;
await runDemo((step, world) => {
  if (step.title.startsWith('14:10')) {
    console.log(`World: ${world.root}`);
    console.log(`  git repo + worktrees, tmux server "-L ${world.tmuxSocket}", fake bd in ${world.fakeBin}, a DOT pipeline\n`);
  }
  console.log(rule);
  console.log(step.title);
  console.log(`$ heartbeat-kit ${step.argv.map((a) => (a.includes('/') ? `'${a}'` : a)).join(' ')}`);
  console.log(rule);
  process.stdout.write(step.stdout);
  if (step.stderr !== '') process.stderr.write(step.stderr);
  if (step.code !== 0) failed = true;
  console.log('');
});
console.log('The world is gone. Next: docs/getting-started.md, or `heartbeat-kit init` in your own project.');
if (failed) process.exitCode = 1;
