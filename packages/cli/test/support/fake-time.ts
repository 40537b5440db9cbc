import { existsSync } from 'node:fs';

/** Where Debian's libfaketime puts its preload library (package `faketime`). */
const LIBFAKETIME = [
  '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1',
  '/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1',
  '/usr/lib/faketime/libfaketime.so.1',
];

/**
 * The environment that runs a real process (the built bin) with its wall clock stopped at `iso`:
 * libfaketime changes what the OS clock says, so the bin runs as it would at that instant and
 * writes as a real run does (`--now` is a rehearsal that writes nothing). The monotonic clock is
 * left alone, so timers and deadlines run at real speed.
 */
export function frozenClockEnv(iso: string): Record<string, string> {
  return fakeClockEnv(iso, '');
}

/** Like {@link frozenClockEnv}, but the clock starts at `iso` and then runs: for a `loop` that must reach its next slots. */
export function runningClockEnv(iso: string): Record<string, string> {
  return fakeClockEnv(iso, '@');
}

function fakeClockEnv(iso: string, mode: '' | '@'): Record<string, string> {
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms) || ms % 1000 !== 0) throw new Error(`frozenClockEnv: ${iso} is not an instant in whole seconds`);
  const library = LIBFAKETIME.find((path) => existsSync(path));
  if (library === undefined) throw new Error('libfaketime is not installed. Fix: apt-get install faketime (.ci/run installs it).');
  return { LD_PRELOAD: library, FAKETIME_FMT: '%s', FAKETIME: `${mode}${ms / 1000}`, FAKETIME_DONT_FAKE_MONOTONIC: '1' };
}
