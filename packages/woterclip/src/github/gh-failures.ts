import { type CommandError, type CommandOutput, sanitizeForMessage } from '@heartbeat-kit/core';
import type { TrackerError } from '../ports/issue-tracker.js';

// Why a gh call failed, as a closed TrackerError whose message names the fix.

/** The first line of what gh printed, sanitised and short enough for a message. */
export function firstLine(text: string): string {
  return sanitizeForMessage(text.trim().split('\n')[0] ?? '', { maxLength: 240 });
}

/**
 * Maps a finished gh run to a tracker error. Texts are those real gh prints (fixtures captured from
 * gh 2.23.0 in test/fixtures/gh-captured): an expired token is exit 1 with `Bad credentials`/`401`,
 * never exit 4 (that is only "never logged in"); `issue edit` names an unknown label as
 * `'x' not found`, `issue create` (and gh ≥ 2.3x's edit) as `could not add label: 'x' not found`.
 */
export function classifyGhFailure(output: CommandOutput): TrackerError {
  const stderr = output.stderr;
  const label = /^(?:could not add label: )?'([^'\n]+)' not found$/m.exec(stderr.trim());
  if (label?.[1] !== undefined) return { kind: 'label-not-found', label: label[1], message: firstLine(stderr) };
  if (output.exitCode === 4 || /gh auth login|not logged in|Bad credentials|HTTP 401|\b401 Unauthorized/i.test(stderr))
    return { kind: 'auth', message: `${firstLine(stderr) || 'gh is not authenticated'}; run \`gh auth login\`` };
  if (/rate limit exceeded|secondary rate limit|HTTP 429|\b429 Too Many Requests/i.test(stderr))
    return { kind: 'rate-limited', message: `GitHub rate limit: ${firstLine(stderr)}; nothing was changed, the next beat retries` };
  if (/\(HTTP 404\)|Could not resolve to an? /i.test(stderr)) return { kind: 'not-found', message: firstLine(stderr) };
  return { kind: 'failed', message: firstLine(stderr) || `gh exited ${output.exitCode}` };
}

/** The oldest gh this adapter is tested against (Debian bookworm's 2.23.0, in CI). */
export const MIN_GH_VERSION = '2.23.0';

/** Parses `gh --version` (`gh version 2.23.0 (2023-02-27 …)`) into `[major, minor, patch]`. */
export function parseGhVersion(text: string): readonly [number, number, number] | undefined {
  const m = /^gh version (\d+)\.(\d+)\.(\d+)\b/m.exec(text);
  return m === null ? undefined : [Number(m[1]), Number(m[2]), Number(m[3])];
}

/** Why `gh --version` output is not usable: too old (naming both versions and the fix), or unreadable. */
export function checkGhVersion(text: string, minimum: string = MIN_GH_VERSION): TrackerError | undefined {
  const found = parseGhVersion(text);
  if (found === undefined)
    return { kind: 'bad-output', message: `gh --version printed no "gh version X.Y.Z" line: ${firstLine(text) || '(nothing)'}` };
  const min = parseGhVersion(`gh version ${minimum}`) ?? [0, 0, 0];
  const older = found[0] !== min[0] ? found[0] < min[0] : found[1] !== min[1] ? found[1] < min[1] : found[2] < min[2];
  return older
    ? {
        kind: 'unavailable',
        message: `gh ${found.join('.')} is older than ${minimum}, the oldest gh heartbeat-kit supports; upgrade the GitHub CLI (https://github.com/cli/cli#installation) and run the beat again`,
      }
    : undefined;
}

/** gh auth status's failure, from the lines that say what is wrong (gh puts the host alone on the first). */
export function authFailure(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((l) => l.trim().replace(/^[X✓-]\s+/, ''))
    .filter((l) => l !== '' && !/^\S+$/.test(l) && !/^To (re-authenticate|forget)/.test(l));
  const text = sanitizeForMessage(lines.slice(0, 2).join('; '), { maxLength: 240 });
  return `gh auth status failed: ${text || 'not authenticated'}; run \`gh auth login\``;
}

/** A gh that did not run to an exit: not installed is `unavailable` (with the fix), anything else `failed`. */
export function fromCommandError(error: CommandError): TrackerError {
  if (error.kind === 'not-found')
    return { kind: 'unavailable', message: 'gh is not installed or not on PATH; install the GitHub CLI and run `gh auth login`' };
  return { kind: 'failed', message: `gh ${error.kind}` };
}
