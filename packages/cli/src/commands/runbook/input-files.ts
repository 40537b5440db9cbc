import {
  parseFailureAudit,
  parseScheduleHealth,
  scriptReportsFromStatus,
  type ScriptReports,
  type SystemStatus,
} from '@heartbeat-kit/runbook';
import { createFileTaskStore, readTextFile, type FileError } from '@heartbeat-kit/runbook/node';
import { EXIT } from '../../exit-codes.js';
import type { CliIo } from '../../io.js';
import { UsageError, resolvePath } from './shared.js';

// The files a runbook subcommand is given (runbook, status, script outputs), read with their
// problems as one-line errors and exit codes: a missing file is the user's to fix (2), an
// unreadable one a failure (1).

class FileProblem extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

export async function readFileOrThrow(io: CliIo, path: string, what: string): Promise<string> {
  const r = await readTextFile(resolvePath(io, path));
  if (r.isOk()) return r.value;
  const e: FileError = r.error;
  throw new FileProblem(
    e.kind === 'not-found' ? `${what} ${path} does not exist; pass the path of an existing file` : `cannot read ${path}: ${e.message}`,
    e.kind === 'not-found' ? EXIT.usage : EXIT.failure,
  );
}

export async function readStatus(io: CliIo, path: string): Promise<SystemStatus> {
  const r = await createFileTaskStore(resolvePath(io, path)).snapshot();
  if (r.isOk()) return r.value;
  if (r.error.kind === 'io')
    throw new FileProblem(`status file ${path}: ${r.error.message}; pass the path of a status JSON file`, EXIT.usage);
  throw new FileProblem(
    `${r.error.problems[0] ?? `${path}: invalid status`} (fix that key; every key is in docs/schemas/runbook-status.schema.json)`,
    EXIT.usage,
  );
}

async function readJsonFile(io: CliIo, path: string, what: string): Promise<unknown> {
  const text = await readFileOrThrow(io, path, what);
  try {
    return JSON.parse(text) as unknown;
  } catch (cause) {
    throw new FileProblem(
      `${what} ${path} is not JSON (${cause instanceof Error ? cause.message : String(cause)}); pass the JSON the script printed`,
      EXIT.usage,
    );
  }
}

export async function readScriptReports(
  io: CliIo,
  status: SystemStatus,
  now: Date,
  files: { scheduleHealth?: string | undefined; failureAudit?: string | undefined },
): Promise<{ reports: ScriptReports; source: { scheduleHealth: string; failureAudit: string } }> {
  const derived = scriptReportsFromStatus(status, now);
  let scheduleHealth = derived.scheduleHealth;
  let failureAudit = derived.failureAudit;
  if (files.scheduleHealth !== undefined) {
    const r = parseScheduleHealth(await readJsonFile(io, files.scheduleHealth, 'schedule-health output'), files.scheduleHealth);
    if (r.isErr())
      throw new FileProblem(
        `${r.error.problems[0] ?? files.scheduleHealth}; expected {"totalSchedules": N, "flagged": [{"id": ...}]}`,
        EXIT.usage,
      );
    scheduleHealth = r.value;
  }
  if (files.failureAudit !== undefined) {
    const r = parseFailureAudit(await readJsonFile(io, files.failureAudit, 'task-failure-audit output'), files.failureAudit);
    if (r.isErr())
      throw new FileProblem(`${r.error.problems[0] ?? files.failureAudit}; expected {"groups": [{"taskIds": [...]}]}`, EXIT.usage);
    failureAudit = r.value;
  }
  return {
    reports: { scheduleHealth, failureAudit },
    source: { scheduleHealth: files.scheduleHealth ?? 'status', failureAudit: files.failureAudit ?? 'status' },
  };
}

/** Runs a subcommand body, turning usage and file problems into one-line errors and exit codes. */
export async function guarded(io: CliIo, sub: string, body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (cause) {
    if (cause instanceof UsageError) {
      // One error style across commands: the problem, then `Fix:`.
      const fix = cause.message.includes(' Fix: ') ? '' : ` Fix: see 'heartbeat-kit help runbook ${sub}'.`;
      io.stderr(`heartbeat-kit runbook ${sub}: ${cause.message.replace(/\.$/, '')}.${fix}\n`);
      return EXIT.usage;
    }
    if (cause instanceof FileProblem) {
      io.stderr(`heartbeat-kit runbook ${sub}: ${cause.message}\n`);
      return cause.exitCode;
    }
    throw cause;
  }
}
