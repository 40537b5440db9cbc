import {
  parseFailureAudit,
  parseScheduleHealth,
  scriptReportsFromStatus,
  type ScriptReports,
  type SystemStatus,
} from '@heartbeat-kit/runbook';
import { createFileTaskStore, readTextFile } from '@heartbeat-kit/runbook/node';
import { err, ok, type Result } from 'neverthrow';
import { commandFailure, usageFailure, type CommandFailure } from '../../cli-kernel/index.js';
import type { CliIo } from '../../io.js';
import { resolvePath } from './shared.js';

// The files a runbook subcommand is given (runbook, status, script outputs), read with their
// problems as one-line failures: a missing or invalid file is the user's to fix (2), an unreadable
// one a failure (3).

/** The text of a file the user named; `what` names it in the error (`runbook`, `gate log`). */
export async function readInputFile(io: CliIo, path: string, what: string): Promise<Result<string, CommandFailure>> {
  const r = await readTextFile(resolvePath(io, path));
  if (r.isOk()) return ok(r.value);
  return r.error.kind === 'not-found'
    ? usageFailure(`${what} ${path} does not exist; pass the path of an existing file`)
    : commandFailure(`cannot read ${path}: ${r.error.message}`);
}

/** The server status snapshot in `path`, checked against its schema. */
export async function readStatus(io: CliIo, path: string): Promise<Result<SystemStatus, CommandFailure>> {
  const r = await createFileTaskStore(resolvePath(io, path)).snapshot();
  if (r.isOk()) return ok(r.value);
  if (r.error.kind === 'io') return usageFailure(`status file ${path}: ${r.error.message}; pass the path of a status JSON file`);
  return usageFailure(
    `${r.error.problems[0] ?? `${path}: invalid status`} (fix that key; every key is in docs/schemas/runbook-status.schema.json)`,
  );
}

async function readJsonFile(io: CliIo, path: string, what: string): Promise<Result<unknown, CommandFailure>> {
  const text = await readInputFile(io, path, what);
  if (text.isErr()) return err(text.error);
  try {
    return ok(JSON.parse(text.value) as unknown);
  } catch (cause) {
    return usageFailure(
      `${what} ${path} is not JSON (${cause instanceof Error ? cause.message : String(cause)}); pass the JSON the script printed`,
    );
  }
}

/** The two health scripts' reports and where each came from (a file given, or the status). */
export interface ReadScriptReports {
  readonly reports: ScriptReports;
  readonly source: { readonly scheduleHealth: string; readonly failureAudit: string };
}

/** The health scripts' reports: from the files given, else derived from the status. */
export async function readScriptReports(
  io: CliIo,
  status: SystemStatus,
  now: Date,
  files: { scheduleHealth?: string | undefined; failureAudit?: string | undefined },
): Promise<Result<ReadScriptReports, CommandFailure>> {
  const derived = scriptReportsFromStatus(status, now);
  let scheduleHealth = derived.scheduleHealth;
  let failureAudit = derived.failureAudit;
  if (files.scheduleHealth !== undefined) {
    const json = await readJsonFile(io, files.scheduleHealth, 'schedule-health output');
    if (json.isErr()) return err(json.error);
    const r = parseScheduleHealth(json.value, files.scheduleHealth);
    if (r.isErr())
      return usageFailure(`${r.error.problems[0] ?? files.scheduleHealth}; expected {"totalSchedules": N, "flagged": [{"id": ...}]}`);
    scheduleHealth = r.value;
  }
  if (files.failureAudit !== undefined) {
    const json = await readJsonFile(io, files.failureAudit, 'task-failure-audit output');
    if (json.isErr()) return err(json.error);
    const r = parseFailureAudit(json.value, files.failureAudit);
    if (r.isErr()) return usageFailure(`${r.error.problems[0] ?? files.failureAudit}; expected {"groups": [{"taskIds": [...]}]}`);
    failureAudit = r.value;
  }
  return ok({
    reports: { scheduleHealth, failureAudit },
    source: { scheduleHealth: files.scheduleHealth ?? 'status', failureAudit: files.failureAudit ?? 'status' },
  });
}
