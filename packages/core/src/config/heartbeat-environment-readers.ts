// The setter of the environment the tools get (`## Environment`); the scanners' own setters live beside them.
import { splitCommaList } from '../text/comma-list.js';
import { ENV_NAME_PATTERN } from '../command/child-environment.js';
import { shorten } from './heartbeat-markdown-text.js';
import type { Setter } from './heartbeat-setting-draft.js';

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
