import { err, ok, type Result } from 'neverthrow';

/**
 * Splits a command string into argv the way a user expects from a shell — whitespace separates,
 * single and double quotes group, backslash escapes — but with no expansion of any kind: no
 * variables, globs, substitutions or redirections. The result runs without a shell.
 */
export function splitCommand(command: string): Result<string[], string> {
  const argv: string[] = [];
  let current = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < command.length; i++) {
    const ch = command[i]!;
    if (quote === "'") {
      if (ch === "'") quote = null;
      else current += ch;
      continue;
    }
    if (quote === '"') {
      if (ch === '"') quote = null;
      else if (ch === '\\' && (command[i + 1] === '"' || command[i + 1] === '\\')) current += command[++i];
      else current += ch;
      continue;
    }
    if (ch === "'" || ch === '"') {
      quote = ch;
      inWord = true;
    } else if (ch === '\\' && i + 1 < command.length) {
      current += command[++i];
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) argv.push(current);
      current = '';
      inWord = false;
    } else {
      current += ch;
      inWord = true;
    }
  }
  if (quote !== null) return err(`unterminated ${quote} quote`);
  if (inWord) argv.push(current);
  if (argv.length === 0) return err('empty command');
  return ok(argv);
}
