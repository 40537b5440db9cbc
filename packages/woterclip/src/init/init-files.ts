/** A file `heartbeat-kit woterclip init` writes, relative to the repository root. */
export interface InitFile {
  readonly path: string;
  readonly text: string;
}

/** A label init creates on the repository: name, colour (hex, no `#`) and description. */
export interface InitLabel {
  readonly name: string;
  readonly color: string;
  readonly description: string;
}

/** What the init files are filled with; a missing value is written as the reference's placeholder. */
export interface InitValues {
  /** `owner/name`; default `{{REPO}}`. */
  readonly repo?: string;
  /** The Board's GitHub login; default `{{USER_NAME}}`. */
  readonly boardUser?: string;
}

/**
 * The labels init creates (reference §10). Colours of `agent-working`, `agent-blocked`, `backend`
 * and `frontend` are the reference's; the reference leaves the others open, these are ours.
 */
export const INIT_LABELS: readonly InitLabel[] = [
  { name: 'agent-working', color: '0E8A16', description: 'WoterClip: an agent is working on this issue' },
  { name: 'agent-blocked', color: 'B60205', description: 'WoterClip: blocked, needs the Board' },
  { name: 'backend', color: '1D76DB', description: 'WoterClip persona: backend' },
  { name: 'frontend', color: '5319E7', description: 'WoterClip persona: frontend' },
  { name: 'in-progress', color: 'FBCA04', description: 'WoterClip status: in progress' },
  { name: 'in-review', color: '0075CA', description: 'WoterClip status: a pull request awaits review' },
  { name: 'priority:high', color: 'D93F0B', description: 'Picked before issues without a priority' },
  { name: 'priority:low', color: 'C5DEF5', description: 'Picked after issues without a priority' },
];

const ORCHESTRATOR_SOUL = `# Orchestrator

You are the Orchestrator of this repository's WoterClip agents. Every issue without a persona
label comes to you first.

Your job is triage, never code:
- Read the issue and decide who should work it. Apply exactly one persona label with
  \`gh issue edit <N> --repo <repo> --add-label <persona>\` (for example \`backend\`), then report
  the status \`triaged\`.
- When an issue is too large for one persona, split it into sub-issues (each with a persona
  label and \`Parent: #<N>\` in its body) and report \`decomposed\`, listing every child.
- When you cannot decide, or the issue needs a human decision, report \`blocked\` with the
  question for the Board and the observable condition that unblocks it.

Never write or commit code, never post Heartbeat comments and never touch the agent-working,
agent-blocked or status labels: the heartbeat loop does that.
`;

const ORCHESTRATOR_TOOLS = `# Tools

- \`gh\` for reading issues, adding persona labels and creating sub-issues. Always pass
  \`--repo <owner/name>\`.
- Read-only repository tools (reading files, searching) to understand the issue.
`;

const ORCHESTRATOR_CONFIG = `# WoterClip persona: Orchestrator (triage; the default persona for issues without a persona label).
name: Orchestrator
role: orchestrator
label: null
is_default: true
escalates_to: board
required_tools: [gh]
runtime:
  model: haiku            # the {model} of dispatch.command in ../../config.yaml
  thinking_effort: low    # a directive in the prompt
  max_turns: 50           # a directive in the prompt, and {max_turns} of dispatch.command
  enable_chrome: false
  timeout: 0
  extra_args: []
`;

function repoConfig(values: InitValues): string {
  const q = (value: string): string => JSON.stringify(value);
  return `# WoterClip configuration (schema version 2). Reference: docs/reference/configuration.md
version: 2
github:
  board_user: ${q(values.boardUser ?? '{{USER_NAME}}')}   # the Board's GitHub login, @-mentioned on blocked issues
  repo: ${q(values.repo ?? '{{REPO}}')}              # always passed to gh as --repo
heartbeat:
  max_issues_per_heartbeat: 2
  stale_lock_hours: 4
  time_ceiling_sec: 1200
  quiet_hours:
    enabled: false
    timezone: "UTC"
    start: "22:00"
    end: "07:00"                # HH:MM; start > end crosses midnight, 24:00 is midnight
    # days: "Mon-Fri"           # quiet only on these days (Sun, Sat, Sun, Fri-Mon …), by the local calendar day
    behavior: "skip"            # or "triage-only": only the Orchestrator works
labels:
  working: "agent-working"
  blocked: "agent-blocked"
personas:
  orchestrator: {path: "personas/orchestrator", label: null, is_default: true}
  # Add a worker persona with its own directory (SOUL.md, TOOLS.md, config.yaml), e.g.:
  # backend: {path: "personas/backend", label: "backend"}
dispatch:
  # The agent CLI a persona runs as: the prompt goes to stdin, the outcome is read from stdout.
  command: ["claude", "--print", "--model", "{model}", "--max-turns", "{max_turns}"]
  fallback:
    command: ["claude", "--print", "--max-turns", "{max_turns}"]
    model: "session"
`;
}

/**
 * The files `heartbeat-kit woterclip init` writes: `.woterclip/config.yaml` (version 2) and the
 * Orchestrator persona (SOUL.md, TOOLS.md, config.yaml). Pure: the CLI does the writing.
 */
export function renderInitFiles(values: InitValues = {}): readonly InitFile[] {
  return [
    { path: '.woterclip/config.yaml', text: repoConfig(values) },
    { path: '.woterclip/personas/orchestrator/SOUL.md', text: ORCHESTRATOR_SOUL },
    { path: '.woterclip/personas/orchestrator/TOOLS.md', text: ORCHESTRATOR_TOOLS },
    { path: '.woterclip/personas/orchestrator/config.yaml', text: ORCHESTRATOR_CONFIG },
  ];
}
