import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_HEARTBEAT_CONFIG, type ScanResult } from '@heartbeat-kit/core';
import { NOT_DUE_SKIP_CODE } from '@heartbeat-kit/core/host';
import { createProcessRunner } from '@heartbeat-kit/core/node';
import { CHECK_SLICE, commandScanner, runCheck, type CheckSlice, type CommandScannerSpec } from './command-scanner.js';

const dir = mkdtempSync(join(tmpdir(), 'hk-checks-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// A short grace so the deadline tests do not wait 2 s per kill; the real default is the CLI's.
const runner = createProcessRunner({ killGraceMs: 200 });
const NOW = new Date('2026-02-19T14:00:00Z');

function script(name: string, body: string, mode = 0o755): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, mode);
  return path;
}

function context(extra: { now?: Date } = {}) {
  return { now: extra.now ?? NOW, config: DEFAULT_HEARTBEAT_CONFIG, insideActiveHours: true, signal: new AbortController().signal };
}

async function run(
  check: CommandScannerSpec['check'],
  previous: CheckSlice = CHECK_SLICE.initial(),
  extra: Partial<CommandScannerSpec> = {},
) {
  return runCheck({ check, runner, cwd: dir, ...extra }, context(), previous);
}

function errorOf(result: ScanResult): { error: string; fix: string } {
  if (result.status !== 'error') throw new Error(`expected an error, got ${JSON.stringify(result)}`);
  return { error: result.error, fix: result.fix ?? '' };
}

describe('commandScanner: the check contract', () => {
  it('exit 0 and nothing printed is quiet', async () => {
    const { result, form } = await run({ name: 'q', run: [script('quiet.sh', 'exit 0')] });
    expect(result).toMatchObject({ status: 'ok', findings: [], warnings: [] });
    expect(form).toBe('quiet');
  });

  it('JSON lines are findings with the check’s category, priority and content (default: the line)', async () => {
    const file = script(
      'jsonl.sh',
      `echo '{"subject":"a","line":"A is down","content":{"n":1}}'; echo '{"subject":"b","line":"B","priority":"Immediate","action":"fix B"}'`,
    );
    const { result } = await run({ name: 'svc', run: [file], priority: 'Advisory' });
    if (result.status !== 'ok') throw new Error(JSON.stringify(result));
    expect(result.findings.map((f) => [f.fingerprint, f.priority, f.line, f.action, f.content])).toEqual([
      ['CHECK_SVC:a', 'Advisory', 'A is down', 'Look into check svc: A is down', { n: 1 }],
      ['CHECK_SVC:b', 'Immediate', 'B', 'fix B', 'B'],
    ]);
  });

  it('plain text is one finding, its first line, sanitised: no terminal escapes, no @channel, no secret', async () => {
    const file = script(
      'text.sh',
      `printf '\\033[31mdisk full\\033[0m @channel token ghp_abcdefghijklmnopqrstuvwxyz0123456789\\nsecond\\n'`,
    );
    const { result } = await run({ name: 'disk', run: [file] });
    if (result.status !== 'ok') throw new Error(JSON.stringify(result));
    const [finding] = result.findings;
    expect(result.findings).toHaveLength(1);
    expect(finding!.line).toMatch(/^disk full @\u2024channel token /);
    expect(finding!.line).not.toContain('\u001b');
    expect(finding!.line).not.toContain('ghp_abcdefghijklmnopqrstuvwxyz0123456789');
    expect(finding!.fingerprint).toBe('CHECK_DISK:disk');
  });

  it('exit 2 is a skip (not applicable now), never a failure', async () => {
    const { result } = await run({ name: 'na', run: [script('na.sh', 'echo "off today" >&2; exit 2')] });
    expect(result).toMatchObject({
      status: 'skipped',
      code: 'CHECK_NOT_APPLICABLE',
      reason: 'check na does not apply now (exit 2): off today',
    });
  });

  it('any other exit is a scanner problem naming the check, its stderr and the fix', async () => {
    const e = errorOf((await run({ name: 'bad', run: [script('bad.sh', 'echo "boom \\033[2J" >&2; exit 3')] })).result);
    expect(e.error).toBe('check bad exited 3: boom');
    expect(e.fix).toContain('heartbeat-kit check run bad');
  });

  it('a missing program and a non-executable one are problems naming the check and the fix', async () => {
    const missing = errorOf((await run({ name: 'gone', run: ['no-such-program-hk', '--x'] })).result);
    expect(missing.error).toBe('check gone could not run: no-such-program-hk not found on PATH');
    expect(missing.fix).toMatch(/^install no-such-program-hk, or correct "run:" of check gone/);
    const noexec = errorOf((await run({ name: 'noexec', run: [script('noexec.sh', 'exit 0', 0o644)] })).result);
    expect(noexec.error).toMatch(/^check noexec could not run: .*noexec\.sh is not executable$/);
    expect(noexec.fix).toMatch(/^chmod \+x /);
    const badCwd = errorOf((await run({ name: 'nowhere', run: ['true'], cwd: 'no/such/dir' })).result);
    expect(badCwd.fix).toContain('correct "cwd:" of check nowhere');
  });

  it('malformed JSON, a finding missing its line, and a 1 MB JSON line are problems, never quiet', async () => {
    const bad = errorOf((await run({ name: 'j1', run: [script('j1.sh', `echo '{"subject":"a","line":"x"}'; echo '{oops'`)] })).result);
    expect(bad.error).toBe(
      'check j1 printed output the contract does not allow: line 2 is not JSON (JSON-lines output needs one object per line)',
    );
    const missing = errorOf((await run({ name: 'j2', run: [script('j2.sh', `echo '{"subject":"a"}'`)] })).result);
    expect(missing.error).toMatch(/line 1 is not a finding: .* at "line"/);
    const huge = script('huge-line.sh', `printf '{"subject":"a","line":"'; head -c 1000000 /dev/zero | tr '\\0' x; printf '"}\\n'`);
    const long = errorOf((await run({ name: 'j3', run: [huge] })).result);
    expect(long.error).toMatch(/line 1 is 1000\d+ bytes, over the 64 KiB a line may have/);
  });

  it('10 MB of output is over the cap: the check is killed and it is a problem', async () => {
    const flood = script('flood.sh', 'head -c 10000000 /dev/zero | tr "\\0" y');
    const e = errorOf((await run({ name: 'flood', run: [flood] })).result);
    expect(e.error).toBe('check flood printed more than 1048576 bytes; it was killed');
  });

  it('a check that forks a child holding the pipe is killed with its whole group at the deadline', async () => {
    const pidFile = join(dir, 'child.pid');
    const holder = script('holder.sh', `sleep 300 & echo $! > ${pidFile}; echo started; wait`);
    const e = errorOf((await run({ name: 'hang', run: [holder], timeoutMs: 500 })).result);
    expect(e.error).toBe('check hang timed out after 500 ms; its process group was killed');
    const child = Number((await import('node:fs')).readFileSync(pidFile, 'utf8').trim());
    let alive = true;
    for (let i = 0; i < 200 && alive; i++) {
      try {
        process.kill(child, 0);
        await new Promise((r) => setTimeout(r, 50));
      } catch {
        alive = false;
      }
    }
    expect(alive).toBe(false);
  });

  it('shell: true runs a string through /bin/sh -c', async () => {
    const { result } = await run({ name: 'sh', run: 'echo one | tr o O', shell: true });
    expect(result).toMatchObject({ status: 'ok', findings: [expect.objectContaining({ line: 'One' })] });
  });

  it('confirm: N reports a finding once N runs in a row produced it (hysteresis over the check’s runs)', async () => {
    const file = script('flap.sh', `echo '{"subject":"a","line":"A"}'`);
    const first = await run({ name: 'flap', run: [file], confirm: 2 });
    expect(first.result).toMatchObject({ status: 'ok', findings: [] });
    expect(first.unconfirmed.map((u) => [u.seenRuns, u.neededRuns])).toEqual([[1, 2]]);
    const second = await run({ name: 'flap', run: [file], confirm: 2 }, first.next);
    expect(second.result).toMatchObject({ status: 'ok', findings: [expect.objectContaining({ subject: 'a' })] });
    // Gone for a run: the streak restarts.
    const quiet = await run({ name: 'flap', run: [script('flap-off.sh', 'exit 0')], confirm: 2 }, second.next);
    expect(quiet.next?.streaks).toEqual({});
  });

  it('every: a check not due is a SCANNER_NOT_DUE skip that runs nothing', async () => {
    const marker = join(dir, 'ran.marker');
    const file = script('every.sh', `touch ${marker}`);
    const skipped = await run({ name: 'slow', run: [file], every: { ms: 3_600_000 } }, { lastRunMs: NOW.getTime() - 60_000, streaks: {} });
    expect(skipped.result).toMatchObject({ status: 'skipped', code: NOT_DUE_SKIP_CODE });
    expect(skipped.due).toBe(false);
    expect((await import('node:fs')).existsSync(marker)).toBe(false);
  });

  it('as a Scanner: named by the check, outside active hours only with outside-hours: run, never rejects on a bad spec', async () => {
    const scanner = commandScanner({ check: { name: 'night', run: ['true'], outsideHours: 'run' }, runner, cwd: dir });
    expect(scanner.name).toBe('night');
    expect(scanner.runsOutsideActiveHours).toBe(true);
    const broken = commandScanner({ check: { name: 'x', run: 'not argv' }, runner, cwd: dir });
    const result = await broken.scan(context());
    expect(result.status === 'error' ? result.error : '').toContain('check x is not valid');
  });
});
