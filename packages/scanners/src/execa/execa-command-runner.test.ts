import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { buildChildEnv, classifyExecaOutcome, createExecaCommandRunner } from './execa-command-runner.js';

const printEnv = { file: process.execPath, args: ['-e', 'process.stdout.write(JSON.stringify(process.env))'] };

describe('createExecaCommandRunner environment', () => {
  it('forwards only allow-listed variables plus NO_COLOR and LC_ALL', async () => {
    const runner = createExecaCommandRunner({
      baseEnv: { PATH: process.env.PATH, HOME: '/home/x', GH_TOKEN: 'ghp_secret', BD_AGENT_MODE: '1', CLAUDE_CODE_ENTRYPOINT: 'cli', ANTHROPIC_API_KEY: 'sk-x', LANG: 'C.UTF-8' },
    });
    const env = JSON.parse((await runner.run(printEnv))._unsafeUnwrap().stdout) as Record<string, string>;
    expect(env.HOME).toBe('/home/x');
    expect(env.LANG).toBe('C.UTF-8');
    expect(env.NO_COLOR).toBe('1');
    expect(env.LC_ALL).toBe('C');
    for (const leaked of ['GH_TOKEN', 'BD_AGENT_MODE', 'CLAUDE_CODE_ENTRYPOINT', 'ANTHROPIC_API_KEY']) expect(env).not.toHaveProperty(leaked);
  });

  it('forwards a token only when the request names it, and lets the request override LC_ALL', async () => {
    const runner = createExecaCommandRunner({ baseEnv: { PATH: process.env.PATH, GH_TOKEN: 'ghp_base' } });
    const env = JSON.parse((await runner.run({ ...printEnv, env: { GH_TOKEN: 'ghp_request', LC_ALL: 'en_US.UTF-8' } }))._unsafeUnwrap().stdout) as Record<string, string>;
    expect(env.GH_TOKEN).toBe('ghp_request');
    expect(env.LC_ALL).toBe('en_US.UTF-8');
  });

  it('buildChildEnv never carries a key outside the allow list unless the request gives it', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), fc.string()), (base) => {
        const env = buildChildEnv(base, undefined);
        for (const key of Object.keys(env)) expect(['PATH', 'HOME', 'USER', 'LANG', 'TMPDIR', 'TMUX_TMPDIR', 'NO_COLOR', 'LC_ALL']).toContain(key);
      }),
    );
  });
});

describe('createExecaCommandRunner failures', () => {
  it('reports output beyond maxOutputBytes as output-limit', async () => {
    const runner = createExecaCommandRunner({ maxOutputBytes: 1000 });
    const result = await runner.run({ file: process.execPath, args: ['-e', 'process.stdout.write("x".repeat(50000))'] });
    expect(result.isErr() && result.error).toMatchObject({ kind: 'output-limit', maxOutputBytes: 1000 });
  });

  it('reports a child killed by a signal as killed', async () => {
    const runner = createExecaCommandRunner();
    const result = await runner.run({ file: process.execPath, args: ['-e', 'process.kill(process.pid, "SIGKILL")'] });
    expect(result.isErr() && result.error).toMatchObject({ kind: 'killed', signal: 'SIGKILL' });
  });

  it('reports a cwd that does not exist as an error, not a crash', async () => {
    const runner = createExecaCommandRunner();
    const result = await runner.run({ file: process.execPath, args: ['-e', '1'], cwd: '/nonexistent/hk-dir' });
    expect(result.isErr()).toBe(true);
  });

  it('never runs a shell: metacharacters in argv reach the child verbatim', async () => {
    const runner = createExecaCommandRunner();
    const hostile = '$(touch /tmp/hk-pwned) ; rm -rf / `id` | cat';
    const result = await runner.run({ file: process.execPath, args: ['-e', 'process.stdout.write(process.argv[1])', hostile] });
    expect(result._unsafeUnwrap().stdout).toBe(hostile);
  });

  it('classifyExecaOutcome prefers the specific cause', () => {
    const base = { timedOut: false, isCanceled: false, isMaxBuffer: false, failed: true, stdout: '', stderr: '', durationMs: 1 };
    const limits = { timeoutMs: 5, maxOutputBytes: 9 };
    expect(classifyExecaOutcome('bd', { ...base, code: 'ENOENT' }, limits)).toMatchObject({ kind: 'not-found', file: 'bd' });
    expect(classifyExecaOutcome('bd', { ...base, timedOut: true, signal: 'SIGTERM' }, limits)).toMatchObject({ kind: 'timeout', timeoutMs: 5 });
    expect(classifyExecaOutcome('bd', { ...base, isCanceled: true, signal: 'SIGTERM' }, limits)).toMatchObject({ kind: 'aborted' });
    expect(classifyExecaOutcome('bd', { ...base, isMaxBuffer: true, exitCode: 0 }, limits)).toMatchObject({ kind: 'output-limit' });
    expect(classifyExecaOutcome('bd', { ...base, exitCode: 3, stdout: 'o' }, limits)).toMatchObject({ exitCode: 3, stdout: 'o' });
    expect(classifyExecaOutcome('bd', { ...base }, limits)).toMatchObject({ kind: 'spawn-failed' });
  });
});

describe('createExecaCommandRunner output cap', () => {
  it('counts bytes, not characters', async () => {
    const runner = createExecaCommandRunner({ maxOutputBytes: 1500 });
    const result = await runner.run({ file: process.execPath, args: ['-e', 'process.stdout.write("\u00e9".repeat(1000))'] });
    expect(result.isErr() && result.error.kind).toBe('output-limit');
    const fits = await runner.run({ file: process.execPath, args: ['-e', 'process.stdout.write("\u00e9".repeat(700))'] });
    expect(fits._unsafeUnwrap().stdout).toBe('\u00e9'.repeat(700));
  });
});
