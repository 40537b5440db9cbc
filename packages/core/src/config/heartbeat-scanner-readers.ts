// The setters of the scanners' sections: conditions written as prose (`Alert if: …`), the orchestrators
// expected and their prefix, the commands the gchat and pipeline scanners run, and the environment they get.
import { splitCommaList } from '../text/comma-list.js';
import { ENV_NAME_PATTERN } from '../command/child-environment.js';
import { shorten } from './heartbeat-markdown-text.js';
import type { Setter } from './heartbeat-setting-draft.js';

/** Orchestrators `Expected`: session names separated by commas. */
export const expected: Setter = (value, { draft }) => {
  draft.expectedOrchestrators = splitCommaList(value);
  return 'expectedOrchestrators';
};

/** Orchestrators `Prefix`: one word that starts every orchestrator's session name. */
export const prefix: Setter = (value, { draft }) => {
  if (value === '' || /\s/.test(value)) return { message: 'is not a session-name prefix.', fix: 'write one word such as orch-.' };
  draft.orchestratorPrefix = value;
  return 'orchestratorPrefix';
};

/** A command as a JSON array of words or as words separated by spaces (never a shell line). */
export function command(field: 'gchatPollCommand' | 'pipelineDashboardCommand', example: string): Setter {
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

/** Environment `Allow`: variable names (a trailing `*` is a prefix) the children may inherit. */
// Reads the raw value: trimming markdown marks would eat the `*` of a final `XDG_*`.
export const envAllow: Setter = (_value, { draft, raw }) => {
  let value = raw
    .trim()
    .replace(/^\*+\s+/, '')
    .replace(/^`+|`+$/g, '');
  if (value.startsWith('**') && value.endsWith('**') && value.length >= 4) value = value.slice(2, -2);
  const names = splitCommaList(value, { spaces: true });
  const bad = names.find((name) => !ENV_NAME_PATTERN.test(name));
  if (bad !== undefined)
    return {
      message: `holds "${shorten(bad)}", which is not a variable name.`,
      fix: 'list names separated by commas, such as BEADS_DIR, HTTPS_PROXY, XDG_* (a trailing * is a prefix).',
    };
  draft.envAllow = names;
  return 'envAllow';
};

/** Beads `Alert if`: in-progress changes turn on a check; P0/P1 is always on; anything else is a warning. */
export const beadsAlert: Setter = (value, { draft, warn }) => {
  if (/in[\s_-]?progress/i.test(value) && /chang/i.test(value)) {
    draft.alertInProgressChanged = true;
    return 'alertInProgressChanged';
  }
  if (/\bP[01]\b/i.test(value)) return undefined; // always on: the spec's P0/P1 scan
  warn(`condition "${shorten(value)}" is not one heartbeat-kit checks — ignored.`);
  return undefined;
};

/** Orchestrators `Alert if`: a missing orchestrator is always checked; anything else is a warning. */
export const orchestratorAlert: Setter = (value, { warn }) => {
  if (!/missing/i.test(value)) warn(`condition "${shorten(value)}" is not one heartbeat-kit checks — ignored.`);
  return undefined;
};
