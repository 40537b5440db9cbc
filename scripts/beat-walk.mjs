// The walk of a beat's deps (issue 32 item 4, "the beat's flow goes back and forth"): start at one function
// (WoterClip's `runBeat`) and follow every call the TypeScript checker resolves to a function declared in the
// same package's src (tests left out), each function visited once. Every such call site is a hop.
//   stay    a hop from one file of the start's folder (packages/woterclip/src/beat/) to another file of it:
//           the flow stays among the beat's own modules instead of handing a value to a step and moving on.
//   return  a stay into a hub: the start's own file (run-beat.ts) or beat-session.ts, the module that held
//           the shared beat state; the flow comes back to where it came from.
// Calls inside one file, and calls into other folders (config, inbox, report, ports), are hops but not stays.
import { basename, dirname, relative, sep } from 'node:path';
import ts from 'typescript';

/** Files a return lands in, besides the start's own file. */
export const HUB_FILES = ['beat-session.ts'];

/** The function-like declaration a call's callee names, or undefined (a port method, a library function). */
function calleeDeclaration(checker, call) {
  let symbol = checker.getSymbolAtLocation(call.expression);
  if (symbol === undefined) return undefined;
  if (symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  const declaration = symbol.valueDeclaration ?? symbol.declarations?.[0];
  if (declaration === undefined) return undefined;
  if (ts.isVariableDeclaration(declaration) && declaration.initializer !== undefined) {
    const init = declaration.initializer;
    return ts.isArrowFunction(init) || ts.isFunctionExpression(init) ? init : undefined;
  }
  return ts.isFunctionLike(declaration) && 'body' in declaration && declaration.body !== undefined ? declaration : undefined;
}

/** The name a function declaration goes by (its own, or the variable or property it is assigned to). */
function functionName(node) {
  if (node.name !== undefined) return node.name.getText();
  const parent = node.parent;
  return parent !== undefined && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent))
    ? parent.name.getText()
    : '(anonymous)';
}

/** Every call site reached from `start`: {from, to, callee} with file paths, each function walked once. */
export function walkCalls(program, start, inScope) {
  const checker = program.getTypeChecker();
  const seen = new Set([start]);
  const queue = [start];
  const hops = [];
  while (queue.length > 0) {
    const fn = queue.shift();
    const from = fn.getSourceFile().fileName;
    const visit = (node) => {
      if (ts.isCallExpression(node)) {
        const callee = calleeDeclaration(checker, node);
        const to = callee?.getSourceFile().fileName;
        if (callee !== undefined && inScope(to)) {
          hops.push({ from, to, callee: functionName(callee) });
          if (!seen.has(callee)) {
            seen.add(callee);
            queue.push(callee);
          }
        }
      }
      ts.forEachChild(node, visit);
    };
    ts.forEachChild(fn, visit);
  }
  return { hops, functions: seen.size };
}

/** Hops, stays and returns (as defined in this file's header), with the returns counted per target file. */
export function classifyHops(hops, startFile, hubNames = HUB_FILES) {
  const folder = dirname(startFile);
  const inFolder = (f) => dirname(f) === folder;
  const stays = hops.filter((h) => h.from !== h.to && inFolder(h.from) && inFolder(h.to));
  const isHub = (f) => f === startFile || hubNames.includes(basename(f));
  const returns = stays.filter((h) => isHub(h.to));
  const byTarget = {};
  for (const h of returns) byTarget[basename(h.to)] = (byTarget[basename(h.to)] ?? 0) + 1;
  return { hops: hops.length, stays: stays.length, returns: returns.length, returnsByFile: byTarget };
}

/** The walk from `runBeat` in `startFile`, over a program of that file and what it imports. */
export function beatWalk(startFile, compilerOptions, packageSrc) {
  const program = ts.createProgram([startFile], { ...compilerOptions, noEmit: true });
  const source = program.getSourceFile(startFile);
  const start = source?.statements.find((s) => ts.isFunctionDeclaration(s) && s.name?.text === 'runBeat');
  if (start === undefined) return undefined;
  const inScope = (f) => f.startsWith(packageSrc + sep) && !f.endsWith('.test.ts') && !relative(packageSrc, f).startsWith('..');
  const { hops, functions } = walkCalls(program, start, inScope);
  return { functions, ...classifyHops(hops, source.fileName) };
}
