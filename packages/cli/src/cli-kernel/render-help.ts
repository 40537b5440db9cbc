import type { CommandSpec, FlagSpec } from './command-spec.js';

const HELP_FLAG: FlagSpec = { type: 'boolean', short: 'h', help: 'show this help' };
const DEFAULT_COLUMN = 21;
const WIDTH = 100;

function flagLabel(name: string, flag: FlagSpec): string {
  const short = flag.short === undefined ? '' : `-${flag.short}, `;
  const value = flag.type === 'string' ? ` ${flag.value ?? 'VALUE'}` : '';
  return `${short}--${name}${value}`;
}

/** One flag's lines: the label padded to the column, or alone on its line when it reaches it. */
function flagLines(name: string, flag: FlagSpec, column: number): string[] {
  const label = `  ${flagLabel(name, flag)}`;
  const [first = '', ...rest] = flag.help.split('\n');
  const indent = ' '.repeat(column);
  const head = label.length < column ? [`${label.padEnd(column)}${first}`] : [label, `${indent}${first}`];
  return [...head, ...rest.map((line) => `${indent}${line}`)];
}

/** Words joined into lines of at most `width` characters (a longer word gets a line of its own). */
export function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter((w) => w !== '')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines;
}

/** "Exit codes:" as one wrapped sentence, or as a table when the spec asks for one. */
function exitCodesSection(spec: CommandSpec): string {
  // The list layout's exit codes are the table (`  0  meaning`), one a line.
  if (spec.exitCodeTable === true || spec.helpLayout === 'list') {
    const rows = spec.exitCodes.map(([code, meaning]) => `  ${String(code).padEnd(3)}${meaning.split('\n').join(`\n${' '.repeat(5)}`)}`);
    return ['Exit codes:', ...rows].join('\n');
  }
  const codes = spec.exitCodes.map(([code, meaning]) => `${code} ${meaning}`).join(', ');
  return wrapWords(`Exit codes: ${codes}.`, WIDTH).join('\n');
}

/** The `--help` text of a command, derived from its declaration. */
export function renderHelp(spec: CommandSpec): string {
  const column = spec.helpColumn ?? DEFAULT_COLUMN;
  const flags = Object.entries(spec.flags).filter(([, flag]) => flag.hidden !== true);
  if (spec.omitHelpLine !== true) flags.push(['help', HELP_FLAG]);
  const sections = [`Usage: heartbeat-kit ${spec.name} ${spec.usage}`, spec.description.trimEnd()];
  if (flags.length > 0 && spec.omitHelpLine !== true) {
    sections.push(['Options:', ...flags.flatMap(([name, flag]) => flagLines(name, flag, column))].join('\n'));
  }
  if (spec.notes !== undefined) sections.push(spec.notes.trimEnd());
  const list = spec.helpLayout === 'list';
  if (spec.examples !== undefined && spec.examples.length > 0) {
    const lines = spec.examples.map((e) => (e.startsWith(' ') ? `  ${e}` : `  heartbeat-kit ${e}`));
    sections.push([list ? 'Example:' : 'Examples:', ...lines].join('\n'));
  }
  sections.push(exitCodesSection(spec));
  return `${sections.join('\n\n')}\n`;
}
