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

/**
 * The listed flags by block, `Options` first and the others (`Common options`) in the order they
 * first appear; `-h, --help` ends the last block. Empty blocks are left out.
 */
function flagGroups(spec: CommandSpec): [string, [string, FlagSpec][]][] {
  const groups = new Map<string, [string, FlagSpec][]>([['Options', []]]);
  for (const [name, flag] of Object.entries(spec.flags)) {
    if (flag.hidden === true) continue;
    const title = flag.group ?? 'Options';
    groups.set(title, [...(groups.get(title) ?? []), [name, flag]]);
  }
  const listed = [...groups].filter(([, flags]) => flags.length > 0);
  const last = listed.at(-1);
  if (last === undefined) return [['Options', [['help', HELP_FLAG]]]];
  last[1].push(['help', HELP_FLAG]);
  return listed;
}

/** The options blocks as one section: a block follows the one before it without a blank line. */
function optionsSection(spec: CommandSpec, column: number): string {
  return flagGroups(spec)
    .map(([title, flags]) => [`${title}:`, ...flags.flatMap(([name, flag]) => flagLines(name, flag, column))].join('\n'))
    .join('\n');
}

/** The `--help` text of a command, derived from its declaration. */
export function renderHelp(spec: CommandSpec): string {
  const column = spec.helpColumn ?? DEFAULT_COLUMN;
  const sections = [`Usage: heartbeat-kit ${spec.name} ${spec.usage}`, spec.description.trimEnd()];
  if (spec.omitHelpLine !== true) sections.push(optionsSection(spec, column));
  if (spec.notes !== undefined) sections.push(spec.notes.trimEnd());
  const list = spec.helpLayout === 'list';
  if (spec.examples !== undefined && spec.examples.length > 0) {
    const lines = spec.examples.map((e) => (e.startsWith(' ') ? `  ${e}` : `  heartbeat-kit ${e}`));
    sections.push([list ? 'Example:' : 'Examples:', ...lines].join('\n'));
  }
  if (spec.exitCodes.length > 0) sections.push(exitCodesSection(spec));
  return `${sections.join('\n\n')}\n`;
}
