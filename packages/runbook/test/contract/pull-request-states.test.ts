import { join } from 'node:path';
import { createProcessRunner } from '@heartbeat-kit/core/node';
import { createGhPullRequestStates } from '../../src/github/index.js';
import { createFakePullRequestStates } from '../../src/testing/index.js';
import { CONTRACT_WORLD, pullRequestStatesContract } from './pull-request-states-contract.js';

const FAKE_GH_DIR = join(import.meta.dirname, '..', 'fixtures', 'fake-gh');
const world = JSON.stringify(Object.fromEntries(Object.entries(CONTRACT_WORLD).map(([k, v]) => [k.slice(1), v])));

// The one real runner, with the fake gh first on PATH.
const runner = createProcessRunner({ baseEnv: { ...process.env, PATH: `${FAKE_GH_DIR}:${process.env.PATH ?? ''}`, FAKE_GH_WORLD: world } });

pullRequestStatesContract('fake', () => createFakePullRequestStates(CONTRACT_WORLD));
pullRequestStatesContract('gh adapter over a fake gh executable', () => createGhPullRequestStates(runner));
