// The setters of `## Checks`: `- name:` starts a check, the keys after it (indented or not) fill it in.
import { ENV_NAME_PATTERN } from '../command/child-environment.js';
import { splitCommaList } from '../text/comma-list.js';
import { formatDuration, parseDurationStrict } from '../time/duration.js';
import { CHECK_CATEGORY_PATTERN, CHECK_NAME_PATTERN, MAX_CHECK_EVERY_MS, MAX_CHECK_TIMEOUT_MS, MAX_CHECKS } from './check-schema.js';
import { shorten } from './heartbeat-markdown-text.js';
import type { CheckDraft, Problem, Setter, SetterContext } from './heartbeat-setting-draft.js';
import { booleanValue, parseRepeatValue } from './heartbeat-value-readers.js';

const RUN_FIX =
  'write an argv list such as [df, --output=pcent, /] (quote an item holding a comma: "a,b"), or a string with "- shell: true"';

/**
 * Reads `[df, --output=pcent, /]` (or a JSON array) into its words: items separated by commas,
 * each optionally in single or double quotes (which may then hold commas and `]`; `\"` inside double quotes). A value not
 * in brackets is a shell string, kept as written (the schema refuses it without `shell: true`).
 */
export function parseArgvList(value: string): string[] | string | Problem {
  const text = value.trim();
  if (!text.startsWith('[')) return text;
  if (!text.endsWith(']')) return { message: 'opens a list with [ but does not close it with ].', fix: RUN_FIX };
  try {
    const json = JSON.parse(text) as unknown;
    if (Array.isArray(json) && json.every((w): w is string => typeof w === 'string')) return checkWords(json);
  } catch {
    // Not JSON: the unquoted flow list of the examples.
  }
  const words: string[] = [];
  const inner = text.slice(1, -1);
  let i = 0;
  while (i < inner.length) {
    while (inner[i] === ' ' || inner[i] === '\t') i++;
    let word = '';
    const quote = inner[i];
    if (quote === '"' || quote === "'") {
      // Inside double quotes \" and \\ stand for " and \ (single quotes take everything literally).
      let close = i + 1;
      while (close < inner.length && inner[close] !== quote) {
        if (quote === '"' && inner[close] === '\\' && close + 1 < inner.length) {
          word += inner[close + 1];
          close += 2;
        } else word += inner[close++];
      }
      if (close >= inner.length) return { message: `has an unclosed ${quote}.`, fix: RUN_FIX };
      i = close + 1;
      while (inner[i] === ' ' || inner[i] === '\t') i++;
      if (i < inner.length && inner[i] !== ',') return { message: `has text after the quoted item "${shorten(word)}".`, fix: RUN_FIX };
    } else {
      const comma = inner.indexOf(',', i);
      const end = comma === -1 ? inner.length : comma;
      word = inner.slice(i, end).trim();
      i = end;
      if (word === '' && (comma !== -1 || words.length > 0)) return { message: 'has an empty item.', fix: RUN_FIX };
    }
    if (word !== '' || quote === '"' || quote === "'") words.push(word);
    if (inner[i] === ',') i++;
  }
  return checkWords(words);
}

function checkWords(words: readonly string[]): string[] | Problem {
  if (words.length === 0) return { message: 'is an empty list.', fix: RUN_FIX };
  if (words.length > 64) return { message: `has ${words.length} words; at most 64 are allowed.`, fix: RUN_FIX };
  if (words.some((w) => w === '')) return { message: 'has an empty item.', fix: RUN_FIX };
  if (words[0]?.startsWith('-')) return { message: `starts with "${shorten(words[0])}", an option, not a program.`, fix: RUN_FIX };
  return [...words];
}

/** The check the keys after the last `- name:` line fill in; a problem when there is none yet. */
function current(context: SetterContext): { check: CheckDraft; index: number } | Problem {
  const checks = context.draft.checks ?? [];
  const check = checks.at(-1);
  if (check === undefined)
    return {
      message: 'comes before any "- name:" line under Checks.',
      fix: 'start each check with "- name: NAME", then its run, every, … lines',
    };
  return { check, index: checks.length - 1 };
}

/** A setter of one key of the current check: `read` validates the value into the check. */
function checkKey(field: string, read: (value: string, check: CheckDraft, context: SetterContext) => Problem | undefined): Setter {
  return (value, context) => {
    const at = current(context);
    if ('message' in at) return at;
    const problem = read(value, at.check, context);
    return problem ?? `checks.${at.index}.${field}`;
  };
}

const name: Setter = (value, { draft }) => {
  const checks = (draft.checks ??= []);
  if (!CHECK_NAME_PATTERN.test(value))
    return {
      message: 'is not a check name.',
      fix: 'use lower-case letters, digits and -, starting with a letter, such as disk-full (it names the scanner and the category CHECK_DISK_FULL)',
    };
  if (checks.length >= MAX_CHECKS)
    return { message: `is check ${checks.length + 1}; at most ${MAX_CHECKS} are allowed.`, fix: 'merge checks into fewer commands' };
  checks.push({ name: value });
  return `checks.${checks.length - 1}.name`;
};

// Read from the raw value: trimming markdown marks would eat a shell string's trailing `*`.
const run = checkKey('run', (_value, check, { raw }) => {
  const text = raw.trim();
  const argv = parseArgvList(/^`[^`]*`$/.test(text) ? text.slice(1, -1) : text);
  if (typeof argv === 'object' && !Array.isArray(argv)) return argv;
  if (argv === '') return { message: 'is empty.', fix: RUN_FIX };
  check.run = argv;
  return undefined;
});

const shell = checkKey('shell', (value, check) => {
  const b = booleanValue(value);
  if (b === undefined)
    return { message: 'is not true or false.', fix: 'write true to run `run` through /bin/sh -c (then a string), or leave the line out' };
  check.shell = b;
  return undefined;
});

const every = checkKey('every', (value, check) => {
  const fix = 'write a number of cycles such as "3 cycles" (or "cycle"), or a duration such as 30m or 2 hours';
  const cycles = /^(?:every\s+)?(?:(\d{1,4})\s*)?cycles?$/i.exec(value.trim());
  if (cycles !== null) {
    const n = cycles[1] === undefined ? 1 : Number(cycles[1]);
    if (n < 1 || n > 1000) return { message: 'is not 1–1000 cycles.', fix };
    check.every = { cycles: n };
    return undefined;
  }
  const parsed = parseDurationStrict(value.replace(/^every\s+/i, ''), 'm');
  if (parsed.isErr()) return { message: parsed.error.message, fix };
  if (parsed.value > MAX_CHECK_EVERY_MS) return { message: `is longer than ${formatDuration(MAX_CHECK_EVERY_MS)}.`, fix };
  check.every = { ms: parsed.value };
  return undefined;
});

const timeout = checkKey('timeoutMs', (value, check) => {
  const fix = `write a duration from 100ms to ${formatDuration(MAX_CHECK_TIMEOUT_MS)}, such as 10s (bare numbers are seconds)`;
  const parsed = parseDurationStrict(value, 's');
  if (parsed.isErr()) return { message: parsed.error.message, fix };
  if (parsed.value < 100 || parsed.value > MAX_CHECK_TIMEOUT_MS)
    return { message: `is ${formatDuration(parsed.value)}; a check's deadline is 100ms–${formatDuration(MAX_CHECK_TIMEOUT_MS)}.`, fix };
  check.timeoutMs = parsed.value;
  return undefined;
});

const PRIORITIES = { immediate: 'Immediate', advisory: 'Advisory', normal: 'Normal' } as const;

const priority = checkKey('priority', (value, check) => {
  const key = value.toLowerCase();
  const p = Object.hasOwn(PRIORITIES, key) ? PRIORITIES[key as keyof typeof PRIORITIES] : undefined;
  if (p === undefined) return { message: 'is not a priority class.', fix: 'write Immediate, Advisory or Normal' };
  check.priority = p;
  return undefined;
});

const category = checkKey('category', (value, check) => {
  if (!CHECK_CATEGORY_PATTERN.test(value))
    return {
      message: 'is not a category name.',
      fix: 'use upper-case letters, digits and _, such as DISK_FULL (or leave it out: CHECK_<NAME>)',
    };
  check.category = value;
  return undefined;
});

const outsideHours = checkKey('outsideHours', (value, check) => {
  const v = value.toLowerCase();
  if (v !== 'run' && v !== 'skip')
    return { message: 'is not run or skip.', fix: 'write run to run (and report) outside active hours too, skip (the default) not to' };
  check.outsideHours = v;
  return undefined;
});

const cwd = checkKey('cwd', (value, check) => {
  if (value === '' || value.length > 4096)
    return { message: 'is not a directory.', fix: 'write a directory, relative to the project directory' };
  check.cwd = value;
  return undefined;
});

const confirm = checkKey('confirm', (value, check) => {
  const match = /^(\d{1,3})(?:\s*(?:runs?|cycles?|times?))?$/i.exec(value);
  const n = match?.[1] === undefined ? Number.NaN : Number(match[1]);
  if (!(n >= 1 && n <= 100))
    return {
      message: 'is not a number 1–100.',
      fix: 'write how many runs in a row must produce a finding before it is reported, such as 2',
    };
  check.confirm = n;
  return undefined;
});

const repeat = checkKey('repeat', (value, check) => {
  const intervals = parseRepeatValue(value);
  if (!Array.isArray(intervals)) return intervals;
  check.repeat = intervals;
  return undefined;
});

function envList(which: 'allow' | 'deny'): Setter {
  return checkKey(`env.${which}`, (_value, check, { raw }) => {
    const value = raw
      .trim()
      .replace(/^`+|`+$/g, '')
      .replace(/^\*+\s+/, '');
    const names = splitCommaList(value.replace(/^\[|\]$/g, ''), { spaces: true });
    const bad = names.find((n) => !ENV_NAME_PATTERN.test(n));
    if (names.length === 0 || bad !== undefined)
      return {
        message: bad === undefined ? 'lists no variable.' : `holds "${shorten(bad)}", which is not a variable name.`,
        fix: 'list names separated by commas, such as GH_TOKEN, HTTPS_PROXY, XDG_* (a trailing * is a prefix)',
      };
    check.env = { ...check.env, [which]: names };
    return undefined;
  });
}

/** `- env:` with nothing after it heads its allow/deny lines; `env: allow …` is not a form. */
const envHeading: Setter = (value, context) => {
  const at = current(context);
  if ('message' in at) return at;
  if (value !== '')
    return { message: 'is not read here.', fix: 'write the lists on their own lines: "- env allow: GH_TOKEN" and "- env deny: AWS_*"' };
  return undefined;
};

/** `## Checks` key → setter (normalized keys: lower case, `-` and `_` as spaces). */
export const CHECK_KEYS: Readonly<Record<string, Setter>> = {
  name,
  check: name,
  run,
  command: run,
  shell,
  every,
  timeout,
  priority,
  category,
  'outside hours': outsideHours,
  cwd,
  env: envHeading,
  'env allow': envList('allow'),
  allow: envList('allow'),
  'env deny': envList('deny'),
  deny: envList('deny'),
  confirm,
  repeat,
};
