// Function lengths as eslint's max-lines-per-function counts them with { skipBlankLines, skipComments }:
// every function, arrow and method (a nested one is counted on its own and inside its parent), from the
// line of its first token (a method's name, not its doc comment) to its last, less blank lines and lines
// that hold only comments. An immediately invoked function is skipped, as the rule does by default.
import ts from 'typescript';

/** Every comment of a source file as [start, end) offsets, read from the trivia before each token. */
function commentRanges(source) {
  const text = source.getFullText();
  const seen = new Map();
  const collect = (node) => {
    for (const r of ts.getLeadingCommentRanges(text, node.getFullStart()) ?? []) seen.set(r.pos, r.end);
    for (const r of ts.getTrailingCommentRanges(text, node.getEnd()) ?? []) seen.set(r.pos, r.end);
    for (const child of node.getChildren(source)) collect(child);
  };
  collect(source);
  return [...seen].map(([pos, end]) => ({ pos, end }));
}

/** 1-based numbers of the lines that hold nothing but comments (and white space). */
export function commentOnlyLines(text, fileName = 'file.ts') {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  // Blank out every comment's characters (line breaks kept): a line left empty that was not held comments only.
  const masked = text.split('');
  for (const { pos, end } of commentRanges(source)) for (let c = pos; c < end; c += 1) if (masked[c] !== '\n') masked[c] = ' ';
  const before = text.split('\n');
  const result = new Set();
  masked
    .join('')
    .split('\n')
    .forEach((line, i) => {
      if (line.trim() === '' && before[i].trim() !== '') result.add(i + 1);
    });
  return result;
}

/** Whether a function expression is called where it stands: `(() => …)()`. */
function isIife(node) {
  let parent = node.parent;
  while (ts.isParenthesizedExpression(parent)) parent = parent.parent;
  return ts.isCallExpression(parent) && parent.expression !== node && skipParens(parent.expression) === node;
}

const skipParens = (e) => (ts.isParenthesizedExpression(e) ? skipParens(e.expression) : e);

/** A readable name: the declaration's own, or the variable, property or argument slot it stands in. */
function nameOf(node) {
  if (node.name !== undefined) return node.name.getText();
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) return parent.name.getText();
  if (ts.isCallExpression(parent)) return `${parent.expression.getText().slice(0, 40)}(… callback)`;
  return ts.isConstructorDeclaration(node) ? 'constructor' : '(anonymous)';
}

const FUNCTION_KINDS = new Set([
  ts.SyntaxKind.FunctionDeclaration,
  ts.SyntaxKind.FunctionExpression,
  ts.SyntaxKind.ArrowFunction,
  ts.SyntaxKind.MethodDeclaration,
  ts.SyntaxKind.Constructor,
  ts.SyntaxKind.GetAccessor,
  ts.SyntaxKind.SetAccessor,
]);

/** Every function of a TypeScript text with its counted length: [{ name, line, lines }], in source order. */
export function functionLengths(text, fileName = 'file.ts') {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const textLines = text.split('\n');
  const comments = commentOnlyLines(text, fileName);
  const found = [];
  const visit = (node) => {
    if (FUNCTION_KINDS.has(node.kind) && node.body !== undefined && !isIife(node)) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      let lines = 0;
      for (let i = first; i <= last; i += 1) if (textLines[i].trim() !== '' && !comments.has(i + 1)) lines += 1;
      found.push({ name: nameOf(node), line: first + 1, lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}
