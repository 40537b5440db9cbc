import type { BeatExit } from '@heartbeat-kit/woterclip';
import { describe, expect, it } from 'vitest';
import { EXIT, EXIT_CODE_TABLE, beatExitCode } from './exit-codes.js';
import { walkHelp } from '../../../scripts/cli-help-walk.js';

/** The codes an "Exit codes:" section names: "0 written, 1 file exists" or one "0  accepted" per line. */
function namedCodes(text: string): number[] {
  const at = text.indexOf('Exit codes:');
  if (at < 0) return [];
  const section = text.slice(at + 'Exit codes:'.length).split(/\n\s*\n/)[0] ?? '';
  return [...section.matchAll(/(?:^|,|\n)\s*(\d+)\s+(?=[a-z(])/g)].map((m) => Number(m[1]));
}

describe('the exit-code table', () => {
  it('lists every code of EXIT once, in order, with a meaning', () => {
    expect(EXIT_CODE_TABLE.map((r) => r.code)).toEqual(Object.values(EXIT));
    expect(EXIT_CODE_TABLE.map((r) => EXIT[r.name])).toEqual(EXIT_CODE_TABLE.map((r) => r.code));
    for (const row of EXIT_CODE_TABLE) expect(row.meaning.length).toBeGreaterThan(20);
  });

  it("every command's --help names only codes of the table, and each names 0 and 2", async () => {
    const known = new Set<number>(EXIT_CODE_TABLE.map((r) => r.code));
    const seen: string[] = [];
    const without: string[] = [];
    for (const page of (await walkHelp()).pages) {
      const name = page.argv.join(' ');
      const codes = namedCodes(page.text);
      if (codes.length === 0) {
        without.push(name);
        continue;
      }
      seen.push(name);
      for (const code of codes) expect(known.has(code), `${name} --help names exit code ${code}`).toBe(true);
      expect(codes, name).toContain(0);
      expect(codes, name).toContain(2);
    }
    // The parser found the sections (a changed help layout must not make this test pass vacuously).
    expect(seen).toEqual(expect.arrayContaining(['cycle', 'loop', 'check-liveness', 'woterclip beat', 'runbook check', 'runbook quiet']));
    // Only the group pages, which list subcommands, say no exit codes: every command a user runs does.
    expect(without.sort()).toEqual(['fleet', 'runbook', 'woterclip']);
  });

  it('maps every WoterClip beat outcome: blocked is 1, config and usage 2, lock and file failures 3, interrupted 130, the rest 0', () => {
    const expected: Record<BeatExit, number> = {
      'config-missing': 2,
      'config-invalid': 2,
      usage: 2,
      'lock-conflict': 0,
      'breaker-open': 0,
      'lock-error': 3,
      'quiet-hours': 0,
      'dry-run': 0,
      'queue-empty': 0,
      complete: 0,
      'blocked-exit': 1,
      superseded: 0,
      withdrawn: 0,
      'time-ceiling': 0,
      'issue-budget': 0,
      interrupted: 130,
    };
    for (const [exit, code] of Object.entries(expected)) expect(beatExitCode(exit as BeatExit), exit).toBe(code);
  });
});
