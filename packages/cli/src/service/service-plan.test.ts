import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { livenessArgs, serviceName, STOP_TIMEOUT_SEC, type ServicePlan } from './service-plan.js';

const plan = (loopArgs: readonly string[], maxAge?: string): ServicePlan => ({
  kind: 'systemd-user',
  name: 'n',
  node: '/usr/bin/node',
  bin: '/b.js',
  project: '/p',
  envFile: '/e',
  pathEnv: undefined,
  loopArgs,
  maxAge,
  user: undefined,
  logDir: '/l',
});

describe('service names and the liveness arguments', () => {
  it('a name is a valid unit name and launchd label for any path, the same for the same path (property)', () => {
    fc.assert(
      fc.property(fc.string(), (tail) => {
        const name = serviceName(`/${tail}`);
        expect(name).toMatch(/^heartbeat-kit-[a-z0-9]+(-[a-z0-9]+)*-[0-9a-f]{8}$/);
        expect(name.length).toBeLessThan(80);
        expect(serviceName(`/${tail}`)).toBe(name);
      }),
    );
  });

  it('two checkouts with the same directory name get two names', () => {
    expect(serviceName('/home/a/My Project!')).toMatch(/^heartbeat-kit-my-project-[0-9a-f]{8}$/);
    expect(serviceName('/home/a/app')).not.toBe(serviceName('/home/b/app'));
    expect(serviceName('/')).toMatch(/^heartbeat-kit-project-/);
  });

  it("the liveness check judges the loop's state file and config", () => {
    expect(livenessArgs(plan(['--sink', 'file:x', '--state', 's.json', '--config=c.md'], '30m'))).toEqual([
      'check-liveness',
      '--cwd',
      '/p',
      '--state',
      's.json',
      '--config=c.md',
      '--max-age',
      '30m',
    ]);
  });

  it('the stop timeout covers the scan deadline and a command sink delivery', () => {
    expect(STOP_TIMEOUT_SEC).toBe(120);
  });
});
