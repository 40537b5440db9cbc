import type { LabelStyle } from '../ports/issue-tracker.js';
import { INIT_LABELS } from './init-files.js';

/** The colour of a label WoterClip creates that is not one of its own (GitHub's default grey). */
export const OTHER_LABEL_COLOR = 'EDEDED';

/**
 * The fixed colour (and description) of a label the beat creates when an edit finds it missing:
 * the colour `woterclip init` gives it (reference §10), with the renamed working/blocked labels
 * of `labels:` mapped to agent-working/agent-blocked; any other label gets {@link OTHER_LABEL_COLOR}.
 * Without a colour, gh 2.23's `label create` picks a random one.
 */
export function woterclipLabelStyle(name: string, labels: { readonly working: string; readonly blocked: string }): LabelStyle {
  const role = name === labels.working ? 'agent-working' : name === labels.blocked ? 'agent-blocked' : name;
  const known = INIT_LABELS.find((l) => l.name === role);
  return known === undefined ? { color: OTHER_LABEL_COLOR } : { color: known.color, description: known.description };
}
