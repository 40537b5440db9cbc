import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseOutcome } from './outcome.js';
import { expandCommand } from './command-dispatcher.js';
import { parentReference } from './prompt.js';

describe('parseOutcome', () => {
  it('reads the last marker line and maps "in progress" to in_progress', () => {
    const out =
      'thinking…\nWOTERCLIP_OUTCOME {"status":"blocked"}\nmore\nWOTERCLIP_OUTCOME {"status":"in progress","commits":["a1b2c3d feat: x"]}\n';
    const o = parseOutcome(out)._unsafeUnwrap();
    expect(o.status).toBe('in_progress');
    expect(o.commits).toEqual([{ sha: 'a1b2c3d', message: 'feat: x' }]);
  });

  it('no marker, bad JSON or a bad status are errors', () => {
    expect(parseOutcome('done!').isErr()).toBe(true);
    expect(parseOutcome('WOTERCLIP_OUTCOME {oops').isErr()).toBe(true);
    expect(parseOutcome('WOTERCLIP_OUTCOME {"status":"done"}').isErr()).toBe(true);
  });

  it('reads the reference field block, markdown decoration and all', () => {
    const out = [
      'I looked at the code and fixed it.',
      '',
      '- **Status:** Completed',
      '- **Work summary:** Fixed the login redirect.',
      '  The session cookie now survives the hop.',
      '- **Commits / PRs:** a1b2c3d fix(auth): keep cookie, https://github.com/o/r/pull/9',
      '- **Sub-issues:**',
      '  - #43 — Add a regression test (qa)',
      '- **Blocker:** none',
      '- **Escalation target:** none',
      '- **Model used:** opus',
    ].join('\n');
    const o = parseOutcome(out)._unsafeUnwrap();
    expect(o).toMatchObject({
      status: 'completed',
      summary: 'Fixed the login redirect.\n  The session cookie now survives the hop.',
      prs: ['https://github.com/o/r/pull/9'],
      modelUsed: 'opus',
    });
    expect(o.commits).toEqual([{ sha: 'a1b2c3d', message: 'fix(auth): keep cookie' }]);
    expect(o.subIssues).toEqual([{ number: 43, title: 'Add a regression test', persona: 'qa' }]);
    expect(o.blocker).toBeUndefined();
    expect(o.escalationTarget).toBeUndefined();
  });

  it('field block: blocked with its blocker, in progress with an escalation target, the last Status wins', () => {
    const blocked = parseOutcome(
      'Status: blocked\nWork summary: half done\nBlocker: the deploy key lacks write access\nClears when: the key can push\n',
    )._unsafeUnwrap();
    expect(blocked.status).toBe('blocked');
    expect(blocked.blocker).toEqual({ description: 'the deploy key lacks write access', actionNeeded: '', clearsWhen: 'the key can push' });
    const escalated = parseOutcome('Status: done?\nStatus: in progress\nEscalation target: Backend\n')._unsafeUnwrap();
    expect(escalated).toMatchObject({ status: 'in_progress', escalationTarget: 'backend' });
  });

  it('the marker line is preferred over a field block', () => {
    expect(parseOutcome('Status: blocked\nWOTERCLIP_OUTCOME {"status":"triaged"}\n')._unsafeUnwrap().status).toBe('triaged');
  });

  it("reads the claude -p --output-format json envelope (and stream-json's last line)", () => {
    const envelope = (result: string, extra: object = {}) =>
      JSON.stringify({
        type: 'result',
        subtype: 'success',
        is_error: false,
        duration_ms: 1200,
        num_turns: 3,
        result,
        session_id: 's',
        total_cost_usd: 0.01,
        ...extra,
      });
    expect(parseOutcome(envelope('Done.\nWOTERCLIP_OUTCOME {"status":"completed","summary":"x"}'))._unsafeUnwrap()).toMatchObject({
      status: 'completed',
      summary: 'x',
    });
    expect(parseOutcome(envelope('Status: triaged\nWork summary: labelled backend'))._unsafeUnwrap()).toMatchObject({
      status: 'triaged',
      summary: 'labelled backend',
    });
    const stream = `${JSON.stringify({ type: 'system', subtype: 'init' })}\n${JSON.stringify({ type: 'assistant', message: {} })}\n${envelope('Status: decomposed')}\n`;
    expect(parseOutcome(stream)._unsafeUnwrap().status).toBe('decomposed');
    const failed = parseOutcome(
      JSON.stringify({ type: 'result', subtype: 'error_max_turns', is_error: true, errors: ['max turns reached'] }),
    );
    expect(failed._unsafeUnwrapErr()).toContain('error_max_turns');
    expect(parseOutcome(envelope('I did some things.')).isErr()).toBe(true);
  });

  it('property: a generated field block keeps its status and model', () => {
    const statuses = ['completed', 'in progress', 'blocked', 'triaged', 'decomposed'] as const;
    fc.assert(
      fc.property(
        fc.constantFrom(...statuses),
        fc.constantFrom('', '- ', '* ', '- **'),
        // Not a word the parser reads as "no model" (none, n/a, na, null, nothing): those are absent on purpose.
        fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/).filter((m) => !/^(none|na|null|nothing)$/.test(m)),
        fc.string(),
        (status, prefix, model, noise) => {
          const close = prefix.includes('**') ? ':**' : ':';
          const text = `${noise.replace(/[:\n]/g, ' ')}\n\n${prefix}Status${close} ${status}\n${prefix}Model used${close} ${model}\n`;
          const o = parseOutcome(text)._unsafeUnwrap();
          expect(o.status).toBe(status === 'in progress' ? 'in_progress' : status);
          expect(o.modelUsed).toBe(model);
        },
      ),
    );
  });

  it('reads a model of none, n/a, na, null or nothing as no model', () => {
    for (const model of ['none', 'n/a', 'na', 'NA', 'null', 'nothing', '-'])
      expect(parseOutcome(`Status: completed\nModel used: ${model}\n`)._unsafeUnwrap().modelUsed, model).toBeUndefined();
  });

  it('property: never throws on arbitrary output', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.jsonValue(), (noise, value) => {
        void parseOutcome(noise);
        void parseOutcome(`${noise}\nWOTERCLIP_OUTCOME ${JSON.stringify(value)}`);
        void parseOutcome(
          `${noise}\nStatus: ${noise}\nCommits / PRs: ${noise}\nSub-issues:\n- ${noise}\nBlocker: ${noise}\nEscalation target: ${noise}`,
        );
        void parseOutcome(JSON.stringify({ type: 'result', subtype: noise, is_error: value, result: value, errors: value }));
        void parseOutcome(JSON.stringify({ type: 'result', subtype: 'success', result: `${noise}\nStatus: completed\n${noise}` }));
      }),
    );
  });
});

describe('expandCommand', () => {
  it('property: values stay inside their argument, however hostile', () => {
    fc.assert(
      fc.property(fc.string(), (value) => {
        const argv = expandCommand(['agent', '--model', '{model}', 'x{persona}y'], {
          model: value,
          persona: value,
          max_turns: '1',
          thinking_effort: 'low',
        });
        expect(argv).toEqual(['agent', '--model', value, `x${value}y`]);
      }),
    );
  });
});

describe('parentReference', () => {
  it('finds Parent: #N', () => {
    expect(parentReference('Do this.\n\nParent: #42')).toBe(42);
    expect(parentReference('no parent; see #42')).toBeUndefined();
  });
});
