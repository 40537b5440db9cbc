import type { LabelEdit } from '../ports/issue-tracker.js';

/**
 * Why labels are edited through `gh api graphql` and not `gh issue edit --add-label --remove-label`:
 * gh 2.23 sends that edit as two requests (`LabelRemove`, then `LabelAdd`), so a failure between
 * them (rate limit, expired token, a kill) left the issue with neither label. The reference wants
 * the transition in one call and never a rewrite of the whole label set (that would undo a label a
 * human added meanwhile), so the adapter resolves ids with one read and then sends both changes in
 * ONE GraphQL mutation request: it reaches GitHub whole or not at all.
 */

/** The read that resolves the issue's node id and every named label's (`null` when the label does not exist). */
export function labelIdsRequest(owner: string, name: string, issue: number, labels: readonly string[]): string {
  const vars = labels.map((_, i) => `, $l${i}: String!`).join('');
  const fields = labels.map((_, i) => ` l${i}: label(name: $l${i}) { id name }`).join('');
  const query = `query WoterclipLabelIds($owner: String!, $name: String!, $number: Int!${vars}) { repository(owner: $owner, name: $name) { issue(number: $number) { id }${fields} } }`;
  const variables: Record<string, string | number> = { owner, name, number: issue };
  labels.forEach((l, i) => {
    variables[`l${i}`] = l;
  });
  return JSON.stringify({ query, variables });
}

/** The one mutation request: add first, then remove (a server-side failure between them leaves both, never neither). */
export function labelEditRequest(issueId: string, add: readonly string[], remove: readonly string[]): string {
  const vars = [add.length > 0 ? ', $add: [ID!]!' : '', remove.length > 0 ? ', $remove: [ID!]!' : ''].join('');
  const fields = [
    add.length > 0 ? ' add: addLabelsToLabelable(input: {labelableId: $id, labelIds: $add}) { clientMutationId }' : '',
    remove.length > 0 ? ' remove: removeLabelsFromLabelable(input: {labelableId: $id, labelIds: $remove}) { clientMutationId }' : '',
  ].join('');
  const query = `mutation WoterclipLabelEdit($id: ID!${vars}) {${fields} }`;
  return JSON.stringify({
    query,
    variables: { id: issueId, ...(add.length > 0 ? { add } : {}), ...(remove.length > 0 ? { remove } : {}) },
  });
}

/** The edit's label names in request order: the ones to add, then the ones to remove. */
export function editLabelNames(edit: LabelEdit): readonly string[] {
  return [...(edit.add ?? []), ...(edit.remove ?? [])];
}
