import { errAsync, okAsync, ResultAsync } from 'neverthrow';
import { parseLogText, serializeLogLine, type LogLine } from '../log/log-lines.js';
import type { BeatLog } from '../ports/beat-log.js';
import type { DispatchFailure, DispatchReport, DispatchRequest, Dispatcher } from '../ports/dispatcher.js';
import type { ToolProbe, WorkspaceFiles } from '../ports/workspace.js';

/** An in-memory log holding the raw JSONL text, so tests can tear its last line. */
export interface MemoryBeatLog extends BeatLog {
  text: string;
  /** The parsed lines of `text`. */
  readonly lines: () => readonly LogLine[];
}

/** A {@link BeatLog} over a string; `append` repairs a torn tail the same way the file adapter does. */
export function createMemoryBeatLog(initial = ''): MemoryBeatLog {
  const log: MemoryBeatLog = {
    text: initial,
    lines: () => parseLogText(log.text).lines,
    append: (line) => {
      if (log.text.length > 0 && !log.text.endsWith('\n')) log.text += '\n';
      log.text += serializeLogLine(line);
      return okAsync(undefined);
    },
    read: () => okAsync(parseLogText(log.text)),
  };
  return log;
}

/** Files under `.woterclip/` held in a map (relative path → text). */
export function createMemoryWorkspace(files: Readonly<Record<string, string>>): WorkspaceFiles {
  return { readText: (path) => okAsync(Object.hasOwn(files, path) ? files[path] : undefined) };
}

/** A {@link ToolProbe} that knows a fixed set of executables. */
export function createFakeToolProbe(available: readonly string[]): ToolProbe {
  const set = new Set(available);
  return { hasExecutable: (name) => okAsync(set.has(name)) };
}

/** A dispatch answer: a report, a failure, or a function of the request. */
export type ScriptedDispatch =
  | DispatchReport
  | { readonly failure: DispatchFailure }
  | ((
      request: DispatchRequest,
    ) => DispatchReport | { readonly failure: DispatchFailure } | Promise<DispatchReport | { readonly failure: DispatchFailure }>);

/** A dispatcher that answers from a script, in order (the last answer repeats), recording requests. */
export interface ScriptedDispatcher extends Dispatcher {
  readonly requests: DispatchRequest[];
}

/** A {@link Dispatcher} answering from `script`. */
export function createScriptedDispatcher(script: readonly ScriptedDispatch[]): ScriptedDispatcher {
  const requests: DispatchRequest[] = [];
  return {
    requests,
    dispatch: (request) => {
      const step = script[Math.min(requests.length, script.length - 1)];
      requests.push(request);
      if (step === undefined)
        return errAsync({
          kind: 'failed',
          message: 'no scripted answer',
          raw: '',
          model: { configured: request.model, actual: request.model, fallback: false },
        });
      const answer = typeof step === 'function' ? Promise.resolve(step(request)) : Promise.resolve(step);
      return ResultAsync.fromSafePromise<DispatchReport | { readonly failure: DispatchFailure }, DispatchFailure>(answer).andThen((a) =>
        'failure' in a ? errAsync(a.failure) : okAsync(a),
      );
    },
  };
}
