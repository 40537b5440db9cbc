import { err, ok } from 'neverthrow';
import type { ResolveHeartbeat } from '@heartbeat-kit/bullmq/node';
import { DEFAULT_CATEGORIES } from '@heartbeat-kit/scanners';
import { createFakeResolver } from '@heartbeat-kit/bullmq/testing';
import type { CliIo } from '../../io.js';
import { createCycleDeps } from '../../wiring/cycle-deps.js';
import { loadHeartbeatSettings } from '../../wiring/heartbeat-settings.js';

/**
 * Resolves a registration to scanners: a project directory gets the real scanners and its
 * HEARTBEAT.md (as `heartbeat-kit cycle --cwd DIR`); the `fake` set gets in-memory scanners.
 * With `forceFake` every heartbeat uses fake scanners (tests, benchmarks, dry runs). Every cycle
 * judges with the CoBuilder categories, as `heartbeat-kit cycle` does.
 */
export function createProjectResolver(io: CliIo, forceFake: boolean): ResolveHeartbeat {
  const fakeResolver = createFakeResolver();
  const fake: ResolveHeartbeat = async (heartbeat, slot) =>
    (await fakeResolver(heartbeat, slot)).map((setup) => ({ ...setup, categories: DEFAULT_CATEGORIES }));
  return async (heartbeat, slot) => {
    const { source } = heartbeat;
    if (forceFake && source.kind === 'project') {
      return fake({ ...heartbeat, source: { kind: 'scanners', set: 'fake', scanMs: 0, reportEvery: 5 } }, slot);
    }
    if (source.kind === 'scanners') return fake(heartbeat, slot);
    const settings = await loadHeartbeatSettings(source.cwd, undefined, io.env);
    if (settings.isErr()) return err(settings.error);
    // The project's checks run where the project is, as they do for `heartbeat-kit cycle --cwd DIR`.
    const deps = createCycleDeps({
      cwd: source.cwd,
      statePath: source.cwd,
      sink: { kind: 'stdout' },
      io,
      checks: settings.value.config.checks,
    });
    return ok({
      scanners: deps.scanners,
      config: settings.value.config,
      timeZone: settings.value.timeZone,
      categories: DEFAULT_CATEGORIES,
    });
  };
}
