import {
  type CommandError,
  type CommandRunner,
  defineStatefulScanner,
  type Finding,
  sanitizeForMessage,
  type ScanContext,
  type Scanner,
  scanOk,
  type ScanResult,
  type ScanWarning,
  type StatefulScan,
} from '@heartbeat-kit/core';
import { OUTSIDE_ACTIVE_HOURS_REASON, readConfigSection } from '@heartbeat-kit/core/host';
import { errAsync, okAsync, Result, ResultAsync } from 'neverthrow';
import { pipelineDashboardSchema, type PipelineDashboard } from './dashboard-schema.js';
import { describeDotParseError, parseDot, type DotParseError } from './dot-parser.js';
import { computeDashboard } from './pipeline-dashboard.js';
import {
  PIPELINE_SLICE,
  derivePipelineFinalized,
  observePipeline,
  pipelineFindings,
  type PipelineObservation,
  type PipelineSlice,
} from './pipeline-findings.js';
import { PIPELINES_CONFIG } from './pipeline-config.js';

/**
 * File access of the pipeline scanner, injected so this module stays pure. `list` resolves the
 * entry names of a directory (an empty list when it does not exist); `read` resolves a file's text.
 * The Node implementation is `createNodePipelineFiles` in `@heartbeat-kit/scanners/node`.
 */
export interface PipelineFiles {
  readonly list: (dir: string) => Promise<string[]>;
  readonly read: (path: string) => Promise<string>;
}

/** Why one pipeline file gave no dashboard. The other pipelines are still scanned. */
export type PipelineFileError =
  | { readonly kind: 'read-failed'; readonly file: string; readonly message: string }
  | { readonly kind: 'parse-failed'; readonly file: string; readonly error: DotParseError }
  | { readonly kind: 'command-failed'; readonly file: string; readonly error: CommandError }
  | { readonly kind: 'command-exit'; readonly file: string; readonly exitCode: number; readonly stderr: string }
  | { readonly kind: 'invalid-output'; readonly file: string; readonly message: string };

/** Renders a pipeline file error as one sanitised line. */
export function describePipelineFileError(error: PipelineFileError): string {
  const file = sanitizeForMessage(error.file, { maxLength: 120 });
  const detail = ((): string => {
    switch (error.kind) {
      case 'read-failed':
        return `cannot read: ${error.message}`;
      case 'parse-failed':
        return `cannot parse: ${describeDotParseError(error.error)}`;
      case 'command-failed':
        return `dashboard command failed (${error.error.kind})`;
      case 'command-exit':
        return `dashboard command exited ${error.exitCode}${error.stderr.trim() === '' ? '' : `: ${error.stderr.trim().split('\n')[0] ?? ''}`}`;
      case 'invalid-output':
        return `dashboard output unusable: ${error.message}`;
    }
  })();
  return `${file}: ${sanitizeForMessage(detail, { maxLength: 200 })}`;
}

/** Dependencies of {@link createPipelineScanner}. */
export interface PipelineScannerOptions {
  /** Project root: pipelines are `<cwd>/.pipelines/pipelines/*.dot`. */
  readonly cwd: string;
  readonly files: PipelineFiles;
  /** Needed only when `config.pipelineDashboardCommand` is set. */
  readonly runner?: CommandRunner;
  /** Pipelines beyond this many (by file name) are skipped with a warning. Default 200. */
  readonly maxPipelines?: number;
  /** Time limit of one dashboard command run. Default: the runner's. */
  readonly commandTimeoutMs?: number;
}

/** Warning codes the pipeline scanner reports. */
export const PIPELINE_WARNING_CODES = {
  fileFailed: 'PIPELINE_FILE_FAILED',
  duplicateName: 'PIPELINE_DUPLICATE_NAME',
  tooMany: 'PIPELINE_TOO_MANY',
} as const;

/** The directory the scanner reads, relative to the project root (the pipeline lifecycle target: spec 000, target 7). */
export const PIPELINE_DIR = '.pipelines/pipelines';

function joinPath(dir: string, name: string): string {
  return dir.endsWith('/') ? `${dir}${name}` : `${dir}/${name}`;
}

function messageOf(caught: unknown): string {
  if (caught instanceof Error) return caught.message;
  return typeof caught === 'string' ? caught : 'unknown error';
}

/** The graph name, or the file's base name for an anonymous graph, so every pipeline has an identity. */
function pipelineName(dashboard: PipelineDashboard, file: string): string {
  if (dashboard.graph_name !== '') return dashboard.graph_name;
  return file.replace(/\.dot$/, '');
}

/** Turns a synchronous throw of an injected function into a rejection, so `scan` never rejects. */
function attempt<T>(run: () => Promise<T>): Promise<T> {
  return Promise.resolve().then(run);
}

const safeJsonParse = Result.fromThrowable(
  (text: string): unknown => JSON.parse(text),
  (caught) => messageOf(caught),
);

// The dashboards one scan read, or the result that ends it early.
type Dashboards =
  | { readonly kind: 'result'; readonly result: ScanResult }
  | {
      readonly kind: 'read';
      readonly findings: readonly Finding[];
      readonly observations: readonly PipelineObservation[];
      readonly warnings: readonly ScanWarning[];
      readonly durationMs: number;
    };

// The `*.dot` files to read (the first `max`), and a warning when there were more.
function pipelineFiles(listed: readonly string[], max: number): { files: string[]; warnings: ScanWarning[] } {
  // The shell glob `*.dot` skips hidden files and sorts names.
  const all = listed.filter((name) => name.endsWith('.dot') && !name.startsWith('.')).sort();
  const warnings: ScanWarning[] = [];
  if (all.length > max) {
    warnings.push({
      code: PIPELINE_WARNING_CODES.tooMany,
      message: `${all.length} pipeline files; only the first ${max} were read`,
    });
  }
  return { files: all.slice(0, max), warnings };
}

// Two files with one graph name: the second is skipped, said here.
function duplicateNameWarning(file: string, name: string): ScanWarning {
  return {
    code: PIPELINE_WARNING_CODES.duplicateName,
    message: `${sanitizeForMessage(file, { maxLength: 120 })}: pipeline ${sanitizeForMessage(name, { maxLength: 80 })} already read from another file; skipped`,
  };
}

// Reads one DOT file and computes its dashboard natively (no Python).
function readNativeDashboard(
  options: PipelineScannerOptions,
  dir: string,
  file: string,
  now: Date,
): ResultAsync<PipelineDashboard, PipelineFileError> {
  return ResultAsync.fromPromise(
    attempt(() => options.files.read(joinPath(dir, file))),
    (caught): PipelineFileError => ({
      kind: 'read-failed',
      file,
      message: messageOf(caught),
    }),
  ).andThen((text) =>
    parseDot(text)
      .map((graph) => computeDashboard(graph, now))
      .mapErr((error): PipelineFileError => ({ kind: 'parse-failed', file, error })),
  );
}

/** One file read through the dashboard command: its command prefix, runner, signal and the scan's duration meter. */
interface CommandRead {
  readonly file: string;
  readonly prefix: readonly string[];
  readonly runner: CommandRunner;
  readonly signal: AbortSignal;
  readonly meter: { ms: number };
}

// The dashboard JSON a command printed, checked against the dashboard schema.
function dashboardFromOutput(file: string, stdout: string): ResultAsync<PipelineDashboard, PipelineFileError> {
  const json = safeJsonParse(stdout);
  if (json.isErr())
    return errAsync<PipelineDashboard, PipelineFileError>({ kind: 'invalid-output', file, message: `not JSON (${json.error})` });
  const parsed = pipelineDashboardSchema.safeParse(json.value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined ? '' : `${issue.path.join('.')}: ${issue.message}`;
    return errAsync<PipelineDashboard, PipelineFileError>({ kind: 'invalid-output', file, message: `unexpected shape (${where})` });
  }
  return okAsync<PipelineDashboard, PipelineFileError>(parsed.data);
}

// Runs `<command> <file.dot> --output json` and reads its dashboard.
function readDashboardByCommand(
  options: PipelineScannerOptions,
  dir: string,
  { file, prefix, runner, signal, meter }: CommandRead,
): ResultAsync<PipelineDashboard, PipelineFileError> {
  const [command, ...rest] = prefix;
  if (command === undefined) return errAsync({ kind: 'invalid-output', file, message: 'empty dashboard command' });
  return runner
    .run(
      {
        file: command,
        args: [...rest, joinPath(dir, file), '--output', 'json'],
        cwd: options.cwd,
        ...(options.commandTimeoutMs === undefined ? {} : { timeoutMs: options.commandTimeoutMs }),
      },
      signal,
    )
    .mapErr((error): PipelineFileError => ({ kind: 'command-failed', file, error }))
    .andThen((output) => {
      // Pure code has no clock: the scan's duration is the time its commands took.
      meter.ms += output.durationMs;
      if (output.exitCode !== 0)
        return errAsync<PipelineDashboard, PipelineFileError>({
          kind: 'command-exit',
          file,
          exitCode: output.exitCode,
          stderr: output.stderr,
        });
      return dashboardFromOutput(file, output.stdout);
    });
}

/**
 * The Attractor pipeline scanner: the pipeline lifecycle status target (spec 000, target 7). For each `.pipelines/pipelines/*.dot` it reads
 * the dashboard — natively, or through `config.pipelineDashboardCommand` run as
 * `[...prefix, <file.dot>, '--output', 'json']` — and reports PIPELINE_NODE_FAILED,
 * PIPELINE_VALIDATION_STALLED and PIPELINE_STALLED, and PIPELINE_FINALIZED when a pipeline's stage
 * turns Finalized (the stages live in the scanner's own slice of the state). A failing file is a warning; only all failing is an error.
 *
 * @example
 * ```ts
 * import { createPipelineScanner } from '@heartbeat-kit/scanners';
 * import { createNodePipelineFiles } from '@heartbeat-kit/scanners/node';
 *
 * // Reads <cwd>/.pipelines/pipelines/*.dot natively; no Python dashboard needed.
 * const scanner = createPipelineScanner({ cwd: process.cwd(), files: createNodePipelineFiles() });
 * ```
 */
export function createPipelineScanner(options: PipelineScannerOptions): Scanner {
  const dir = joinPath(options.cwd, PIPELINE_DIR);
  const maxPipelines = options.maxPipelines ?? 200;

  const scanUnguarded = async (context: ScanContext, previous: PipelineSlice): Promise<StatefulScan<PipelineSlice>> => {
    const result = await scanDashboards(context);
    if (result.kind === 'result') return { result: result.result };
    const finalized = derivePipelineFinalized(previous, result.observations);
    const { findings, warnings, durationMs } = result;
    return { result: scanOk('pipelines', { findings: [...findings, ...finalized.findings], warnings, durationMs }), next: finalized.next };
  };

  const scanDashboards = async (context: ScanContext): Promise<Dashboards> => {
    const done = (result: ScanResult): Dashboards => ({ kind: 'result', result });
    if (!context.insideActiveHours)
      return done({ scanner: 'pipelines', status: 'skipped', reason: OUTSIDE_ACTIVE_HOURS_REASON, durationMs: 0 });
    const prefix = readConfigSection(PIPELINES_CONFIG, context.config).pipelineDashboardCommand;
    const runner = options.runner;
    if (prefix !== undefined && runner === undefined) {
      return done({
        scanner: 'pipelines',
        status: 'error',
        error: 'pipelineDashboardCommand is set but no CommandRunner was given',
        durationMs: 0,
      });
    }
    const listed = await ResultAsync.fromPromise(
      attempt(() => options.files.list(dir)),
      messageOf,
    );
    if (listed.isErr()) {
      return done({
        scanner: 'pipelines',
        status: 'error',
        error: `cannot list ${PIPELINE_DIR}: ${sanitizeForMessage(listed.error)}`,
        durationMs: 0,
      });
    }
    const { files, warnings } = pipelineFiles(listed.value, maxPipelines);
    const meter = { ms: 0 };
    const findings: Finding[] = [];
    const observations: PipelineObservation[] = [];
    const names = new Set<string>();
    let failures = 0;
    for (const file of files) {
      if (context.signal.aborted) return done({ scanner: 'pipelines', status: 'error', error: 'aborted', durationMs: meter.ms });
      const result =
        prefix !== undefined && runner !== undefined
          ? await readDashboardByCommand(options, dir, { file, prefix, runner, signal: context.signal, meter })
          : await readNativeDashboard(options, dir, file, context.now);
      if (result.isErr()) {
        failures += 1;
        warnings.push({ code: PIPELINE_WARNING_CODES.fileFailed, message: describePipelineFileError(result.error) });
        continue;
      }
      const name = pipelineName(result.value, file);
      if (names.has(name)) {
        // Two files with one graph name would share fingerprints and flap the stage history.
        warnings.push(duplicateNameWarning(file, name));
        continue;
      }
      names.add(name);
      observations.push(observePipeline(name, result.value));
      findings.push(...pipelineFindings(name, result.value));
    }
    if (files.length > 0 && failures === files.length) {
      return done({ scanner: 'pipelines', status: 'error', error: warnings.map((w) => w.message).join('; '), durationMs: meter.ms });
    }
    return { kind: 'read', findings, observations, warnings, durationMs: meter.ms };
  };

  // A misbehaving injected port (a synchronous throw) must not fail the cycle either.
  const scan = (context: ScanContext, previous: PipelineSlice): Promise<StatefulScan<PipelineSlice>> =>
    scanUnguarded(context, previous).catch((caught: unknown): StatefulScan<PipelineSlice> => ({
      result: { scanner: 'pipelines', status: 'error', error: sanitizeForMessage(messageOf(caught)), durationMs: 0 },
    }));

  return defineStatefulScanner({ name: 'pipelines', runsOutsideActiveHours: false, slice: PIPELINE_SLICE, scan });
}
