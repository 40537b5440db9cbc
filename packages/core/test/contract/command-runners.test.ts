import { createFakeCommandRunner, type FakeCommandResponse } from '../../src/testing/index.js';
import type { CommandRequest } from '../../src/index.js';
import { createProcessRunner } from '../../src/node/index.js';
import { describeCommandRunnerContract, type CommandRunnerContractOp } from '../../src/testing/index.js';

// Real children: `node -e` programs, no shell anywhere (argv cannot carry NUL, hence base64).
await describeCommandRunnerContract('process runner (node:child_process)', () => ({
  runner: createProcessRunner(),
  request: (op, extra = {}): CommandRequest => {
    const base = { ...extra };
    switch (op.op) {
      case 'print':
        return {
          ...base,
          file: process.execPath,
          args: [
            '-e',
            'process.stdout.write(Buffer.from(process.argv[1], "base64")); process.stderr.write(process.argv[2]); process.exitCode = Number(process.argv[3]);',
            Buffer.from(op.stdout).toString('base64'),
            op.stderr,
            String(op.exitCode),
          ],
        };
      case 'echo-stdin':
        return { ...base, file: process.execPath, args: ['-e', 'process.stdin.pipe(process.stdout)'] };
      case 'print-env':
        return {
          ...base,
          file: process.execPath,
          args: ['-e', 'process.stdout.write(process.env[process.argv[1]] ?? "<unset>")', op.name],
        };
      case 'hang':
        return { ...base, file: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] };
      case 'missing-binary':
        return { ...base, file: '/nonexistent/hk-missing-binary', args: [] };
    }
  },
}));

// The fake's "program" is its handler: it decodes the scenario and answers as a real child would.
await describeCommandRunnerContract('core fake runner', () => ({
  runner: createFakeCommandRunner(async (request, signal): Promise<FakeCommandResponse> => {
    const op = JSON.parse(request.args[0] ?? '{}') as CommandRunnerContractOp;
    switch (op.op) {
      case 'print':
        return { stdout: op.stdout, stderr: op.stderr, exitCode: op.exitCode };
      case 'echo-stdin':
        return { stdout: request.input ?? '' };
      case 'print-env':
        return { stdout: request.env?.[op.name] ?? '<unset>' };
      case 'hang':
        return new Promise((resolve) => {
          const timer = setTimeout(
            () =>
              resolve({ error: { kind: 'timeout', file: request.file, timeoutMs: request.timeoutMs ?? 10_000, stdout: '', stderr: '' } }),
            request.timeoutMs ?? 10_000,
          );
          signal?.addEventListener('abort', () => {
            clearTimeout(timer);
            resolve({ error: { kind: 'aborted', file: request.file } });
          });
        });
      case 'missing-binary':
        return { error: { kind: 'not-found', file: request.file, message: 'ENOENT' } };
    }
  }),
  request: (op, extra = {}) => ({ ...extra, file: 'fake-program', args: [JSON.stringify(op)] }),
}));
