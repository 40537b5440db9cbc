/**
 * Values in a systemd unit file, escaped by systemd's own rules (systemd.syntax(7),
 * systemd.service(5) "Command lines", systemd.unit(5) "Specifiers"), so a project path with
 * spaces, quotes, `%`, `$` or backslashes reaches the process exactly as it is on disk.
 */

/** A value systemd cannot carry on one unit-file line, with the reason. */
export interface UnitValueError {
  readonly value: string;
  readonly reason: string;
}

// Control characters (newline ends the setting, NUL ends the string) have no safe spelling in
// every setting we write: refuse them rather than hand systemd a different path.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

function refuseControl(value: string): UnitValueError | undefined {
  return CONTROL.test(value) ? { value, reason: 'it contains a control character (a newline, tab or similar)' } : undefined;
}

/**
 * One argument of `ExecStart=`: double-quoted, C-escaped (`\` and `"`), specifiers doubled (`%%`:
 * systemd expands them over the whole line before splitting it) and `$` doubled (`$$`: systemd
 * expands `$NAME` in arguments when it starts the process).
 */
export function execArgument(value: string): string | UnitValueError {
  const bad = refuseControl(value);
  if (bad !== undefined) return bad;
  const quoted = value
    .replace(/[\\"]/g, (c) => `\\${c}`)
    .replace(/%/g, '%%')
    .replace(/\$/g, '$$$$');
  return `"${quoted}"`;
}

/**
 * A whole `Environment=` assignment (`NAME=value`): quoted and C-escaped as one word, specifiers
 * doubled; `$` stays as it is (systemd does not expand variables in `Environment=`).
 */
export function environmentAssignment(name: string, value: string): string | UnitValueError {
  const bad = refuseControl(value);
  if (bad !== undefined) return bad;
  return `"${`${name}=${value}`.replace(/[\\"]/g, (c) => `\\${c}`).replace(/%/g, '%%')}"`;
}

/**
 * A path setting taken verbatim to the end of the line (`WorkingDirectory=`,
 * `EnvironmentFile=`): no quoting there, only specifiers doubled. systemd strips the line's
 * surrounding whitespace and reads a final `\` as a continuation, so such paths are refused.
 */
export function pathValue(path: string): string | UnitValueError {
  const bad = refuseControl(path);
  if (bad !== undefined) return bad;
  if (path !== path.trim()) return { value: path, reason: 'it starts or ends with a space, which systemd strips' };
  if (path.endsWith('\\')) return { value: path, reason: 'it ends with a backslash, which systemd reads as a line continuation' };
  if (!path.startsWith('/')) return { value: path, reason: 'it is not absolute' };
  return path.replace(/%/g, '%%');
}

/** Free text (`Description=`): specifiers doubled, control characters replaced by `?`. */
export function textValue(text: string): string {
  return text.replace(new RegExp(CONTROL.source, 'g'), '?').trim().replace(/\\$/, '?').replace(/%/g, '%%');
}

/** Type guard: did an escape refuse its value? */
export function isUnitValueError(value: string | UnitValueError): value is UnitValueError {
  return typeof value !== 'string';
}
