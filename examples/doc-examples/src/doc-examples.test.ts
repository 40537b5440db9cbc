import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { collectDocExamples } from './doc-examples.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../../..');
const examples = collectDocExamples(root);

/** Entry functions that must show an `@example` in the API docs. */
const REQUIRED = [
  'parseHeartbeatConfig',
  'evaluateCycle',
  'runCycle',
  'runLoop',
  'createFinding',
  'createFileStateStore',
  'createFileLockStore',
  'createStdoutSink',
  'createJsonlFileSink',
  'createFileMtimeOperatorActivity',
  'createFakeClock',
  'createMemoryStateStore',
  'createMemoryLockStore',
  'createRecordingSink',
  'createFakeOperatorActivity',
  'createFakeCommandRunner',
  'createDefaultScanners',
  'createProcessRunner',
  'createBeadsScanner',
  'createOrchestratorsScanner',
  'createIdleOrchestratorsScanner',
  'createGitScanner',
  'createStaleTasksScanner',
  'createGChatScanner',
  'createPipelineScanner',
  'runBeat',
  'createGhIssueTracker',
  'createCommandDispatcher',
  'createMemoryIssueTracker',
  'runChecklistTick',
  'createRulesGate',
  'runGate',
  'createCommandGate',
  'validateRunbook',
  'decideBootTriage',
  'main',
  'createFleetScheduler',
  'createFleetWorker',
  'createRedisLockStore',
  'createRedisStateStore',
];

describe('@example blocks in the packages’ doc comments', () => {
  it('every entry function has one', () => {
    const documented = new Set(examples.map((e) => e.symbol));
    expect(REQUIRED.filter((name) => !documented.has(name))).toEqual([]);
  });

  it('every one type-checks against the current sources (strict, as an ES module in this package)', () => {
    const configFile = ts.readConfigFile(join(root, 'tsconfig.base.json'), (p) => ts.sys.readFile(p)) as {
      config?: { compilerOptions?: unknown };
    };
    const parsed = ts.convertCompilerOptionsFromJson(configFile.config?.compilerOptions, root);
    expect(parsed.errors).toEqual([]);
    const options: ts.CompilerOptions = { ...parsed.options, noEmit: true, declaration: false, sourceMap: false };
    // Virtual files inside this package, so package names resolve like in a real consumer.
    const virtual = new Map(examples.map((e, i) => [join(here, '__doc_examples__', `${String(i).padStart(3, '0')}-${e.symbol}.ts`), e]));
    const host = ts.createCompilerHost(options);
    const fileExists = host.fileExists.bind(host);
    const readFile = host.readFile.bind(host);
    const getSourceFile = host.getSourceFile.bind(host);
    host.fileExists = (f) => virtual.has(f) || fileExists(f);
    host.readFile = (f) => virtual.get(f)?.code ?? readFile(f);
    host.getSourceFile = (f, lang, onError, create) => {
      const example = virtual.get(f);
      return example === undefined ? getSourceFile(f, lang, onError, create) : ts.createSourceFile(f, example.code, lang, true);
    };
    const program = ts.createProgram([...virtual.keys()], options, host);
    const problems = [...virtual.entries()].flatMap(([f, example]) => {
      const source = program.getSourceFile(f);
      if (source === undefined) return [`${example.file} (${example.symbol}): not loaded`];
      return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)].map((d) => {
        const line = d.start === undefined ? 0 : source.getLineAndCharacterOfPosition(d.start).line + 1;
        return `${example.file} @example of ${example.symbol}, line ${line}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
      });
    });
    expect(problems).toEqual([]);
    expect(examples.length).toBeGreaterThanOrEqual(REQUIRED.length);
  });

  it('a broken example is caught (the check above can fail)', () => {
    const options: ts.CompilerOptions = {
      strict: true,
      noEmit: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      types: [],
    };
    const file = join(here, '__doc_examples__', 'broken.ts');
    const host = ts.createCompilerHost(options);
    const getSourceFile = host.getSourceFile.bind(host);
    host.getSourceFile = (f, lang, onError, create) =>
      f === file ? ts.createSourceFile(f, 'const n: number = "one";\nexport {};\n', lang, true) : getSourceFile(f, lang, onError, create);
    const fileExists = host.fileExists.bind(host);
    host.fileExists = (f) => f === file || fileExists(f);
    const program = ts.createProgram([file], options, host);
    expect(program.getSemanticDiagnostics(program.getSourceFile(file)).length).toBeGreaterThan(0);
  });
});
