import { parseHeartbeatConfig } from '@heartbeat-kit/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseEnvAllowFlag } from './cli-runner.js';

const name = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,8}\*?$/);
const separator = fc.constantFrom(',', ', ', ' ', '  ', ' , ', ',,');

describe('parseEnvAllowFlag', () => {
  it('reads names separated by commas and/or spaces; absent is undefined; a bad name is a one-line error', () => {
    expect(parseEnvAllowFlag(undefined)._unsafeUnwrap()).toBeUndefined();
    expect(parseEnvAllowFlag('BEADS_DIR,HTTPS_PROXY, XDG_*')._unsafeUnwrap()).toEqual(['BEADS_DIR', 'HTTPS_PROXY', 'XDG_*']);
    expect(parseEnvAllowFlag('BEADS_DIR HTTPS_PROXY')._unsafeUnwrap()).toEqual(['BEADS_DIR', 'HTTPS_PROXY']);
    expect(parseEnvAllowFlag('BEADS_DIR,1X')._unsafeUnwrapErr()).toMatch(/^--env-allow: "1X" is not a variable name\. Fix: /);
  });

  it('property: the flag and the config line `Allow:` of `## Environment` give the same names for the same list', () => {
    fc.assert(
      fc.property(fc.array(name, { minLength: 1, maxLength: 6 }), fc.array(separator, { minLength: 1, maxLength: 3 }), (names, seps) => {
        const list = names.map((n, i) => (i === 0 ? n : `${seps[i % seps.length] ?? ','}${n}`)).join('');
        const flag = parseEnvAllowFlag(list);
        const config = parseHeartbeatConfig(`## Environment\n- Allow: ${list}\n`)._unsafeUnwrap().config.envAllow;
        expect(flag._unsafeUnwrap()).toEqual(config);
      }),
    );
  });
});
