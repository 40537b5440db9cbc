import { describe, expect, it } from 'vitest';
import type { CliIo } from './io.js';
import { announceDrain, createShutdown, drainingIo, drainNotice } from './shutdown.js';

function ioWith(signals: Pick<CliIo, 'shutdownSignal' | 'cutOffSignal'>): { io: CliIo; stderr: () => string } {
  let stderr = '';
  const io: CliIo = { stdout: () => undefined, stderr: (text) => void (stderr += text), cwd: '/', env: {}, ...signals };
  return { io, stderr: () => stderr };
}

describe('createShutdown', () => {
  it('the first signal asks to stop, the second cuts off; each keeps its name for the exit code', () => {
    const shutdown = createShutdown();
    shutdown.receive('SIGTERM');
    expect([shutdown.shutdownSignal.aborted, shutdown.cutOffSignal.aborted]).toEqual([true, false]);
    expect(shutdown.shutdownSignal.reason).toBe('SIGTERM');
    shutdown.receive('SIGINT');
    expect(shutdown.cutOffSignal.aborted).toBe(true);
    expect(shutdown.cutOffSignal.reason).toBe('SIGINT');
  });

  it('a reader gone away stops at once, with no signal to name', () => {
    const shutdown = createShutdown();
    shutdown.stopNow();
    expect([shutdown.shutdownSignal.aborted, shutdown.cutOffSignal.aborted]).toEqual([true, true]);
    expect(typeof shutdown.cutOffSignal.reason).not.toBe('string');
  });
});

describe('drainingIo', () => {
  it("hands the cut-off to the adapters as their shutdown; without one the io's own shutdown cuts off", () => {
    const shutdown = createShutdown();
    const both = ioWith(shutdown).io;
    expect(drainingIo(both).shutdownSignal).toBe(shutdown.cutOffSignal);
    const one = ioWith({ shutdownSignal: shutdown.shutdownSignal }).io;
    expect(drainingIo(one)).toBe(one);
  });
});

describe('drainNotice', () => {
  it('says what still runs, its bound, and how to stop now, for each signal', () => {
    expect(drainNotice('loop', 'SIGTERM', 30_000)).toBe(
      'heartbeat-kit loop: SIGTERM: finishing the scan in flight (at most 30 s) and delivering its report, then stopping; send SIGTERM again to stop now (the scan is then cut off: partial).\n',
    );
    expect(drainNotice('cycle', 'SIGINT', 1_500)).toBe(
      'heartbeat-kit cycle: SIGINT: finishing the scan in flight (at most 2 s) and delivering its report, then stopping; press Ctrl-C (or send SIGINT) again to stop now (the scan is then cut off: partial).\n',
    );
  });
});

describe('announceDrain', () => {
  it('speaks once, at the first signal, while a scan is in flight', () => {
    const shutdown = createShutdown();
    const { io, stderr } = ioWith(shutdown);
    announceDrain(io, 'loop', 30_000, () => true);
    expect(stderr()).toBe('');
    shutdown.receive('SIGTERM');
    shutdown.receive('SIGTERM');
    expect(stderr()).toBe(drainNotice('loop', 'SIGTERM', 30_000));
  });

  it('a signal that came before the command started listening is still announced', () => {
    const shutdown = createShutdown();
    shutdown.receive('SIGINT');
    const { io, stderr } = ioWith(shutdown);
    announceDrain(io, 'cycle', 30_000, () => true);
    expect(stderr()).toBe(drainNotice('cycle', 'SIGINT', 30_000));
  });

  it('is silent between cycles, without a separate cut-off, and when stdout went away', () => {
    const between = createShutdown();
    const idle = ioWith(between);
    announceDrain(idle.io, 'loop', 30_000, () => false);
    between.receive('SIGTERM');
    const plain = new AbortController();
    const inProcess = ioWith({ shutdownSignal: plain.signal });
    announceDrain(inProcess.io, 'loop', 30_000, () => true);
    plain.abort('SIGTERM');
    const gone = createShutdown();
    const piped = ioWith(gone);
    announceDrain(piped.io, 'loop', 30_000, () => true);
    gone.stopNow();
    expect([idle.stderr(), inProcess.stderr(), piped.stderr()]).toEqual(['', '', '']);
  });
});
