/** What a tool's operation gives back: a value to show, or the error text (with its fix) to return as a tool error. */
export type McpOutcome = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly message: string };

/** Input of the `plan` tool. */
export interface PlanInput {
  /** How far ahead, in hours. */
  readonly hours: number;
}

/** Input of the `history` tool. */
export interface HistoryInput {
  /** Only receipts at or after this: an ISO instant or a duration back from now (`2h`). */
  readonly since?: string | undefined;
  /** At most this many receipts, the newest. */
  readonly limit: number;
}

/** Input of the `explain` tool. */
export interface ExplainInput {
  /** Only findings whose subject, category or fingerprint contains this text. */
  readonly match?: string | undefined;
}

/** Input of the `ack` tool: as `heartbeat-kit ack SELECTOR --note TEXT`. */
export interface AckInput {
  readonly selector: string;
  readonly note: string;
  readonly for?: string | undefined;
  readonly until?: string | undefined;
  readonly snooze?: boolean | undefined;
}

/** Input of the `pause` tool: as `heartbeat-kit pause` or, with `resume`, `heartbeat-kit resume`. */
export interface PauseInput {
  readonly resume?: boolean | undefined;
  readonly note?: string | undefined;
  readonly for?: string | undefined;
  readonly until?: string | undefined;
  readonly scanners?: readonly string[] | undefined;
  readonly exceptCritical?: boolean | undefined;
}

/**
 * The heartbeat operations an MCP server exposes. The `heartbeat-kit mcp` command implements them
 * with the CLI's own commands; an embedder implements them with its own. Every operation decides
 * nothing itself about the server: it only answers.
 */
export interface HeartbeatMcpDeps {
  /** The version the server reports to clients. */
  readonly version: string;
  /** Whether `ack`, `pause` and `cycle` may run; otherwise they are refused with how to allow them. */
  readonly allowWrite: boolean;
  readonly status: () => Promise<McpOutcome>;
  readonly plan: (input: PlanInput) => Promise<McpOutcome>;
  readonly history: (input: HistoryInput) => Promise<McpOutcome>;
  readonly explain: (input: ExplainInput) => Promise<McpOutcome>;
  readonly cycleDryRun: () => Promise<McpOutcome>;
  readonly ack: (input: AckInput) => Promise<McpOutcome>;
  readonly pause: (input: PauseInput) => Promise<McpOutcome>;
  readonly cycle: () => Promise<McpOutcome>;
  /** The effective configuration (resource `heartbeat://config`). */
  readonly config: () => Promise<McpOutcome>;
  /** The last report (resource `heartbeat://last-report`). */
  readonly lastReport: () => Promise<McpOutcome>;
}
