import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  buildChildEnv,
  ENV_DENY_LIST,
  envPatternMatches,
  ESSENTIAL_ENV_KEYS,
  TOOL_ENV_DEFAULTS,
  TOOL_PROFILES,
} from '../command/child-environment.js';
import type { ToolProfile } from '../ports/command-runner.js';
import { eventually, groupMembers, isAlive } from '../../test/support/processes.js';
import { createProcessRunner } from './process-runner.js';

const dir = mkdtempSync(join(tmpdir(), 'hk-runner-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const printEnv = (profile?: ToolProfile) => ({
  file: process.execPath,
  args: ['-e', 'process.stdout.write(JSON.stringify(process.env))'],
  ...(profile === undefined ? {} : { profile }),
});

const USER_ENV = {
  PATH: process.env.PATH,
  HOME: '/home/x',
  LANG: 'C.UTF-8',
  BEADS_DIR: '/srv/beads/.beads',
  BEADS_DB: '/srv/beads/.beads/beads.db',
  HTTPS_PROXY: 'http://proxy:3128',
  NO_PROXY: 'localhost',
  SSH_AUTH_SOCK: '/tmp/ssh-agent.sock',
  GOOGLE_APPLICATION_CREDENTIALS: '/home/x/gcp.json',
  XDG_CONFIG_HOME: '/home/x/.config',
  TZ: 'Europe/Berlin',
  GH_TOKEN: 'ghp_secret',
  BD_AGENT_MODE: '1',
  CLAUDE_CODE_ENTRYPOINT: 'cli',
  FORCE_COLOR: '3',
  GIT_DIR: '/elsewhere/.git',
  GIT_INDEX_FILE: '/elsewhere/.git/index',
};

async function envOf(
  runner: ReturnType<typeof createProcessRunner>,
  profile?: ToolProfile,
  requestEnv?: Record<string, string>,
): Promise<Record<string, string>> {
  const out = await runner.run({ ...printEnv(profile), ...(requestEnv === undefined ? {} : { env: requestEnv }) });
  return JSON.parse(out._unsafeUnwrap().stdout) as Record<string, string>;
}

describe('createProcessRunner environment policy', () => {
  it('passes the user environment (BEADS_DIR, proxies, SSH agent, credentials, XDG, TZ) to every tool', async () => {
    const runner = createProcessRunner({ baseEnv: USER_ENV });
    for (const profile of TOOL_PROFILES) {
      const env = await envOf(runner, profile);
      for (const key of [
        'BEADS_DIR',
        'BEADS_DB',
        'HTTPS_PROXY',
        'NO_PROXY',
        'SSH_AUTH_SOCK',
        'GOOGLE_APPLICATION_CREDENTIALS',
        'XDG_CONFIG_HOME',
        'TZ',
        'HOME',
        'LANG',
      ]) {
        expect(env[key], `${profile} ${key}`).toBe(USER_ENV[key as keyof typeof USER_ENV]);
      }
    }
  });

  it('removes bd’s agent-mode switches for bd only, and the hook and colour-forcing variables for everyone', async () => {
    const runner = createProcessRunner({ baseEnv: USER_ENV });
    const bd = await envOf(runner, 'bd');
    expect(bd).not.toHaveProperty('BD_AGENT_MODE');
    expect(bd).not.toHaveProperty('CLAUDE_CODE_ENTRYPOINT');
    const agent = await envOf(runner, 'agent');
    expect(agent.BD_AGENT_MODE).toBe('1');
    expect(agent.CLAUDE_CODE_ENTRYPOINT).toBe('cli');
    for (const env of [bd, agent]) for (const key of ['FORCE_COLOR', 'GIT_DIR', 'GIT_INDEX_FILE']) expect(env).not.toHaveProperty(key);
  });

  it('guesses the profile from the executable name when the request names none', async () => {
    const bin = mkdtempSync(join(dir, 'bin-'));
    const fakeBd = join(bin, 'bd');
    writeFileSync(fakeBd, `#!${process.execPath}\nprocess.stdout.write(JSON.stringify(process.env));\n`);
    chmodSync(fakeBd, 0o755);
    const runner = createProcessRunner({ baseEnv: USER_ENV });
    const env = JSON.parse((await runner.run({ file: fakeBd, args: [] }))._unsafeUnwrap().stdout) as Record<string, string>;
    expect(env).not.toHaveProperty('BD_AGENT_MODE');
    expect(env.BEADS_DIR).toBe(USER_ENV.BEADS_DIR);
  });

  it('applies per-tool quiet defaults to their tool only: LC_ALL=C for git, never for tmux, agents or gates', async () => {
    const runner = createProcessRunner({ baseEnv: { ...USER_ENV, LC_ALL: 'de_DE.UTF-8', GIT_OPTIONAL_LOCKS: '1' } });
    const git = await envOf(runner, 'git');
    expect(git).toMatchObject({ LC_ALL: 'C', GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0' });
    const gh = await envOf(runner, 'gh');
    expect(gh).toMatchObject({ GH_PROMPT_DISABLED: '1', GH_PAGER: 'cat', NO_COLOR: '1', GH_TOKEN: 'ghp_secret' });
    for (const profile of ['tmux', 'agent', 'gate', 'bd', 'gchat'] as const) {
      const env = await envOf(runner, profile);
      expect(env.LC_ALL, profile).toBe('de_DE.UTF-8');
      expect(env.GIT_OPTIONAL_LOCKS, profile).toBe('1');
      expect(env, profile).not.toHaveProperty('GH_PROMPT_DISABLED');
    }
    expect(await envOf(runner, 'agent')).not.toHaveProperty('NO_COLOR');
  });

  it('allow-list mode passes only the essentials and the listed names (a trailing * is a prefix)', async () => {
    const runner = createProcessRunner({ baseEnv: USER_ENV, envAllow: ['BEADS_DIR', 'XDG_*'] });
    const env = await envOf(runner, 'command');
    expect(Object.keys(env).sort()).toEqual(['BEADS_DIR', 'HOME', 'LANG', 'PATH', 'XDG_CONFIG_HOME']);
    const bd = await envOf(runner, 'bd');
    expect(Object.keys(bd).sort()).toEqual(['BEADS_DIR', 'HOME', 'LANG', 'NO_COLOR', 'PATH', 'XDG_CONFIG_HOME']);
  });

  it('the request’s own variables win over the policy', async () => {
    const runner = createProcessRunner({ baseEnv: USER_ENV, envAllow: [] });
    const env = await envOf(runner, 'git', { LC_ALL: 'en_US.UTF-8', HK_EXTRA: 'x' });
    expect(env).toMatchObject({ LC_ALL: 'en_US.UTF-8', HK_EXTRA: 'x' });
  });

  it('buildChildEnv: allow-list mode never passes an unlisted name; a denied name never reaches its tool', () => {
    const name = fc.stringMatching(/^[A-Z_][A-Z0-9_]{0,10}$/);
    fc.assert(
      fc.property(
        fc.dictionary(fc.oneof(name, fc.constantFrom('BD_AGENT_MODE', 'CLAUDE_CODE_X', 'GIT_DIR', 'PATH', 'XDG_DATA_HOME')), fc.string()),
        fc.array(
          fc.oneof(
            name,
            name.map((n) => `${n}*`),
          ),
        ),
        fc.constantFrom(...TOOL_PROFILES),
        (base, allow, profile) => {
          const env = buildChildEnv(base, { profile, allow });
          const defaults = TOOL_ENV_DEFAULTS[profile];
          for (const key of Object.keys(env)) {
            if (key in defaults) continue;
            expect(ESSENTIAL_ENV_KEYS.includes(key) || allow.some((p) => envPatternMatches(p, key))).toBe(true);
            expect(
              ENV_DENY_LIST.some(
                (rule) => (rule.profiles === 'all' || rule.profiles.includes(profile)) && envPatternMatches(rule.pattern, key),
              ),
            ).toBe(false);
          }
        },
      ),
    );
  });
});

describe('createProcessRunner failures (one closed classification)', () => {
  it('reports a cwd that is a file (a synchronous ENOTDIR) as bad-cwd', async () => {
    const file = join(dir, 'a-file-not-a-dir');
    writeFileSync(file, 'x');
    const result = await createProcessRunner().run({ file: process.execPath, args: ['-e', '1'], cwd: file });
    expect(result.isErr() && result.error).toMatchObject({ kind: 'bad-cwd', cwd: file });
  });

  it('reports a directory given as the executable as not-executable', async () => {
    const result = await createProcessRunner().run({ file: dir, args: [] });
    expect(result.isErr() && result.error.kind).toBe('not-executable');
  });

  it('reports output beyond maxOutputBytes as output-limit', async () => {
    const runner = createProcessRunner({ maxOutputBytes: 1000 });
    const result = await runner.run({ file: process.execPath, args: ['-e', 'process.stdout.write("x".repeat(50000))'] });
    expect(result.isErr() && result.error).toMatchObject({ kind: 'output-limit', maxOutputBytes: 1000 });
  });

  it('reports a child killed by a signal as killed', async () => {
    const result = await createProcessRunner().run({ file: process.execPath, args: ['-e', 'process.kill(process.pid, "SIGKILL")'] });
    expect(result.isErr() && result.error).toMatchObject({ kind: 'killed', signal: 'SIGKILL' });
  });

  it('reports a cwd that does not exist as bad-cwd, not as a missing tool', async () => {
    const result = await createProcessRunner().run({ file: process.execPath, args: ['-e', '1'], cwd: '/nonexistent/hk-dir' });
    expect(result.isErr() && result.error).toMatchObject({ kind: 'bad-cwd', cwd: '/nonexistent/hk-dir' });
  });

  it('tells a missing executable from one that may not be executed', async () => {
    const runner = createProcessRunner();
    expect((await runner.run({ file: '/nonexistent/hk-tool', args: [] }))._unsafeUnwrapErr().kind).toBe('not-found');
    const plain = join(dir, 'not-executable');
    writeFileSync(plain, '#!/bin/sh\necho hi\n');
    expect((await runner.run({ file: plain, args: [] }))._unsafeUnwrapErr().kind).toBe('not-executable');
  });

  it('never echoes the environment or the arguments in an error', async () => {
    const runner = createProcessRunner({ baseEnv: { ...USER_ENV, HK_SECRET: 'xoxb-very-secret' } });
    const result = await runner.run({
      file: '/nonexistent/hk-tool',
      args: ['--token', 'ghp_argsecret'],
      env: { HK_TOKEN: 'sk-request-secret' },
    });
    const text = JSON.stringify(result._unsafeUnwrapErr());
    for (const secret of ['xoxb-very-secret', 'ghp_argsecret', 'sk-request-secret', 'ghp_secret']) expect(text).not.toContain(secret);
  });

  it('never runs a shell: metacharacters in argv reach the child verbatim', async () => {
    const hostile = '$(touch /tmp/hk-pwned) ; rm -rf / `id` | cat';
    const result = await createProcessRunner().run({
      file: process.execPath,
      args: ['-e', 'process.stdout.write(process.argv[1])', hostile],
    });
    expect(result._unsafeUnwrap().stdout).toBe(hostile);
  });

  it('counts output bytes, not characters', async () => {
    const runner = createProcessRunner({ maxOutputBytes: 1500 });
    const result = await runner.run({ file: process.execPath, args: ['-e', 'process.stdout.write("\u00e9".repeat(1000))'] });
    expect(result.isErr() && result.error.kind).toBe('output-limit');
    const fits = await runner.run({ file: process.execPath, args: ['-e', 'process.stdout.write("\u00e9".repeat(700))'] });
    expect(fits._unsafeUnwrap().stdout).toBe('\u00e9'.repeat(700));
  });
});

/** A `bd` wrapper whose child hangs holding stdout (issue 12): records both pids, then waits. */
function hungWrapper(
  name: string,
  grandchild = 'sleep 100000',
): { file: string; pids: () => { wrapper: number; child: number } | undefined; forget: () => void } {
  const base = mkdtempSync(join(dir, `${name}-`));
  const file = join(base, 'bd');
  writeFileSync(file, `#!/bin/sh\necho $$ > "${base}/wrapper.pid"\n${grandchild} &\necho $! > "${base}/child.pid"\nwait\n`);
  chmodSync(file, 0o755);
  return {
    file,
    pids: () => {
      if (!existsSync(join(base, 'child.pid'))) return undefined;
      const read = (f: string) => Number(readFileSync(join(base, f), 'utf8').trim());
      return { wrapper: read('wrapper.pid'), child: read('child.pid') };
    },
    forget: () => {
      rmSync(join(base, 'wrapper.pid'), { force: true });
      rmSync(join(base, 'child.pid'), { force: true });
    },
  };
}

/**
 * Runs `wrapper` until a run times out only after the wrapper (and `started`, if given) got going: on a
 * loaded machine a 300 ms timeout can fire before `sh` has even recorded its pids. Each attempt doubles
 * as a check, so no attempt depends on the machine's speed; only the last, 2-minute one is expected to
 * be needed at load 50+.
 */
async function timeOutAfterStart(
  wrapper: ReturnType<typeof hungWrapper>,
  killGraceMs: number,
  started: () => boolean = () => true,
  forgetStarted: () => void = () => undefined,
): Promise<{ result: Awaited<ReturnType<ReturnType<typeof createProcessRunner>['run']>>; pids: { wrapper: number; child: number } }> {
  for (const timeoutMs of [300, 3_000, 30_000, 120_000]) {
    wrapper.forget();
    forgetStarted();
    const result = await createProcessRunner({ killGraceMs }).run({ file: wrapper.file, args: ['ready', '--json'], timeoutMs });
    const pids = wrapper.pids();
    if (pids !== undefined && started()) return { result, pids };
    if (pids !== undefined && isAlive(pids.child)) process.kill(pids.child, 'SIGKILL');
  }
  throw new Error('the wrapper never started within 2 minutes');
}

describe('createProcessRunner process groups', () => {
  it('a wrapper whose grandchild hangs fails as timeout, and no process of its group survives', async () => {
    const wrapper = hungWrapper('timeout');
    const { result, pids } = await timeOutAfterStart(wrapper, 200);
    expect(result.isErr() && result.error.kind).toBe('timeout');
    expect(await eventually(() => !isAlive(pids.wrapper) && !isAlive(pids.child) && groupMembers(pids.wrapper).length === 0)).toBe(true);
  });

  it('a grandchild that ignores SIGTERM is killed after the grace period', async () => {
    // The grandchild announces that its SIGTERM handler is in place, so the test cannot pass by a SIGTERM that came first.
    const ready = join(mkdtempSync(join(dir, 'stubborn-ready-')), 'ready');
    const wrapper = hungWrapper(
      'stubborn',
      `${process.execPath} -e 'process.on("SIGTERM", () => {}); require("fs").writeFileSync(process.argv[1], ""); setInterval(() => {}, 1000)' '${ready}'`,
    );
    const { result, pids } = await timeOutAfterStart(
      wrapper,
      100,
      () => existsSync(ready),
      () => rmSync(ready, { force: true }),
    );
    expect(result.isErr() && result.error.kind).toBe('timeout');
    expect(await eventually(() => !isAlive(pids.child) && groupMembers(pids.wrapper).length === 0)).toBe(true);
  });

  it('stops waiting on the pipes when a process that left the group holds them', async () => {
    const wrapper = hungWrapper('escaped', 'setsid sleep 100000');
    const { result, pids } = await timeOutAfterStart(wrapper, 100);
    expect(result.isErr() && result.error.kind).toBe('timeout');
    process.kill(pids.child, 'SIGKILL'); // it escaped the group on purpose; clean up after the test
  });

  it('an abort kills the whole group and fails as aborted', async () => {
    const wrapper = hungWrapper('abort');
    const controller = new AbortController();
    const pending = createProcessRunner({ killGraceMs: 200 }).run({ file: wrapper.file, args: [], timeoutMs: 600_000 }, controller.signal);
    expect(await eventually(() => wrapper.pids() !== undefined)).toBe(true);
    controller.abort();
    const result = await pending;
    expect(result.isErr() && result.error.kind).toBe('aborted');
    const pids = wrapper.pids()!;
    expect(await eventually(() => !isAlive(pids.child) && groupMembers(pids.wrapper).length === 0)).toBe(true);
  });

  it('the runner’s shutdown signal ends running groups and refuses new calls', async () => {
    const wrapper = hungWrapper('shutdown');
    const shutdown = new AbortController();
    const runner = createProcessRunner({ killGraceMs: 200, shutdownSignal: shutdown.signal });
    const pending = runner.run({ file: wrapper.file, args: [], timeoutMs: 600_000 });
    expect(await eventually(() => wrapper.pids() !== undefined)).toBe(true);
    shutdown.abort();
    expect((await pending)._unsafeUnwrapErr().kind).toBe('aborted');
    expect((await runner.run({ file: process.execPath, args: ['-e', '1'] }))._unsafeUnwrapErr().kind).toBe('aborted');
    const pids = wrapper.pids()!;
    expect(await eventually(() => !isAlive(pids.child) && groupMembers(pids.wrapper).length === 0)).toBe(true);
  });

  it('many commands waiting on one signal and one shutdown signal print no MaxListenersExceededWarning', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => void warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      const shutdown = new AbortController();
      const scan = new AbortController();
      const runner = createProcessRunner({ shutdownSignal: shutdown.signal });
      const results = await Promise.all(
        Array.from({ length: 15 }, () => runner.run({ file: process.execPath, args: ['-e', '1'], timeoutMs: 600_000 }, scan.signal)),
      );
      expect(results.every((r) => r.isOk())).toBe(true);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
