import { describe, expect, it } from 'vitest';
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
    const runner = scriptedRunner([[/^python3 \/proj\/\.claude\/scripts\/gchat-poll-replies\.py$/, { stdout: fixture('gchat', 'poll-none.json') }]]);
    const seen: string[] = [];
    const scanner = createGChatScanner({ runner, cwd: '/proj', fileExists: async (p) => { seen.push(p); return Promise.resolve(true); } });
    expect(await scanner.scan(makeContext())).toMatchObject({ status: 'ok', findings: [], warnings: [] });
    expect(seen).toEqual([`/proj/${GCHAT_POLL_SCRIPT}`]);
    const skipped = await createGChatScanner({ runner, cwd: '/proj', fileExists: exists(false) }).scan(makeContext());
    expect(skipped.status).toBe('skipped');
    expect(runner.calls).toHaveLength(1);
  });

  it('reads exit 2 as the no-credentials warning', async () => {
    const runner = scriptedRunner([[/./, { exitCode: 2, stderr: 'token file missing\n' }]]);
    const result = await createGChatScanner({ runner, cwd: '/p', fileExists: exists(true) }).scan(makeContext());
    expect(result).toMatchObject({ status: 'ok', findings: [], warnings: [{ code: 'GCHAT_NO_CREDENTIALS', message: 'No OAuth2 credentials configured for GChat polling' }] });
  });

  it('a missing poll script (python exits 2 too) is a skipped, configured scanner — never "no OAuth2 credentials"', async () => {
    const stderr = "python3: can't open file '/p/gone.py': [Errno 2] No such file or directory\n";
    const runner = scriptedRunner([[/./, { exitCode: 2, stderr }]]);
    const result = await createGChatScanner({ runner, cwd: '/p', fileExists: exists(false) }).scan(makeContext({ config: { gchatPollCommand: ['python3', '/p/gone.py'] } }));
    expect(result).toMatchObject({ status: 'skipped', configured: true });
    expect(result.status === 'skipped' && result.fix).toContain('Poll command');
    expect(JSON.stringify(result)).not.toMatch(/OAuth2|credentials/i);
    const usage = await createGChatScanner({ runner: scriptedRunner([[/./, { exitCode: 2, stderr: 'usage: poll [-h]\npoll: error: unrecognized arguments: --x\n' }]]), cwd: '/p', fileExists: exists(true) }).scan(makeContext());
    expect(usage).toMatchObject({ status: 'ok', warnings: [{ code: 'GCHAT_POLL_FAILED' }] });
  });

  it('an unused GChat is an unused skip; forwarded questions without a poller, or a poll command that cannot start is a configured skip', async () => {
    const none = await createGChatScanner({ runner: scriptedRunner([]), cwd: '/p', fileExists: exists(false) }).scan(makeContext());
    expect(none).toMatchObject({ status: 'skipped', configured: false });
    expect(none.status === 'skipped' && none.fix).toContain(GCHAT_POLL_SCRIPT);
    const forwarded = await createGChatScanner({ runner: scriptedRunner([]), cwd: '/p', fileExists: async (p) => Promise.resolve(p.endsWith('gchat-forwarded-ask')) }).scan(makeContext());
    expect(forwarded).toMatchObject({ status: 'skipped', configured: true });
    expect(forwarded.status === 'skipped' && forwarded.fix).toContain('nothing polls the replies');
    const noTool = await createGChatScanner({ runner: scriptedRunner([[/./, notFound('my-poll')]]), cwd: '/p', fileExists: exists(false) }).scan(makeContext({ config: { gchatPollCommand: ['my-poll'] } }));
    expect(noTool).toMatchObject({ status: 'skipped', configured: true });
  });

  it('turns other failures into ok results with a warning, and a missing python into skipped', async () => {
    const crash = await createGChatScanner({ runner: scriptedRunner([[/./, { exitCode: 1, stderr: 'ImportError: google\n' }]]), cwd: '/p', fileExists: exists(true) }).scan(makeContext());
    expect(crash).toMatchObject({ status: 'ok', warnings: [{ code: 'GCHAT_POLL_FAILED' }] });
    const junk = await createGChatScanner({ runner: scriptedRunner([[/./, { stdout: 'not json' }]]), cwd: '/p', fileExists: exists(true) }).scan(makeContext());
    expect(junk).toMatchObject({ status: 'ok', warnings: [{ code: 'GCHAT_POLL_UNREADABLE' }] });
    const timeout = await createGChatScanner({ runner: scriptedRunner([[/./, { error: { kind: 'timeout', file: 'python3', timeoutMs: 5, stdout: '', stderr: '' } }]]), cwd: '/p', fileExists: exists(true) }).scan(makeContext());
    expect(timeout).toMatchObject({ status: 'ok', warnings: [{ code: 'GCHAT_POLL_FAILED' }] });
    const noPython = await createGChatScanner({ runner: scriptedRunner([[/./, notFound('python3')]]), cwd: '/p', fileExists: exists(true) }).scan(makeContext());
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
    const result = await createGChatScanner({ runner: scriptedRunner([]), cwd: '/proj', fileExists: exists(false), inbox }).scan(makeContext());
    expect(result).toMatchObject({ status: 'ok', findings: [reply], warnings: [{ code: 'GCHAT_POLL_FAILED' }] });
  });
});
