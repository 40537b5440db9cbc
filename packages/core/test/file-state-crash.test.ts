/**
 * Must show: a process saving state is SIGKILLed inside a save — with the temp file just created,
 * half written, complete but not renamed, and renamed but the directory not yet synced — and
 * after every kill the file parses and holds exactly the previous or the new counter, the next
 * writer resumes from it, and the next load sweeps the killed writer's temp file.
 *
 * The child stops at each point and says so before the parent kills it, so the kill lands there
 * on any machine at any load. The loop of hundreds of kills at random moments lives in the stress
 * harness (`pnpm stress state-kills`, stress/scenarios/state-kills.mjs).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileStateStore } from '../src/node/index.js';
import { bundleChild, type BundledChild } from './support/bundle-child.js';

let bundle: BundledChild;
let root: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'hb-core-crash-'));
  bundle = await bundleChild(fileURLToPath(new URL('./children/state-writer.ts', import.meta.url)));
});

afterAll(() => {
  bundle.dispose();
  rmSync(root, { recursive: true, force: true });
});

/** Where inside a save the child stops; see children/state-writer.ts. */
type Point = 'created' | 'half' | 'written' | 'renamed';

interface RunOutcome {
  readonly lines: readonly string[];
  readonly signal: NodeJS.Signals | null;
}

/** Starts the writer, SIGKILLs it once it says it stopped at `point` of save number `save`. */
function runAndKill(path: string, point: Point, save: number): Promise<RunOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bundle.file, path, point, String(save)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let buffered = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buffered += chunk;
      if (buffered.includes('paused ') || buffered.includes('error ')) child.kill('SIGKILL');
    });
    child.once('error', reject);
    child.once('close', (_code, signal) => resolve({ lines: buffered.split('\n').filter((line) => line !== ''), signal }));
  });
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

const temps = (dir: string): readonly string[] => readdirSync(dir).filter((name) => name.includes('.tmp-'));

const POINTS: readonly Point[] = ['created', 'half', 'written', 'renamed'];

describe('file state store under SIGKILL', () => {
  it.each([1, 3])(
    'a kill at each step of save number %i leaves the previous or the new document, never a torn or lost one',
    async (save) => {
      const dir = mkdtempSync(join(root, `save-${save}-`));
      const path = join(dir, 'state.json');
      let expected = 0;
      for (const point of POINTS) {
        const where = `${point} in save ${save}`;
        const outcome = await runAndKill(path, point, save);
        expect(outcome.signal, where).toBe('SIGKILL');
        expect(
          outcome.lines.filter((line) => line.startsWith('error') || line.startsWith('warning')),
          where,
        ).toEqual([]);
        // The writer resumed from exactly what the previous kill left.
        expect(outcome.lines[0], where).toBe(`loaded ${expected}`);
        const writing = expected + save;
        expect(outcome.lines.at(-1), where).toBe(`paused ${point} ${writing}`);
        const text = readText(path);
        const landed = point === 'renamed' ? writing : writing - 1;
        if (landed === 0) {
          // Killed inside the very first save: no file is the only right answer.
          expect(text, where).toBeUndefined();
        } else {
          const document = JSON.parse(text ?? 'missing') as { counter: number; checksum: number; padding: string };
          expect(document.counter, where).toBe(landed);
          expect(document.checksum, where).toBe(landed * 7);
          expect(document.padding, where).toHaveLength(20_000);
        }
        // Before the rename the killed writer's temp file is left behind (half written for `half`).
        expect(temps(dir), where).toHaveLength(point === 'renamed' ? 0 : 1);
        expected = landed;
      }
      // A load (what the next heartbeat does first) sweeps temp files of killed writers.
      const reloaded = (await createFileStateStore({ path }).load())._unsafeUnwrap();
      expect(reloaded.warnings).toEqual([]);
      expect((reloaded.document as { counter: number }).counter).toBe(expected);
      expect(temps(dir)).toEqual([]);
    },
  );
});
