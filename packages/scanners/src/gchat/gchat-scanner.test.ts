import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ResultAsync } from 'neverthrow';
import { afterAll, describe, expect, it } from 'vitest';
import { createFileOutputSpool, createProcessRunner } from '@heartbeat-kit/core/node';
import { fixture } from '../../test/support/fixtures.js';
import { makeContext, notFound, scriptedRunner } from '../../test/support/context.js';
import { createMemoryReplyInbox } from '@heartbeat-kit/core/testing';
import { createGChatScanner, GCHAT_POLL_SCRIPT, gchatReplyFinding } from './gchat-scanner.js';

const exists = (yes: boolean) => async () => Promise.resolve(yes);

describe('gchat scanner', () => {
  it('runs the configured command and turns replies into findings in the spec format', async () => {
    const runner = scriptedRunner([[/^my-poll --json$/, { stdout: fixture('gchat', 'poll-replies.json') }]]);
    const scanner = createGChatScanner({ runner, cwd: '/proj', fileExists: exists(false) });
    const result = await scanner.scan(makeContext({ config: { gchatPollCommand: ['my-poll', '--json'] }, insideActiveHours: false }));
    expect(result.status === 'ok' && result.findings).toEqual([
      expect.objectContaining({
        category: 'GCHAT_REPLY_RECEIVED',
        subject: 'q-1',
        priority: 'Immediate',
        line: '- Question ID: q-1\n  Session: s-1\n  Reply: "yes, ship it"\n  From: Alice',
      }),
    ]);
    expect(runner.calls[0]).toMatchObject({ cwd: '/proj', env: { CLAUDE_PROJECT_DIR: '/proj' } });
    expect(scanner.runsOutsideActiveHours).toBe(true);
  });

  it('falls back to the project script when it exists, and skips when it does not', async () => {
    const runner = scriptedRunner([
      [/^python3 \/proj\/\.claude\/scripts\/gchat-poll-replies\.py$/, { stdout: fixture('gchat', 'poll-none.json') }],
    ]);
    const seen: string[] = [];
    const scanner = createGChatScanner({
      runner,
      cwd: '/proj',
      fileExists: async (p) => {
        seen.push(p);
        return Promise.resolve(true);
      },
    });
    expect(await scanner.scan(makeContext())).toMatchObject({ status: 'ok', findings: [], warnings: [] });
    expect(seen).toEqual([`/proj/${GCHAT_POLL_SCRIPT}`]);
    const skipped = await createGChatScanner({ runner, cwd: '/proj', fileExists: exists(false) }).scan(makeContext());
    expect(skipped.status).toBe('skipped');
    expect(runner.calls).toHaveLength(1);
  });

  it('reads exit 2 as the no-credentials warning', async () => {
    const runner = scriptedRunner([[/./, { exitCode: 2, stderr: 'token file missing\n' }]]);
    const result = await createGChatScanner({ runner, cwd: '/p', fileExists: exists(true) }).scan(makeContext());
    expect(result).toMatchObject({
      status: 'ok',
      findings: [],
      warnings: [{ code: 'GCHAT_NO_CREDENTIALS', message: 'No OAuth2 credentials configured for GChat polling' }],
    });
  });

  it('a missing poll script (python exits 2 too) is a skipped, configured scanner — never "no OAuth2 credentials"', async () => {
    const stderr = "python3: can't open file '/p/gone.py': [Errno 2] No such file or directory\n";
    const runner = scriptedRunner([[/./, { exitCode: 2, stderr }]]);
    const result = await createGChatScanner({ runner, cwd: '/p', fileExists: exists(false) }).scan(
      makeContext({ config: { gchatPollCommand: ['python3', '/p/gone.py'] } }),
    );
    expect(result).toMatchObject({ status: 'skipped', configured: true });
    expect(result.status === 'skipped' && result.fix).toContain('Poll command');
    expect(JSON.stringify(result)).not.toMatch(/OAuth2|credentials/i);
    const usage = await createGChatScanner({
      runner: scriptedRunner([[/./, { exitCode: 2, stderr: 'usage: poll [-h]\npoll: error: unrecognized arguments: --x\n' }]]),
      cwd: '/p',
      fileExists: exists(true),
    }).scan(makeContext());
    expect(usage).toMatchObject({ status: 'ok', warnings: [{ code: 'GCHAT_POLL_FAILED' }] });
  });

  it('an unused GChat is an unused skip; forwarded questions without a poller, or a poll command that cannot start is a configured skip', async () => {
    const none = await createGChatScanner({ runner: scriptedRunner([]), cwd: '/p', fileExists: exists(false) }).scan(makeContext());
    expect(none).toMatchObject({ status: 'skipped', configured: false });
    expect(none.status === 'skipped' && none.fix).toContain(GCHAT_POLL_SCRIPT);
    const forwarded = await createGChatScanner({
      runner: scriptedRunner([]),
      cwd: '/p',
      fileExists: async (p) => Promise.resolve(p.endsWith('gchat-forwarded-ask')),
    }).scan(makeContext());
    expect(forwarded).toMatchObject({ status: 'skipped', configured: true });
    expect(forwarded.status === 'skipped' && forwarded.fix).toContain('nothing polls the replies');
    const noTool = await createGChatScanner({
      runner: scriptedRunner([[/./, notFound('my-poll')]]),
      cwd: '/p',
      fileExists: exists(false),
    }).scan(makeContext({ config: { gchatPollCommand: ['my-poll'] } }));
    expect(noTool).toMatchObject({ status: 'skipped', configured: true });
  });

  it('turns other failures into ok results with a warning, and a missing python into skipped', async () => {
    const crash = await createGChatScanner({
      runner: scriptedRunner([[/./, { exitCode: 1, stderr: 'ImportError: google\n' }]]),
      cwd: '/p',
      fileExists: exists(true),
    }).scan(makeContext());
    expect(crash).toMatchObject({ status: 'ok', warnings: [{ code: 'GCHAT_POLL_FAILED' }] });
    const junk = await createGChatScanner({
      runner: scriptedRunner([[/./, { stdout: 'not json' }]]),
      cwd: '/p',
      fileExists: exists(true),
    }).scan(makeContext());
    expect(junk).toMatchObject({
      status: 'ok',
      warnings: [{ code: 'GCHAT_POLL_UNREADABLE', message: 'GChat poll output unreadable: not valid JSON at byte 0' }],
    });
    const timeout = await createGChatScanner({
      runner: scriptedRunner([[/./, { error: { kind: 'timeout', file: 'python3', timeoutMs: 5, stdout: '', stderr: '' } }]]),
      cwd: '/p',
      fileExists: exists(true),
    }).scan(makeContext());
    expect(timeout).toMatchObject({ status: 'ok', warnings: [{ code: 'GCHAT_POLL_FAILED' }] });
    const noPython = await createGChatScanner({
      runner: scriptedRunner([[/./, notFound('python3')]]),
      cwd: '/p',
      fileExists: exists(true),
    }).scan(makeContext());
    expect(noPython).toMatchObject({ status: 'skipped', reason: 'python3 not found on PATH' });
  });

  it('neutralises hostile reply text and keeps the raw text in details', async () => {
    const runner = scriptedRunner([[/./, { stdout: fixture('gchat', 'poll-pending-no-sender.json') }]]);
    const result = await createGChatScanner({ runner, cwd: '/p', fileExists: exists(true) }).scan(makeContext());
    const finding = result.status === 'ok' ? result.findings[0] : undefined;
    expect(finding?.line).toContain('From: unknown');
    expect(finding?.line).not.toContain('@channel');
    expect(finding?.line).not.toContain('](');
    expect(finding?.line.split('\n')).toHaveLength(4);
    expect(finding?.details.replyText).toBe('Use the "blue" one @channel [click](http://x.invalid)');
  });
});

describe('gchat scanner with a reply inbox', () => {
  it('makes each reply durable before reporting, and reports what earlier cycles left in the inbox', async () => {
    const inbox = createMemoryReplyInbox();
    const runner = scriptedRunner([[/^my-poll$/, { stdout: fixture('gchat', 'poll-replies.json') }]]);
    const scanner = createGChatScanner({ runner, cwd: '/proj', fileExists: exists(false), inbox });
    const ctx = makeContext({ config: { gchatPollCommand: ['my-poll'] } });
    const first = await scanner.scan(ctx);
    expect(inbox.entries().map((e) => e.finding.subject)).toEqual(['q-1']);
    expect(first.status === 'ok' && first.findings.map((f) => f.subject)).toEqual(['q-1']);
    // The poller handed q-1 out already; a cycle killed before saving still finds it in the inbox.
    const emptyPoll = scriptedRunner([[/^my-poll$/, { stdout: fixture('gchat', 'poll-none.json') }]]);
    const again = await createGChatScanner({ runner: emptyPoll, cwd: '/proj', fileExists: exists(false), inbox }).scan(ctx);
    expect(again.status === 'ok' && again.findings.map((f) => f.subject)).toEqual(['q-1']);
  });

  it('still reports held replies when the poll cannot run, saying so', async () => {
    const inbox = createMemoryReplyInbox();
    const reply = gchatReplyFinding({ questionId: 'q-9', sessionId: 's', replyText: 'ok', senderName: 'Bo' });
    (await inbox.add([reply], new Date(0)))._unsafeUnwrap();
    const result = await createGChatScanner({ runner: scriptedRunner([]), cwd: '/proj', fileExists: exists(false), inbox }).scan(
      makeContext(),
    );
    expect(result).toMatchObject({ status: 'ok', findings: [reply], warnings: [{ code: 'GCHAT_POLL_FAILED' }] });
  });
});

describe('gchat scanner with a spool (the poll prints into a file, not into the cycle)', () => {
  const root = mkdtempSync(join(tmpdir(), 'hb-gchat-spool-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const clock = { now: () => new Date('2026-02-19T10:00:00Z') };
  const reply = (id: string) => ({ question_id: id, session_id: 's', reply_text: `answer ${id}`, sender_name: 'Ana' });
  const printing = (text: string) => ({ gchatPollCommand: [process.execPath, '-e', `process.stdout.write(${JSON.stringify(text)})`] });
  const setUp = (name: string, maxReadBytes?: number) => {
    const directory = join(root, name);
    const spool = createFileOutputSpool({
      directory,
      prefix: 'state.gchat-spool',
      clock,
      ...(maxReadBytes === undefined ? {} : { maxReadBytes }),
    });
    const inbox = createMemoryReplyInbox();
    const scanner = createGChatScanner({ runner: createProcessRunner(), cwd: root, fileExists: exists(false), inbox, spool });
    const files = () => (existsSync(directory) ? readdirSync(directory) : []);
    return { directory, spool, inbox, scanner, files };
  };

  it('the poll goes through a spool into the inbox, and the spool is gone once the inbox holds the reply', async () => {
    const t = setUp('live');
    const result = await t.scanner.scan(makeContext({ config: printing(JSON.stringify({ replies: [reply('q-1')], pending_count: 0 })) }));
    expect(result).toMatchObject({ status: 'ok', warnings: [] });
    expect(result.status === 'ok' && result.findings.map((f) => f.subject)).toEqual(['q-1']);
    expect(t.inbox.entries().map((e) => e.finding.subject)).toEqual(['q-1']);
    expect(t.files()).toEqual([]);
  });

  it('the poll starts in the tick the scan starts, while the leftovers are still being listed, and replies come out in order', async () => {
    const t = setUp('early');
    mkdirSync(t.directory, { recursive: true });
    writeFileSync(
      join(t.directory, 'state.gchat-spool-1000-42-ab.w999999999.out'),
      JSON.stringify({ replies: [reply('q-old')], pending_count: 0 }),
    );
    const real = createProcessRunner();
    let polled!: () => void;
    const pollStarted = new Promise<void>((resolve) => (polled = resolve));
    const runner = { run: (...args: Parameters<typeof real.run>) => (polled(), real.run(...args)) };
    // The listing finishes only once the poll has started: a scan that waited for it first would never poll.
    const spool = { ...t.spool, leftovers: () => new ResultAsync(pollStarted.then(() => t.spool.leftovers())) };
    const scanner = createGChatScanner({ runner, cwd: root, fileExists: exists(false), inbox: t.inbox, spool });
    let started = false;
    void pollStarted.then(() => (started = true));
    const scan = scanner.scan(makeContext({ config: printing(JSON.stringify({ replies: [reply('q-new')], pending_count: 0 })) }));
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toBe(true);
    const result = await scan;
    expect(result).toMatchObject({ status: 'ok', warnings: [] });
    // The killed cycle's reply first, then this poll's; the poll's own spool was never a leftover.
    expect(t.inbox.entries().map((e) => e.finding.subject)).toEqual(['q-old', 'q-new']);
    expect(t.files()).toEqual([]);
  });

  it('recovers what killed cycles left: a whole spool is delivered and removed, a blank one removed quietly', async () => {
    const t = setUp('whole');
    mkdirSync(t.directory, { recursive: true });
    // What a cycle killed after its poller printed leaves: the poller's whole output, no inbox entry.
    writeFileSync(
      join(t.directory, 'state.gchat-spool-1000-42-ab.w999999999.out'),
      JSON.stringify({ replies: [reply('q-2')], pending_count: 0 }),
    );
    // What a cycle killed between creating the spool and starting the poller leaves.
    writeFileSync(join(t.directory, 'state.gchat-spool-900-42-ab.out'), '');
    const empty = JSON.stringify({ replies: [], pending_count: 0 });
    const scanner = t.scanner;
    const result = await scanner.scan(makeContext({ config: printing(empty) }));
    expect(result).toMatchObject({ status: 'ok', warnings: [] });
    expect(result.status === 'ok' && result.findings.map((f) => f.subject)).toEqual(['q-2']);
    expect(t.files()).toEqual([]);
    // Recovered again by a cycle killed before it removed the spool: the inbox holds it once.
    writeFileSync(
      join(t.directory, 'state.gchat-spool-1000-42-ab.w999999999.out'),
      JSON.stringify({ replies: [reply('q-2')], pending_count: 0 }),
    );
    await scanner.scan(makeContext({ config: printing(empty) }));
    expect(t.inbox.entries().map((e) => e.finding.subject)).toEqual(['q-2']);
  });

  it('a spool cut off mid-reply keeps its whole replies and is set aside with a warning; one with nothing readable is set aside, never deleted', async () => {
    const t = setUp('cut');
    const whole = JSON.stringify({ replies: [reply('q-3'), reply('q-4')], pending_count: 0 });
    mkdirSync(t.directory, { recursive: true });
    writeFileSync(join(t.directory, 'state.gchat-spool-1000-42-ab.out'), whole.slice(0, whole.indexOf('q-4') + 5));
    writeFileSync(join(t.directory, 'state.gchat-spool-2000-42-ab.out'), 'Traceback (most recent call last):');
    const result = await t.scanner.scan(makeContext({ config: printing(JSON.stringify({ replies: [], pending_count: 0 })) }));
    expect(result.status === 'ok' && result.findings.map((f) => f.subject)).toEqual(['q-3']);
    const warnings = result.status === 'ok' ? result.warnings : [];
    expect(warnings.map((w) => w.code)).toEqual(['GCHAT_SPOOL_SET_ASIDE', 'GCHAT_SPOOL_SET_ASIDE']);
    expect(warnings[0]?.message).toContain('1 whole reply recovered');
    expect(warnings[1]?.message).toContain('not the poll JSON');
    const aside = t.files().sort();
    expect(aside).toEqual([
      expect.stringMatching(/^state\.gchat-spool-1000-42-ab\.out\.unreadable-/),
      expect.stringMatching(/^state\.gchat-spool-2000-42-ab\.out\.unreadable-/),
    ]);
    expect(readFileSync(join(t.directory, aside[1] ?? ''), 'utf8')).toBe('Traceback (most recent call last):');
    // Set aside once: the next cycle neither warns again nor delivers twice.
    const next = await t.scanner.scan(makeContext({ config: printing(JSON.stringify({ replies: [], pending_count: 0 })) }));
    expect(next).toMatchObject({ status: 'ok', warnings: [] });
    expect(t.inbox.entries().map((e) => e.finding.subject)).toEqual(['q-3']);
  });

  it('a poll output over the read cap delivers the whole replies before the cap and is set aside once, with a warning naming it and its size', async () => {
    const t = setUp('over-cap', 400);
    const poll = JSON.stringify({
      replies: [reply('q-5'), reply('q-6'), { ...reply('q-7'), reply_text: 'z'.repeat(5000) }],
      pending_count: 0,
    });
    const size = Buffer.byteLength(poll);
    const result = await t.scanner.scan(makeContext({ config: printing(poll) }));
    expect(result.status === 'ok' && result.findings.map((f) => f.subject)).toEqual(['q-5', 'q-6']);
    const warnings = result.status === 'ok' ? result.warnings : [];
    expect(warnings).toHaveLength(1);
    const [aside] = t.files();
    expect(aside).toMatch(/^state\.gchat-spool-\d+-\d+-[0-9a-f]+\.w\d+-s\d+\.out\.unreadable-/);
    const end = Buffer.byteLength(poll.slice(0, poll.indexOf('}', poll.indexOf('q-6')) + 1));
    expect(warnings[0]).toEqual({
      code: 'GCHAT_SPOOL_OVER_CAP',
      message:
        `GChat poll output set aside as ${join(t.directory, aside ?? '')}: ${size} bytes, over the 400-byte read cap; ` +
        `2 whole replies delivered, the rest (from byte ${end}) not read`,
      fix: `read the replies from byte ${end} of the set-aside file and act on them by hand, then delete it; a poll that prints this much is broken: make it print only new replies`,
    });
    // Kept whole, never re-read: the next scan neither warns nor delivers again.
    expect(readFileSync(join(t.directory, aside ?? ''), 'utf8')).toBe(poll);
    const next = await t.scanner.scan(makeContext({ config: printing(JSON.stringify({ replies: [], pending_count: 0 })) }));
    expect(next).toMatchObject({ status: 'ok', warnings: [] });
    expect(t.inbox.entries().map((e) => e.finding.subject)).toEqual(['q-5', 'q-6']);
    expect(t.files()).toEqual([aside]);
  });

  it('an unreadable poll output is set aside the first time: the warning names the file and the byte, never what it holds', async () => {
    const t = setUp('garbage');
    const result = await t.scanner.scan(makeContext({ config: printing('root:*:20210:0:99999:7:::\n') }));
    const warnings = result.status === 'ok' ? result.warnings : [];
    expect(warnings.map((w) => w.code)).toEqual(['GCHAT_SPOOL_SET_ASIDE']);
    expect(warnings[0]?.message).toMatch(
      /^GChat poll output set aside as \S+\.unreadable-\S+: not the poll JSON \(26 bytes; not valid JSON at byte 0\)$/,
    );
    expect(JSON.stringify(result)).not.toContain('root:');
    expect(t.files()).toEqual([expect.stringMatching(/\.unreadable-/)]);
    const next = await t.scanner.scan(makeContext({ config: printing(JSON.stringify({ replies: [], pending_count: 0 })) }));
    expect(next).toMatchObject({ status: 'ok', warnings: [] });
  });

  it('a leftover that is a link (to a secret file) is never followed: set aside by name, its target untouched and never quoted', async () => {
    const t = setUp('link');
    mkdirSync(t.directory, { recursive: true });
    const secret = join(root, 'shadow');
    writeFileSync(secret, 'root:*:20210:0:99999:7:::\n');
    const name = 'state.gchat-spool-1000-42-ab.out';
    symlinkSync(secret, join(t.directory, name));
    const result = await t.scanner.scan(makeContext({ config: printing(JSON.stringify({ replies: [], pending_count: 0 })) }));
    const warnings = result.status === 'ok' ? result.warnings : [];
    expect(warnings).toEqual([
      {
        code: 'GCHAT_SPOOL_REFUSED',
        message: expect.stringMatching(
          new RegExp(
            `^GChat poll output set aside as ${join(t.directory, name).replace(/\./g, '\\.')}\\.unreadable-\\S+: ` +
              'a symbolic link, not a spool heartbeat-kit wrote: not followed or read$',
          ),
        ) as string,
        fix: 'heartbeat-kit puts only its own files there: find out what made this one, then delete the set-aside entry',
      },
    ]);
    expect(JSON.stringify(result)).not.toMatch(/root:|20210/);
    expect(readFileSync(secret, 'utf8')).toBe('root:*:20210:0:99999:7:::\n');
    const [aside] = t.files();
    expect(lstatSync(join(t.directory, aside ?? '')).isSymbolicLink()).toBe(true);
    const next = await t.scanner.scan(makeContext({ config: printing(JSON.stringify({ replies: [], pending_count: 0 })) }));
    expect(next).toMatchObject({ status: 'ok', warnings: [] });
  });
});
