// A stand-in for an agent's REPL in a tmux pane: prints a `> ` prompt, and on each line sent
// (Enter) appends it to a log file and prompts again. The terminal's own echo shows what is typed
// but not yet sent after the prompt, as in a real agent.
const SCRIPT = `
const fs = require('node:fs');
const log = process.argv[1];
fs.writeFileSync(log, '');
process.stdout.write('fake agent ready\\n> ');
let pending = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  pending += chunk.replace(/\\r/g, '\\n');
  let end;
  while ((end = pending.indexOf('\\n')) !== -1) {
    fs.appendFileSync(log, pending.slice(0, end) + '\\n');
    pending = pending.slice(end + 1);
    process.stdout.write('> ');
  }
});
`;

/** The argv that runs the fake agent REPL, logging every line it receives to `logFile`. */
export function fakeAgentReplArgv(logFile: string): string[] {
  return [process.execPath, '-e', SCRIPT, logFile];
}
