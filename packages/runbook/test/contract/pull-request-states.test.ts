import { join } from 'node:path';
import type { CommandRunner } from '@heartbeat-kit/core';
import { execa } from 'execa';
import { ResultAsync } from 'neverthrow';
import { createGhPullRequestStates } from '../../src/github/index.js';
import { createFakePullRequestStates } from '../../src/testing/index.js';
import { CONTRACT_WORLD, pullRequestStatesContract } from './pull-request-states-contract.js';

const FAKE_GH_DIR = join(import.meta.dirname, '..', 'fixtures', 'fake-gh');
const world = JSON.stringify(Object.fromEntries(Object.entries(CONTRACT_WORLD).map(([k, v]) => [k.slice(1), v])));

// A minimal real runner: runbook does not depend on the scanners' execa adapter.
const runner: CommandRunner = {
  run: (request) =>
    ResultAsync.fromSafePromise(
      execa(request.file, [...request.args], { reject: false, env: { PATH: `${FAKE_GH_DIR}:${process.env.PATH ?? ''}`, FAKE_GH_WORLD: world }, extendEnv: false, stdin: 'ignore' }),
    ).map((r) => ({ exitCode: r.exitCode ?? -1, stdout: r.stdout, stderr: r.stderr, durationMs: r.durationMs })),
};

pullRequestStatesContract('fake', () => createFakePullRequestStates(CONTRACT_WORLD));
pullRequestStatesContract('gh adapter over a fake gh executable', () => createGhPullRequestStates(runner));
