#!/usr/bin/env node
// A fake `gh` for the IssueTracker contract suite: keeps issues, labels and comments in the JSON
// file named by FAKE_GH_STATE and answers the subset of gh the adapter uses, with gh's output
// shapes, exit codes and error messages. Every argv is appended to state.argv for assertions.
import { readFileSync, writeFileSync } from 'node:fs';

const statePath = process.env.FAKE_GH_STATE;
const state = JSON.parse(readFileSync(statePath, 'utf8'));
const argv = process.argv.slice(2);
state.argv.push(argv);
const save = () => writeFileSync(statePath, JSON.stringify(state));
const out = (text) => process.stdout.write(text);
const fail = (message, code = 1) => {
  save();
  process.stderr.write(`${message}\n`);
  process.exit(code);
};
const stdin = () => readFileSync(0, 'utf8');

// Parses `--flag=value`, `--flag value`, `-F k=v`, and `--` (end of options).
function parse(args) {
  const flags = {};
  const positional = [];
  for (let i = 0; i < args.length; i += 1) {
    const a = args[i];
    if (a === '--') { positional.push(...args.slice(i + 1)); break; }
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const [k, v] = eq >= 0 ? [a.slice(2, eq), a.slice(eq + 1)] : [a.slice(2), ['paginate'].includes(a.slice(2)) ? 'true' : args[++i]];
      (flags[k] ??= []).push(v);
    } else if (a === '-F' || a === '-f') {
      (flags[a] ??= []).push(args[++i]);
    } else positional.push(a);
  }
  return { flags, positional };
}

if (state.authMode !== 'ok') {
  if (argv[0] === 'auth') fail('You are not logged into any GitHub hosts. To log in, run: gh auth login');
  fail('To get started with GitHub CLI, please run:  gh auth login', 4);
}
const [group, verb, ...rest] = argv;
const { flags, positional } = parse(group === 'api' ? [verb, ...rest] : rest);
const repo = flags.repo?.[0];
if (group !== 'auth' && group !== 'api' && repo !== state.repo) fail(`expected --repo ${state.repo}, got ${repo}`);
const find = (n) => {
  const issue = state.issues.find((i) => i.number === Number(n));
  if (!issue) fail(`GraphQL: Could not resolve to an issue or pull request with the number of ${n}. (repository.issue)`);
  return issue;
};
const labelObj = (name) => ({ id: `LA_${name}`, name, description: '', color: 'ededed' });
const pick = (obj, fields) => Object.fromEntries(fields.split(',').sort().map((f) => [f, obj[f]]));
const url = (n) => `https://github.com/${state.repo}/issues/${n}`;

if (group === 'auth' && verb === 'status') {
  out(`github.com\n  ✓ Logged in to github.com account ${state.login} (keyring)\n  - Active account: true\n  - Git operations protocol: https\n  - Token: gho_************************************\n`);
} else if (group === 'issue' && verb === 'list') {
  const issues = state.issues
    .filter((i) => i.state === 'OPEN' && flags.assignee?.[0] === '@me' && i.assignees.includes(state.login))
    .sort((a, b) => b.number - a.number)
    .slice(0, Number(flags.limit?.[0] ?? 30))
    .map((i) => pick({ ...i, labels: i.labels.map(labelObj) }, flags.json[0]));
  out(`${JSON.stringify(issues)}\n`);
} else if (group === 'issue' && verb === 'view') {
  const i = find(positional[0]);
  const comments = i.comments.map((c) => ({ id: c.id, author: { login: c.author }, authorAssociation: 'OWNER', body: c.body, createdAt: c.createdAt, includesCreatedEdit: false, isMinimized: false, minimizedReason: '', reactionGroups: [], url: c.url, viewerDidAuthor: c.author === state.login }));
  out(`${JSON.stringify(pick({ ...i, labels: i.labels.map(labelObj), comments }, flags.json[0]))}\n`);
} else if (group === 'issue' && verb === 'edit') {
  const i = find(positional[0]);
  for (const l of flags['add-label'] ?? []) for (const name of l.split(',')) if (!state.labels.includes(name)) fail(`could not add label: '${name}' not found`);
  const remove = (flags['remove-label'] ?? []).flatMap((l) => l.split(','));
  i.labels = i.labels.filter((l) => !remove.includes(l));
  for (const l of flags['add-label'] ?? []) for (const name of l.split(',')) if (!i.labels.includes(name)) i.labels.push(name);
  out(`${url(i.number)}\n`);
} else if (group === 'issue' && verb === 'comment') {
  const i = find(positional[0]);
  const body = flags['body-file']?.[0] === '-' ? stdin() : flags.body?.[0];
  state.seq += 1;
  const c = { id: `IC_${state.seq}`, author: state.login, body, createdAt: new Date(Date.UTC(2026, 6, 22, 10, 0, state.seq)).toISOString().replace('.000', ''), url: `${url(i.number)}#issuecomment-${state.seq}` };
  i.comments.push(c);
  out(`${c.url}\n`);
} else if (group === 'issue' && verb === 'close') {
  const i = find(positional[0]);
  i.state = 'CLOSED';
  process.stderr.write(`✓ Closed issue ${state.repo}#${i.number}\n`);
} else if (group === 'issue' && verb === 'create') {
  const body = flags['body-file']?.[0] === '-' ? stdin() : flags.body?.[0] ?? '';
  for (const name of (flags.label ?? []).flatMap((l) => l.split(','))) if (!state.labels.includes(name)) fail(`could not add label: '${name}' not found`);
  const number = Math.max(0, ...state.issues.map((i) => i.number)) + 1;
  state.issues.push({ number, id: 3000000000 + number, title: flags.title[0], body, labels: (flags.label ?? []).flatMap((l) => l.split(',')), comments: [], createdAt: '2026-07-22T10:00:00Z', state: 'OPEN', assignees: flags.assignee?.[0] === '@me' ? [state.login] : [], subIssues: [] });
  out(`${url(number)}\n`);
} else if (group === 'label' && verb === 'create') {
  const name = positional[0];
  if (state.labels.includes(name)) fail(`label with name "${name}" already exists; use \`--force\` to update its color and description`);
  state.labels.push(name);
  out(`✓ Label "${name}" created in ${state.repo}\n`);
} else if (group === 'api') {
  const path = positional[0].replace(/\?.*$/, '');
  const m = /^repos\/([^/]+\/[^/]+)\/issues\/(\d+)(\/sub_issues)?$/.exec(path);
  if (!m || m[1] !== state.repo) { out('{"message":"Not Found","status":"404"}'); fail('gh: Not Found (HTTP 404)'); }
  const i = find(m[2]);
  if (!m[3]) out(JSON.stringify({ id: i.id, number: i.number, title: i.title, state: i.state.toLowerCase() }));
  else if (flags['-F'] || flags['-f']) {
    const field = (flags['-F'] ?? flags['-f'])[0];
    const [key, value] = field.split('=');
    if (flags['-f'] || key !== 'sub_issue_id' || !/^\d+$/.test(value)) { out('{"message":"Invalid request.","status":"422"}'); fail('gh: Invalid request. (HTTP 422)'); }
    const child = state.issues.find((c) => c.id === Number(value));
    if (!child) { out('{"message":"Validation Failed","status":"422"}'); fail('gh: Validation Failed (HTTP 422)'); }
    i.subIssues.push(child.number);
    out(JSON.stringify({ id: i.id, number: i.number }));
  } else {
    const subs = i.subIssues.map((n) => { const c = state.issues.find((x) => x.number === n); return { id: c.id, number: c.number, title: c.title, state: c.state.toLowerCase() }; });
    // Two pages back to back, as --paginate prints them.
    out(`${JSON.stringify(subs.slice(0, 1))}${JSON.stringify(subs.slice(1))}`);
  }
} else fail(`unknown command "${argv.join(' ')}" for "gh"`);
save();
