/** Starts and stops fleet worker child processes for the multi-process tests. */
import { spawn, type ChildProcess } from 'node:child_process';

/** A running worker process. */
export interface WorkerProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  /** SIGTERM and wait for a clean exit (SIGKILL after a grace period). */
  readonly stop: () => Promise<void>;
}

/** Starts `node bundle` with the fleet env and waits for its `ready` line. */
export async function startWorker(bundle: string, env: Record<string, string>): Promise<WorkerProcess> {
  const child = spawn(process.execPath, [bundle], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('ready')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`worker exited early with ${code}`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    pid: child.pid!,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGCONT');
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
