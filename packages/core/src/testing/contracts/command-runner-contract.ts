import type { CommandRequest, CommandRunner } from '../../ports/index.js';

/** What a contract scenario asks the runner's "program" to do. */
export type CommandRunnerContractOp =
  | { readonly op: 'print'; readonly stdout: string; readonly stderr: string; readonly exitCode: number }
  | { readonly op: 'echo-stdin' }
  | { readonly op: 'print-env'; readonly name: string }
  | { readonly op: 'hang' }
  | { readonly op: 'missing-binary' };

/** How a runner under test turns a scenario into a request (a real child, or a fake's handler input). */
export interface CommandRunnerHarness {
  readonly runner: CommandRunner;
  readonly request: (op: CommandRunnerContractOp, extra?: Partial<Pick<CommandRequest, 'input' | 'env' | 'timeoutMs'>>) => CommandRequest;
}

/** The behaviour every CommandRunner must have; run against the execa adapter and core's fake. */
export async function describeCommandRunnerContract(name: string, makeHarness: () => CommandRunnerHarness): Promise<void> {
  const { describe, expect, it } = await import('vitest');
  describe(`CommandRunner contract: ${name}`, () => {
    it('returns stdout, stderr and a zero exit code', async () => {
      const h = makeHarness();
      const result = await h.runner.run(h.request({ op: 'print', stdout: 'out\n', stderr: 'err\n', exitCode: 0 }));
      expect(result.isOk()).toBe(true);
      const value = result._unsafeUnwrap();
      expect(value).toMatchObject({ exitCode: 0, stdout: 'out\n', stderr: 'err\n' });
      expect(value.durationMs).toBeGreaterThanOrEqual(0);
    });

    it('treats a non-zero exit as output, not as an error', async () => {
      const h = makeHarness();
      const result = await h.runner.run(h.request({ op: 'print', stdout: '', stderr: 'fatal: nope\n', exitCode: 128 }));
      expect(result._unsafeUnwrap()).toMatchObject({ exitCode: 128, stderr: 'fatal: nope\n' });
    });

    it('keeps unicode and NUL bytes of stdout intact', async () => {
      const h = makeHarness();
      const stdout = 'caf\u00e9\0quote"d\0○ ◐ 📌\n';
      const result = await h.runner.run(h.request({ op: 'print', stdout, stderr: '', exitCode: 0 }));
      expect(result._unsafeUnwrap().stdout).toBe(stdout);
    });

    it('writes input to stdin', async () => {
      const h = makeHarness();
      const result = await h.runner.run(h.request({ op: 'echo-stdin' }, { input: 'hello $(touch x) `id`' }));
      expect(result._unsafeUnwrap().stdout).toBe('hello $(touch x) `id`');
    });

    it('gives the child the request env', async () => {
      const h = makeHarness();
      const result = await h.runner.run(h.request({ op: 'print-env', name: 'HK_CONTRACT_VALUE' }, { env: { HK_CONTRACT_VALUE: 'v 1' } }));
      expect(result._unsafeUnwrap().stdout).toBe('v 1');
    });

    it('reports a missing executable as not-found', async () => {
      const h = makeHarness();
      const result = await h.runner.run(h.request({ op: 'missing-binary' }));
      expect(result.isErr() && result.error.kind).toBe('not-found');
    });

    it('fails with aborted when the signal is already aborted', async () => {
      const h = makeHarness();
      const controller = new AbortController();
      controller.abort();
      const result = await h.runner.run(h.request({ op: 'print', stdout: 'x', stderr: '', exitCode: 0 }), controller.signal);
      expect(result.isErr() && result.error.kind).toBe('aborted');
    });

    it('fails with aborted when the signal aborts while the command runs', async () => {
      const h = makeHarness();
      const controller = new AbortController();
      const pending = h.runner.run(h.request({ op: 'hang' }, { timeoutMs: 30_000 }), controller.signal);
      setTimeout(() => controller.abort(), 100);
      const result = await pending;
      expect(result.isErr() && result.error.kind).toBe('aborted');
    });

    it('fails with timeout when the command outlives timeoutMs', async () => {
      const h = makeHarness();
      const result = await h.runner.run(h.request({ op: 'hang' }, { timeoutMs: 300 }));
      expect(result.isErr() && result.error.kind).toBe('timeout');
      if (result.isErr() && result.error.kind === 'timeout') expect(result.error.timeoutMs).toBe(300);
    });
  });
}
