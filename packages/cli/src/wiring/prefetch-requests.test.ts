import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CommandRequest, DEFAULT_HEARTBEAT_CONFIG } from '@heartbeat-kit/core';
import { DEFAULT_HEARTBEAT_FILE } from '@heartbeat-kit/core/host';
import { createFakeCommandRunner, type FakeCommandResponse } from '@heartbeat-kit/core/testing';
import { createDefaultScanners } from '@heartbeat-kit/scanners';
import { PROJECT_CONFIG_FILE } from './project-root.js';
import { PREFETCH_IDS, isPrefetchId, prefetchIdOf, prefetchRequest, sameRequest, type PrefetchId } from './prefetch-requests.js';

const PROJECT = '/work/project';

/** Every request the built-in scanners make in one cycle, answered by `answer`. */
async function scannerRequests(
  answer: (request: CommandRequest) => FakeCommandResponse,
  tmuxSocket?: string,
): Promise<readonly CommandRequest[]> {
  const runner = createFakeCommandRunner(answer);
  const scanners = createDefaultScanners({
    runner,
    cwd: PROJECT,
    fileExists: () => Promise.resolve(false),
    ...(tmuxSocket === undefined ? {} : { tmuxArgs: ['-L', tmuxSocket] }),
  });
  const now = new Date('2026-02-19T14:50:00Z');
  await Promise.all(
    scanners.map((scanner) =>
      scanner.scan({
        now,
        config: DEFAULT_HEARTBEAT_CONFIG,
        insideActiveHours: true,
        signal: new AbortController().signal,
        ...(scanner.slice === undefined ? {} : { slice: scanner.slice.initial() }),
      }),
    ),
  );
  return runner.calls;
}

const bdWithJson = (): FakeCommandResponse => ({ stdout: '[]\n' });
/** A bd build that knows none of the flags the scanners try first: they fall back one by one. */
const bdWithoutFlags = (request: CommandRequest): FakeCommandResponse =>
  request.file === 'bd' && request.args.some((a) => a.startsWith('--'))
    ? { exitCode: 1, stderr: `Error: unknown flag: ${request.args.find((a) => a.startsWith('--')) ?? ''}\n` }
    : { stdout: '' };

describe('the listings a cycle may start early', () => {
  it('are exactly the requests the scanners mark speculative, field for field, and nothing else is', async () => {
    const seen = new Set<PrefetchId>();
    for (const tmuxSocket of [undefined, 'work']) {
      for (const answer of [bdWithJson, bdWithoutFlags]) {
        for (const request of await scannerRequests(answer, tmuxSocket)) {
          const id = prefetchIdOf(request, { project: PROJECT, tmuxSocket });
          if (request.speculative === true) {
            expect(id, JSON.stringify(request)).toBeDefined();
            if (id !== undefined) seen.add(id);
          } else {
            // The GChat poll, git status, capture-pane …: never started early.
            expect(id, JSON.stringify(request)).toBeUndefined();
          }
        }
      }
    }
    // No entry the scanners never ask for.
    expect([...seen].sort()).toEqual([...PREFETCH_IDS].sort());
  });

  it('are built from the project and the socket only, and a request is taken only when every field is equal', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...PREFETCH_IDS),
        fc.string({ minLength: 1, maxLength: 30 }).map((s) => `/${s}`),
        fc.option(fc.stringMatching(/^[A-Za-z0-9._-]{1,12}$/), { nil: undefined }),
        (id, project, tmuxSocket) => {
          const request = prefetchRequest(id, { project, tmuxSocket });
          expect(request).toBeDefined();
          if (request === undefined) return;
          expect(['bd', 'tmux', 'git']).toContain(request.file);
          expect(prefetchIdOf(request, { project, tmuxSocket })).toBe(id);
          expect(sameRequest(request, { ...request, speculative: true })).toBe(true);
          expect(sameRequest(request, { ...request, args: [...request.args, 'x'] })).toBe(false);
          expect(sameRequest(request, { ...request, cwd: `${request.cwd ?? ''}/x` })).toBe(false);
          expect(sameRequest(request, { ...request, env: { ...request.env, GIT_SSH_COMMAND: 'x' } })).toBe(false);
          expect(sameRequest(request, { ...request, timeoutMs: 1 })).toBe(false);
          expect(sameRequest(request, { ...request, maxOutputBytes: 1 })).toBe(false);
          expect(sameRequest(request, { ...request, input: '' })).toBe(false);
          expect(sameRequest(request, { ...request, profile: 'command' })).toBe(false);
        },
      ),
    );
  });

  it('builds no tmux listing for a socket name the command refuses', () => {
    expect(prefetchRequest('tmux-list-sessions', { project: PROJECT, tmuxSocket: 'a b' })).toBeUndefined();
    expect(prefetchRequest('bd-ready-json', { project: PROJECT, tmuxSocket: '-x' })).toBeDefined();
    expect(isPrefetchId('bd-ready-json')).toBe(true);
    expect(isPrefetchId('sh')).toBe(false);
    expect(isPrefetchId(['bd-ready-json'])).toBe(false);
  });

  it('looks for the config where core does', () => {
    expect(PROJECT_CONFIG_FILE).toBe(DEFAULT_HEARTBEAT_FILE);
  });
});
