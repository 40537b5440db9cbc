/**
 * Whether the value after a secret's name (`token: …`, `X-Api-Key: …`, `password …`) is a secret or
 * an ordinary word. A name alone says little: `orch-auth`, `api-key-rotation` and `token-service`
 * are session, bead and worktree names, and our own sentences put words after them (`Check
 * orch-auth: it may be waiting for input`). Secrets are generated, so they look random; words and
 * identifiers do not.
 */

/** Shortest value taken for a secret: shorter ones are words, numbers and flags. */
const MIN_SECRET_LENGTH = 8;
/** Longest run of one case a word has (`internationalization` has 20 letters); longer is random. */
const MAX_WORD_HUMP = 20;
/** Digits an identifier ends in (`worker2`, `node42`, `release2024`); more, or digits inside, look random. */
const MAX_TRAILING_DIGITS = 4;
/** A number this long is a card or an account number, not a count, an id or a time (`1771509600000`). */
const MIN_SECRET_NUMBER = 16;

/**
 * True when `run` (letters and digits only) reads as a word or an identifier made of words: humps
 * of one case as in camelCase or an acronym (`waitingForInput`, `HTTPServer`, `iPhone`), ending in
 * at most {@link MAX_TRAILING_DIGITS} digits; or a number shorter than {@link MIN_SECRET_NUMBER} digits.
 */
function isWordLike(run: string): boolean {
  if (/^[0-9]+$/.test(run)) return run.length < MIN_SECRET_NUMBER;
  const segments = run.match(/[a-z]+|[A-Z]+|[0-9]+/g) ?? [];
  return segments.every((segment, i) => {
    const last = i === segments.length - 1;
    if (/^[0-9]/.test(segment)) return last && segment.length <= MAX_TRAILING_DIGITS;
    if (segment.length > MAX_WORD_HUMP) return false;
    // A lone lower-case letter is a word's start (`iPhone`) or the tail of an acronym's hump
    // (`HTTPs`); elsewhere (`aB3x`, `xYz`) the case changes too often for a word.
    if (/^[a-z]$/.test(segment)) return i === 0 || (last && segments[i - 1]!.length > 1);
    return true;
  });
}

/**
 * True when `value` looks like a secret rather than a word: at least {@link MIN_SECRET_LENGTH}
 * characters, with a run of 8+ letters and digits that is not word-like ({@link isWordLike}):
 * digits inside it (`hunter2XY99`, a UUID), case that changes like random text (`k3yV4lu3`,
 * `dXNlcjpwYXNz`), more than 20 letters of one case, or a number of 16 digits or more.
 */
export function looksLikeSecret(value: string): boolean {
  if (value.length < MIN_SECRET_LENGTH) return false;
  return value.split(/[^A-Za-z0-9]+/).some((run) => run.length >= MIN_SECRET_LENGTH && !isWordLike(run));
}
