/**
 * Issue 29 item 2 through the built bin: `cycle --sink inbox:DIR` keeps each report, and
 * `inbox drain` runs the way Claude Code runs a hook — the hook's JSON on stdin, JSON on stdout,
 * exit 0. Each id reaches the agent once; a drain SIGKILLed between printing and marking (its
 * stdout pipe stopped being read after the first bytes, so it cannot finish printing) leaves the
 * messages to the next drain, which prints the same ids again.
 */
import { spawn } from 'node:child_process';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgentInboxSink } from '@heartbeat-kit/core/node';
import { BUILT_CLI_BIN } from './support/built-cli.js';
import { useBuiltCli, useCliWorlds, useTempDirs } from './support/cli-world.js';

const cli = useBuiltCli();
const newWorld = useCliWorlds({ endProcesses: true });
const tempDir = useTempDirs();

interface HookRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the built bin with `input` on stdin, as Claude Code runs a command hook. */
function hook(argv: readonly string[], input: string, cwd: string): Promise<HookRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BUILT_CLI_BIN, ...argv], { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

const promptInput = (cwd: string): string =>
  JSON.stringify({ session_id: 's-1', transcript_path: '/dev/null', cwd, hook_event_name: 'UserPromptSubmit', prompt: 'hello' });

interface HookOutput {
  readonly hookSpecificOutput: { readonly hookEventName: string; readonly additionalContext: string };
}

const idsIn = (context: string): string[] => [...context.matchAll(/\[heartbeat-kit inbox message (\S+) at /g)].map((m) => m[1]!);

const undo: (() => void)[] = [];
afterEach(() => {
  for (const each of undo.splice(0)) each();
});

/** Makes `dir` unwritable even for root (the immutable attribute), or by mode for anyone else. */
function makeUnwritable(dir: string): () => void {
  if (process.getuid?.() === 0) {
    const set = spawnSync('chattr', ['+i', dir]);
    if (set.status !== 0) throw new Error(`chattr +i ${dir} failed: ${set.stderr.toString()}`);
    return () => void spawnSync('chattr', ['-i', dir]);
  }
  chmodSync(dir, 0o555);
  return () => chmodSync(dir, 0o755);
}

describe('agent inbox drained by a Claude Code hook (issue 29 item 2)', () => {
  it('two reports kept by cycle --sink inbox:DIR: one drain prints both once as hook JSON, a second prints nothing', async () => {
    const w = newWorld({ ready: [{ id: 'bd-a1', title: 'First thing', priority: 1 }] });
    const inbox = join(w.root, 'inbox');
    const statePath = join(w.root, 'state', 'state.json');
    const cycle = (at: string) =>
      cli.runAt(at, ['cycle', '--cwd', w.project, '--tmux-socket', w.tmuxSocket, '--state', statePath, '--sink', `inbox:${inbox}`], {
        ...process.env,
        ...w.env,
        TMUX: '',
      });
    const first = await cycle('2026-02-19T14:00:00Z');
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    w.setReady([
      { id: 'bd-a1', title: 'First thing', priority: 1 },
      { id: 'bd-b2', title: 'Second thing', priority: 1 },
    ]);
    expect((await cycle('2026-02-19T14:30:00Z')).code).toBe(0);
    const waiting = readdirSync(inbox).filter((name) => name.endsWith('.json'));
    expect(waiting).toHaveLength(2);

    const listed = await cli.run(['inbox', 'list', inbox, '--json'], process.env);
    expect(listed.code).toBe(0);
    const listedIds = (JSON.parse(listed.stdout) as { messages: { id: string }[] }).messages.map((m) => m.id);
    expect(listedIds).toHaveLength(2);

    const drained = await hook(['inbox', 'drain', inbox, '--format', 'claude-hook'], promptInput(w.project), w.project);
    expect(drained.stderr).toBe('');
    expect(drained.code).toBe(0);
    const output = JSON.parse(drained.stdout) as HookOutput;
    expect(output.hookSpecificOutput.hookEventName).toBe('UserPromptSubmit');
    expect(idsIn(output.hookSpecificOutput.additionalContext)).toEqual(listedIds);
    expect(output.hookSpecificOutput.additionalContext).toContain('bd-a1');
    expect(output.hookSpecificOutput.additionalContext).toContain('bd-b2');

    const again = await hook(['inbox', 'drain', inbox, '--format', 'claude-hook'], promptInput(w.project), w.project);
    expect(again).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(readdirSync(join(inbox, 'delivered')).sort()).toEqual([...waiting].sort());
  });

  it('a drain SIGKILLed after it began printing and before it marked: the next drain prints the same ids, then nothing', async () => {
    const dir = tempDir('hk-inbox-kill-');
    const inbox = join(dir, 'inbox');
    const sink = createAgentInboxSink({ directory: inbox });
    // Bigger than the pipe and the reader's buffer together: the drain cannot finish printing
    // while nobody reads, so it is stopped between the print and the mark for certain.
    for (const n of [1, 2])
      (
        await sink.deliver({
          kind: 'work_found',
          content: `WORK_FOUND: big ${n}\n${'x'.repeat(600_000)}`,
          summary: `big ${n}`,
          at: `2026-02-19T14:0${n}:00.000Z`,
          id: `hb-kill-${n}`,
        })
      )._unsafeUnwrap();

    const child = spawn(process.execPath, [BUILT_CLI_BIN, 'inbox', 'drain', inbox, '--max-chars', '5000000'], {
      cwd: dir,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    child.stdin.end(promptInput(dir));
    const firstBytes = await new Promise<string>((resolve) =>
      child.stdout.once('readable', () => resolve((child.stdout.read() as Buffer | null)?.toString() ?? '')),
    );
    expect(firstBytes).toContain('"additionalContext":"heartbeat-kit inbox: 2 new messages (ids hb-kill-1, hb-kill-2)');
    child.kill('SIGKILL');
    await exited;
    // Nothing was marked: the messages sit in the dead drain's claim.
    expect(existsSync(join(inbox, 'delivered', 'hb-kill-1.json'))).toBe(false);
    expect(existsSync(join(inbox, 'delivered', 'hb-kill-2.json'))).toBe(false);

    const redelivered = await hook(['inbox', 'drain', inbox, '--max-chars', '5000000'], promptInput(dir), dir);
    expect(redelivered.code).toBe(0);
    expect(idsIn((JSON.parse(redelivered.stdout) as HookOutput).hookSpecificOutput.additionalContext)).toEqual(['hb-kill-1', 'hb-kill-2']);
    expect(await hook(['inbox', 'drain', inbox], promptInput(dir), dir)).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('SessionStart is answered as SessionStart; --format text and json print for other agents; --max-chars leaves the rest for the next drain', async () => {
    const dir = tempDir('hk-inbox-formats-');
    const inbox = join(dir, 'inbox');
    const sink = createAgentInboxSink({ directory: inbox });
    for (const n of [1, 2, 3])
      (
        await sink.deliver({
          kind: 'work_found',
          content: `WORK_FOUND: thing ${n}`,
          summary: `t${n}`,
          at: `2026-02-19T14:0${n}:00.000Z`,
          id: `hb-${n}`,
        })
      )._unsafeUnwrap();

    const start = await hook(
      ['inbox', 'drain', inbox, '--max-chars', '80'],
      JSON.stringify({ hook_event_name: 'SessionStart', source: 'startup' }),
      dir,
    );
    expect(start.code).toBe(0);
    const out = JSON.parse(start.stdout) as HookOutput;
    expect(out.hookSpecificOutput.hookEventName).toBe('SessionStart');
    expect(idsIn(out.hookSpecificOutput.additionalContext)).toEqual(['hb-1']);
    expect(out.hookSpecificOutput.additionalContext).toContain('(2 more waiting');

    const text = await cli.run(['inbox', 'drain', inbox, '--format', 'text', '--max-chars', '80', '--cwd-ignored'], process.env);
    expect(text.code).toBe(2);
    expect(text.stderr).toContain("Unknown option '--cwd-ignored'");
    const text2 = await cli.run(['inbox', 'drain', inbox, '--format', 'text', '--max-chars', '80'], process.env);
    expect(text2.code).toBe(0);
    expect(text2.stdout).toMatch(/^heartbeat-kit inbox: 1 new message \(ids hb-2\)/);
    const json = await cli.run(['inbox', 'drain', inbox, '--format', 'json'], process.env);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({
      messages: [{ id: 'hb-3', kind: 'work_found', at: '2026-02-19T14:03:00.000Z', summary: 't3', content: 'WORK_FOUND: thing 3' }],
      waiting: 0,
    });
    expect(JSON.parse((await cli.run(['inbox', 'drain', inbox, '--format', 'json'], process.env)).stdout)).toEqual({
      messages: [],
      waiting: 0,
    });
  });

  it('bad input: a file for DIR, garbage files, an unwritable inbox, stdin that is not hook JSON — clear errors, hook mode never exits 2, nothing lost', async () => {
    const dir = tempDir('hk-inbox-bad-', { 'a-file': 'not a directory\n' });
    const file = join(dir, 'a-file');
    const asFile = await hook(['inbox', 'drain', file], promptInput(dir), dir);
    expect(asFile.code).toBe(3);
    expect(asFile.stdout).toBe('');
    expect(asFile.stderr).toContain(`${file} is not a directory. Fix:`);
    const asFileText = await cli.run(['inbox', 'drain', file, '--format', 'text'], process.env);
    expect(asFileText.code).toBe(2);
    expect(readFileSync(file, 'utf8')).toBe('not a directory\n');

    // The sink refuses it too: the cycle says delivery failed, naming the path.
    const w = newWorld({ ready: [{ id: 'bd-a1', title: 'First thing', priority: 1 }] });
    const cycled = await cli.runAt(
      '2026-02-19T14:00:00Z',
      ['cycle', '--cwd', w.project, '--tmux-socket', w.tmuxSocket, '--state', join(w.root, 's', 'state.json'), '--sink', `inbox:${file}`],
      { ...process.env, ...w.env, TMUX: '' },
    );
    expect(cycled.code).toBe(3);
    expect(cycled.stderr).toContain(`${file} is not a directory`);

    const inbox = join(dir, 'inbox');
    (
      await createAgentInboxSink({ directory: inbox }).deliver({
        kind: 'online',
        content: 'HEARTBEAT_ONLINE',
        summary: 'online',
        at: '2026-02-19T14:00:00.000Z',
        id: 'hb-ok',
      })
    )._unsafeUnwrap();
    writeFileSync(join(inbox, 'junk.json'), '{oops');
    mkdirSync(join(inbox, 'stray-dir.json'));

    const notHook = await hook(['inbox', 'drain', inbox], 'hello', dir);
    expect(notHook.code).toBe(3);
    expect(notHook.stderr).toContain('stdin is not JSON. Fix: run it as a Claude Code hook');
    const otherEvent = await hook(['inbox', 'drain', inbox], JSON.stringify({ hook_event_name: 'Stop' }), dir);
    expect(otherEvent.code).toBe(0);
    expect(otherEvent.stdout).toBe('');
    expect(otherEvent.stderr).toContain('hook event "Stop" cannot add context; nothing drained');

    const restore = makeUnwritable(inbox);
    undo.push(restore);
    const locked = await hook(['inbox', 'drain', inbox], promptInput(dir), dir);
    expect(locked.code).toBe(3);
    expect(locked.stdout).toBe('');
    expect(locked.stderr).toContain(inbox);
    expect(locked.stderr).toContain('Fix:');
    restore();
    undo.pop();

    const drained = await hook(['inbox', 'drain', inbox], promptInput(dir), dir);
    expect(drained.code).toBe(0);
    expect(idsIn((JSON.parse(drained.stdout) as HookOutput).hookSpecificOutput.additionalContext)).toEqual(['hb-ok']);
    expect(drained.stderr).toContain(`${join(inbox, 'junk.json')} is not JSON, so not an inbox message. Fix: move it out of the inbox`);
    expect(drained.stderr).toContain(`${join(inbox, 'stray-dir.json')} is a directory`);
    expect(readFileSync(join(inbox, 'junk.json'), 'utf8')).toBe('{oops');
  });

  it('inbox list on a directory that does not exist says so, apart from an empty inbox (a mistyped DIR is not "nothing waiting")', async () => {
    const root = tempDir('hk-inbox-missing-');
    const missing = join(root, 'never-delivered');
    const text = await cli.run(['inbox', 'list', missing], process.env);
    expect(text.code).toBe(0);
    expect(text.stdout).toBe(
      `no inbox at ${missing} yet: nothing was ever delivered there (the inbox sink creates it on its first delivery; check the path)\n`,
    );
    expect(existsSync(missing)).toBe(false);
    expect(JSON.parse((await cli.run(['inbox', 'list', missing, '--json'], process.env)).stdout)).toEqual({
      messages: [],
      problems: [],
      exists: false,
    });
    mkdirSync(missing);
    expect((await cli.run(['inbox', 'list', missing], process.env)).stdout).toBe(`nothing waiting in ${missing}\n`);
    expect(JSON.parse((await cli.run(['inbox', 'list', missing, '--json'], process.env)).stdout)).toEqual({
      messages: [],
      problems: [],
      exists: true,
    });
  });
});
