import { DEFAULT_HEARTBEAT_CONFIG, type HeartbeatConfig, type ScanContext } from '@heartbeat-kit/core';
import { createFakeCommandRunner, type FakeCommandResponse, type FakeCommandRunner } from '@heartbeat-kit/core/testing';

/** A scan context for tests: default config, inside active hours, a fresh signal. */
export function makeContext(
  overrides: {
    now?: Date;
    insideActiveHours?: boolean;
    // A scanner's own section keys (gitStaleMs) are not HeartbeatConfig's: it reads them with readConfigSection.
    config?: Partial<HeartbeatConfig> & Readonly<Record<string, unknown>>;
    signal?: AbortSignal;
  } = {},
): ScanContext {
  return {
    now: overrides.now ?? new Date('2026-11-29T12:00:00Z'),
    config: { ...DEFAULT_HEARTBEAT_CONFIG, ...overrides.config },
    insideActiveHours: overrides.insideActiveHours ?? true,
    signal: overrides.signal ?? new AbortController().signal,
  };
}

/** One route of a scripted fake: the first whose pattern matches `file arg arg…` answers. */
export type Route = readonly [RegExp, FakeCommandResponse | ((argv: readonly string[]) => FakeCommandResponse)];

/** A fake runner that answers by matching `file args…` against routes; an unmatched command fails the test loudly. */
export function scriptedRunner(routes: readonly Route[]): FakeCommandRunner {
  return createFakeCommandRunner((request) => {
    const line = [request.file, ...request.args].join(' ');
    for (const [pattern, response] of routes) {
      if (pattern.test(line)) return typeof response === 'function' ? response(request.args) : response;
    }
    throw new Error(`unexpected command: ${line}`);
  });
}

/** The response of a missing executable. */
export const notFound = (file: string): FakeCommandResponse => ({ error: { kind: 'not-found', file, message: `spawn ${file} ENOENT` } });
