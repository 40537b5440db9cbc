import { err, ok, type Result } from 'neverthrow';
import { splitCommand } from './split-command.js';

// Query parameters that carry a credential by name.
const CREDENTIAL_PARAM = /token|secret|passw(or)?d|api[-_]?key|access[-_]?key|auth|signature|^sig$|^key$/i;

/** Where `--sink` sends messages. */
export type SinkSpec =
  | { readonly kind: 'stdout' }
  | { readonly kind: 'file'; readonly path: string }
  | { readonly kind: 'webhook'; readonly url: string }
  | { readonly kind: 'command'; readonly argv: readonly string[] }
  | { readonly kind: 'inbox'; readonly directory: string }
  | { readonly kind: 'tmux'; readonly session: string; readonly window?: number; readonly pane?: number };

/** Why a `--sink` value was refused: its kind, and one line naming the fix. */
export interface SinkSpecError {
  readonly kind: 'invalid-sink';
  readonly message: string;
}

const refuse = (message: string): Result<SinkSpec, SinkSpecError> => err({ kind: 'invalid-sink', message });

// tmux turns '.' and ':' in session names into '_', so a real name never holds them; a leading '-'
// or anything outside this set is refused rather than passed to tmux as a target.
const TMUX_SESSION = /^[A-Za-z0-9_][A-Za-z0-9_-]{0,99}$/;
const TMUX_WINDOW_PANE = /^(\d{1,5})\.(\d{1,5})$/;

/** `SESSION` or `SESSION:WINDOW.PANE` of `--sink tmux:…` (the session name is untrusted: checked, never a pattern). */
function parseTmuxTarget(value: string): Result<SinkSpec, SinkSpecError> {
  const colon = value.indexOf(':');
  const session = colon === -1 ? value : value.slice(0, colon);
  const fix = 'Fix: --sink tmux:SESSION or --sink tmux:SESSION:WINDOW.PANE, e.g. --sink tmux:agent:0.1';
  if (!TMUX_SESSION.test(session))
    return refuse(
      `--sink tmux: ${JSON.stringify(session.slice(0, 100))} is not a tmux session name (letters, digits, '_' or '-', not starting with '-'). ${fix}`,
    );
  if (colon === -1) return ok({ kind: 'tmux', session });
  const where = TMUX_WINDOW_PANE.exec(value.slice(colon + 1));
  if (where === null)
    return refuse(`--sink tmux: ${JSON.stringify(value.slice(colon + 1, colon + 101))} is not WINDOW.PANE (two numbers). ${fix}`);
  return ok({ kind: 'tmux', session, window: Number(where[1]), pane: Number(where[2]) });
}

/** Parses `stdout`, `file:PATH`, `webhook:URL`, `command:CMD`, `inbox:DIR` or `tmux:SESSION[:WINDOW.PANE]`; the error names the fix. */
export function parseSinkSpec(spec: string): Result<SinkSpec, SinkSpecError> {
  if (spec === 'stdout') return ok({ kind: 'stdout' });
  const colon = spec.indexOf(':');
  const kind = colon === -1 ? spec : spec.slice(0, colon);
  const value = colon === -1 ? '' : spec.slice(colon + 1);
  switch (kind) {
    case 'file':
      return value ? ok({ kind: 'file', path: value }) : refuse('--sink file: needs a path. Fix: --sink file:/var/log/heartbeat.jsonl');
    case 'webhook': {
      let url: URL;
      try {
        url = new URL(value);
      } catch {
        return refuse(`--sink webhook: "${value}" is not a URL. Fix: --sink webhook:https://host/path`);
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:')
        return refuse('--sink webhook: only http(s) URLs. Fix: --sink webhook:https://host/path');
      // fetch refuses credentials in URLs, and a URL is echoed in errors: credentials go in a header.
      const secretParams = [...url.searchParams.keys()].filter((k) => CREDENTIAL_PARAM.test(k));
      if (url.username !== '' || url.password !== '' || secretParams.length > 0) {
        const what = url.username !== '' || url.password !== '' ? 'user:password@' : `?${secretParams.join('&')}=`;
        return refuse(
          `--sink webhook: the URL carries credentials (${what}). Fix: remove them from the URL, put the header value in an environment variable and pass --sink-auth-env NAME (sent as the Authorization header), e.g. HOOK_AUTH='Bearer …' --sink-auth-env HOOK_AUTH`,
        );
      }
      return ok({ kind: 'webhook', url: url.toString() });
    }
    case 'command': {
      const split = splitCommand(value);
      return split.isOk()
        ? ok({ kind: 'command', argv: split.value })
        : refuse(`--sink command: ${split.error}. Fix: --sink 'command:notify-send Heartbeat'`);
    }
    case 'inbox':
      return value
        ? ok({ kind: 'inbox', directory: value })
        : refuse(
            '--sink inbox: needs a directory. Fix: --sink inbox:.git/heartbeat-kit/inbox (drain it with heartbeat-kit inbox drain DIR)',
          );
    case 'tmux':
      return parseTmuxTarget(value);
    default:
      return refuse(
        `unknown --sink "${spec}". Fix: use stdout, file:PATH, webhook:URL, command:CMD, inbox:DIR or tmux:SESSION[:WINDOW.PANE]`,
      );
  }
}
