// The HEARTBEAT.md setters of the built-in scanners' sections: conditions written as prose (`Alert if: …`),
// the orchestrators expected and their prefix, and the commands the gchat and pipeline scanners run.
import { type SectionSetter, shortenSettingValue as shorten, splitCommaList } from '@heartbeat-kit/core/host';

/**
 * What an expected orchestrator may be called: letters, digits, `.`, `_`, `-`, and spaces inside
 * the name. Wider than tmux needs and narrower than a shell could misread: no backtick, quote, `$`,
 * `;`, `|`, `:` or bracket ever becomes a session name the heartbeat looks for or reports.
 */
export const ORCHESTRATOR_NAME_PATTERN = /^[\p{L}\p{N}._-](?:[\p{L}\p{N} ._-]{0,98}[\p{L}\p{N}._-])?$/u;

/** Unwraps a value written as one markdown code span or bold run (`` `a, b` ``, `**a**`). */
function unwrapMarks(text: string): string {
  const wrapped = /^`([^`]*)`$/.exec(text) ?? /^\*\*([^*]*)\*\*$/.exec(text) ?? /^\*([^*]*)\*$/.exec(text);
  return (wrapped?.[1] ?? text).trim();
}

/**
 * Orchestrators `Expected`: session names separated by commas. Read from the raw value, so a mark
 * inside a name is seen rather than trimmed away (`orch-\`touch X\`` once became `orch-\`touch X`):
 * a name outside {@link ORCHESTRATOR_NAME_PATTERN} is left out with a warning naming the key and
 * the fix; the other names are kept.
 */
export const expected: SectionSetter = (_value, { draft, raw, warn, key }) => {
  // `- **Expected:** a, b` leaves the bold's closing marks in front of the value.
  const value = unwrapMarks(raw.trim().replace(/^\*+\s+/, ''));
  const names: string[] = [];
  for (const item of splitCommaList(value)) {
    const name = unwrapMarks(item);
    if (ORCHESTRATOR_NAME_PATTERN.test(name)) names.push(name);
    else
      warn(
        `${key}: "${shorten(item)}" is not a tmux session name (letters, digits, '.', '_', '-' and spaces inside a name) — ignored. Fix: write the name as \`tmux ls\` shows it, e.g. orch-auth, and separate names with commas.`,
      );
  }
  draft.expectedOrchestrators = [...new Set(names)];
  return 'expectedOrchestrators';
};

/** Orchestrators `Prefix`: one word that starts every orchestrator's session name. */
export const prefix: SectionSetter = (value, { draft }) => {
  if (value === '' || /\s/.test(value)) return { message: 'is not a session-name prefix.', fix: 'write one word such as orch-.' };
  draft.orchestratorPrefix = value;
  return 'orchestratorPrefix';
};

/** A command as a JSON array of words or as words separated by spaces (never a shell line). */
export function command(field: string, example: string): SectionSetter {
  return (value, { draft }) => {
    const fix = `write the command as a JSON array such as ${example}, or as words separated by spaces.`;
    let argv: unknown;
    if (value.startsWith('[')) {
      try {
        argv = JSON.parse(value) as unknown;
      } catch {
        return { message: 'is not a valid JSON array.', fix };
      }
    } else {
      argv = value.split(/\s+/).filter((word) => word !== '');
    }
    if (!Array.isArray(argv) || argv.length === 0 || !argv.every((word): word is string => typeof word === 'string' && word !== '')) {
      return { message: 'is not a command (a non-empty list of non-empty words).', fix };
    }
    draft[field] = argv;
    return field;
  };
}

/** Beads `Alert if`: in-progress changes turn on a check; P0/P1 is always on; anything else is a warning. */
export const beadsAlert: SectionSetter = (value, { draft, warn }) => {
  if (/in[\s_-]?progress/i.test(value) && /chang/i.test(value)) {
    draft.alertInProgressChanged = true;
    return 'alertInProgressChanged';
  }
  if (/\bP[01]\b/i.test(value)) return undefined; // always on: the spec's P0/P1 scan
  warn(`condition "${shorten(value)}" is not one heartbeat-kit checks — ignored.`);
  return undefined;
};

/** Orchestrators `Alert if`: a missing orchestrator is always checked; anything else is a warning. */
export const orchestratorAlert: SectionSetter = (value, { warn }) => {
  if (!/missing/i.test(value)) warn(`condition "${shorten(value)}" is not one heartbeat-kit checks — ignored.`);
  return undefined;
};

/** `<` escaped so an argv word can never open an HTML comment the parser would skip. */
export function commandJson(argv: readonly string[]): string {
  return JSON.stringify(argv).replace(/</g, '\\u003c');
}
