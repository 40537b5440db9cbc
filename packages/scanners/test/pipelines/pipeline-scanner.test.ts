import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CommandRequest, CommandRunner, ScanResult } from '@heartbeat-kit/core';
import { createNodePipelineFiles } from '@heartbeat-kit/scanners/node';
import { computeDashboard, createPipelineScanner, parseDot, type PipelineFiles } from '@heartbeat-kit/scanners';
import { errAsync, okAsync } from 'neverthrow';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeContext } from '../support/context.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'attractor');
const NOW = new Date('2026-11-29T20:48:21.123Z');

function ok(result: ScanResult): Extract<ScanResult, { status: 'ok' }> {
  if (result.status !== 'ok') throw new Error(`expected ok, got ${JSON.stringify(result)}`);
  return result;
}

/** The stage of each pipeline the scanner keeps in its slice (what PIPELINE_FINALIZED is derived from). */
function stagesOf(result: Extract<ScanResult, { status: 'ok' }>): Record<string, string> {
  const data = result.slice?.data as { stages?: Record<string, string> } | undefined;
  if (data?.stages === undefined) throw new Error(`expected a pipeline slice, got ${JSON.stringify(result.slice)}`);
  return data.stages;
}

let root: string;
let pipelines: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'hb-pipelines-'));
  pipelines = join(root, '.pipelines', 'pipelines');
  await mkdir(pipelines, { recursive: true });
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function copyFixture(name: string, as = name): Promise<string> {
  const text = await readFile(join(FIXTURES, name), 'utf8');
  await writeFile(join(pipelines, as), text);
  return text;
}

const harness = (text: string) => {
  const graph = parseDot(text);
  if (graph.isErr()) throw new Error('fixture must parse');
  return computeDashboard(graph.value, NOW);
};

describe('dashboard golden results (reference cobuilder.md §6.7)', () => {
  it('harness-style fixture: Implementation, {validated:1, active:1, pending:3}, promise 0/1', async () => {
    const dashboard = harness(await readFile(join(FIXTURES, 'pipeline-harness-style.dot'), 'utf8'));
    expect(dashboard).toEqual({
      graph_name: 'PRD-SCANNERS-001',
      prd_ref: 'PRD-SCANNERS-001',
      pipeline_stage: 'Implementation',
      status_distribution: { validated: 1, active: 1, pending: 3 },
      total_nodes: 5,
      promise_progress: { validated: 0, total: 1, percentage: 0, status_label: '0/1' },
      estimated_completion: 'N/A (no checkpoint data)',
      worker_type_distribution: { 'backend-solutions-engineer': 1 },
      nodes: [
        { node_id: 'start', handler: 'start', status: 'validated', worker_type: '', bead_id: '', label: 'PARSE PRD-SCANNERS-001' },
        {
          node_id: 'impl_tmux',
          handler: 'codergen',
          status: 'active',
          worker_type: 'backend-solutions-engineer',
          bead_id: 'bd-a3f8.1',
          label: 'Implement tmux scanner',
        },
        {
          node_id: 'validate_tmux',
          handler: 'wait.human',
          status: 'pending',
          worker_type: '',
          bead_id: 'AT-1',
          label: 'Validate tmux (technical)',
        },
        { node_id: 'decision', handler: 'conditional', status: 'pending', worker_type: '', bead_id: '', label: 'Validation?' },
        { node_id: 'finalize', handler: 'exit', status: 'pending', worker_type: '', bead_id: '', label: 'FINALIZE' },
      ],
      generated_at: '2026-11-29T20:48:21.123000+00:00',
    });
    expect(Object.keys(dashboard.status_distribution)).toEqual(['validated', 'active', 'pending']);
  });

  it('spec-style (canonical) fixture: Definition with promise 0/0, no handlers understood', async () => {
    const dashboard = harness(await readFile(join(FIXTURES, 'pipeline-spec-style.dot'), 'utf8'));
    const labels = ['Start', 'Exit', 'Plan', 'Implement', 'Run Tests', 'Tests passing?', 'Review Changes', 'Parallel lint', 'Join'];
    const ids = ['start', 'exit', 'plan', 'implement', 'run_tests', 'check', 'review', 'fanout', 'fanin'];
    expect(dashboard).toEqual({
      graph_name: 'ScanPipeline',
      prd_ref: '',
      pipeline_stage: 'Definition',
      status_distribution: { pending: 9 },
      total_nodes: 9,
      promise_progress: { validated: 0, total: 0, percentage: 0, status_label: '0/0' },
      estimated_completion: 'N/A (no checkpoint data)',
      worker_type_distribution: {},
      nodes: ids.map((node_id, i) => ({ node_id, handler: '', status: 'pending', worker_type: '', bead_id: '', label: labels[i] })),
      generated_at: '2026-11-29T20:48:21.123000+00:00',
    });
  });
});

describe('createPipelineScanner over real files (Node adapter)', () => {
  const scanner = (files: PipelineFiles = createNodePipelineFiles()) => createPipelineScanner({ cwd: root, files });

  it('is a pipelines scanner that does not run outside active hours', async () => {
    expect(scanner()).toMatchObject({ name: 'pipelines', runsOutsideActiveHours: false });
    expect((await scanner().scan(makeContext({ now: NOW, insideActiveHours: false }))).status).toBe('skipped');
  });

  it('reads both fixtures and observes each pipeline; a healthy pipeline gives no finding', async () => {
    await copyFixture('pipeline-harness-style.dot');
    await copyFixture('pipeline-spec-style.dot');
    const result = ok(await scanner().scan(makeContext({ now: NOW })));
    expect(stagesOf(result)).toEqual({ 'PRD-SCANNERS-001': 'Implementation', ScanPipeline: 'Definition' });
    expect(result.findings).toEqual([]);
    expect(result.warnings).toEqual([]);
  });

  it('reports a failed node and a stalled implementation from an edited fixture', async () => {
    const text = await readFile(join(FIXTURES, 'pipeline-harness-style.dot'), 'utf8');
    await writeFile(join(pipelines, 'p.dot'), text.replace('status="active"', 'status="failed"'));
    const result = ok(await scanner().scan(makeContext({ now: NOW })));
    expect(result.findings.map((f) => [f.category, f.subject])).toEqual([
      ['PIPELINE_NODE_FAILED', 'PRD-SCANNERS-001:impl_tmux'],
      ['PIPELINE_STALLED', 'PRD-SCANNERS-001:Implementation'],
    ]);
    expect(result.findings[0]?.action).toBe('Re-trigger failed nodes or inspect bead bd-a3f8.1');
  });

  it('reports validation stalled when implementation is complete and the gate waits', async () => {
    const text = await readFile(join(FIXTURES, 'pipeline-harness-style.dot'), 'utf8');
    await writeFile(join(pipelines, 'p.dot'), text.replace('status="active"', 'status="impl_complete"'));
    const result = ok(await scanner().scan(makeContext({ now: NOW })));
    expect(stagesOf(result)).toEqual({ 'PRD-SCANNERS-001': 'Validation' });
    expect(result.findings.map((f) => [f.category, f.subject])).toEqual([['PIPELINE_VALIDATION_STALLED', 'PRD-SCANNERS-001:Validation']]);
  });

  it('treats a missing pipeline directory as nothing to report', async () => {
    await rm(join(root, '.pipelines'), { recursive: true });
    const result = ok(await scanner().scan(makeContext({ now: NOW })));
    expect(result).toMatchObject({ findings: [], warnings: [] });
    expect(stagesOf(result)).toEqual({});
  });

  it('reads only visible *.dot files, in name order', async () => {
    await copyFixture('pipeline-spec-style.dot', 'b.dot');
    await writeFile(join(pipelines, 'a.dot'), 'digraph A { n [status=active] }');
    await writeFile(join(pipelines, '.hidden.dot'), 'digraph H { n [status=failed] }');
    await writeFile(join(pipelines, 'notes.txt'), 'digraph T { n [status=failed] }');
    await mkdir(join(pipelines, 'dir.dot'));
    const result = ok(await scanner().scan(makeContext({ now: NOW })));
    expect(Object.keys(stagesOf(result))).toEqual(['A', 'ScanPipeline']);
    expect(result.warnings).toEqual([]);
  });

  it('turns hostile files into per-file warnings while the others still work', async () => {
    await copyFixture('pipeline-harness-style.dot', 'good.dot');
    await writeFile(join(pipelines, 'huge-label.dot'), `digraph H { a [label="${'A'.repeat(300_000)}", status=failed] }`);
    await writeFile(join(pipelines, 'open-quote.dot'), 'digraph Q {\n a [label="never closed]\n}\n');
    await writeFile(join(pipelines, 'escapes.dot'), 'digraph "E\\"x" { a [label="\\\\\\"\\n\u001b[31m", status=failed] }');
    await writeFile(join(pipelines, 'not-dot.dot'), '\u0000\u0001 binary junk {{{ [[[');
    await writeFile(join(pipelines, 'comment.dot'), 'digraph C { /* open');
    const result = ok(await scanner().scan(makeContext({ now: NOW })));
    expect(result.warnings.map((w) => [w.code, w.message])).toEqual([
      ['PIPELINE_FILE_FAILED', 'comment.dot: cannot parse: line 1: unterminated /* comment'],
      ['PIPELINE_FILE_FAILED', "not-dot.dot: cannot parse: line 1: expected 'digraph'"],
      ['PIPELINE_FILE_FAILED', 'open-quote.dot: cannot parse: line 2: unterminated quoted string'],
    ]);
    expect(Object.keys(stagesOf(result))).toEqual(['E"x', 'PRD-SCANNERS-001', 'H']);
    for (const finding of result.findings) {
      expect(finding.line.length).toBeLessThan(300);
      expect(finding.line).not.toContain('\u001b');
    }
  });

  it('refuses a file above the adapter size limit as a per-file warning', async () => {
    await copyFixture('pipeline-spec-style.dot', 'ok.dot');
    await writeFile(join(pipelines, 'big.dot'), `digraph B { a [label="${'x'.repeat(5000)}"] }`);
    const result = ok(
      await createPipelineScanner({ cwd: root, files: createNodePipelineFiles({ maxBytes: 4096 }) }).scan(makeContext({ now: NOW })),
    );
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]?.message).toMatch(/^big\.dot: cannot read: file too large/);
  });

  it('is an error only when every pipeline fails', async () => {
    await writeFile(join(pipelines, 'x.dot'), 'graph X { }');
    await writeFile(join(pipelines, 'y.dot'), 'digraph Y { a [');
    const result = await scanner().scan(makeContext({ now: NOW }));
    expect(result).toMatchObject({ scanner: 'pipelines', status: 'error' });
    expect(result.status === 'error' ? result.error : '').toContain('x.dot');
  });

  it('names an anonymous graph after its file and skips a duplicate graph name with a warning', async () => {
    await writeFile(join(pipelines, 'anon.dot'), 'digraph { a [status=active] }');
    await writeFile(join(pipelines, 'one.dot'), 'digraph Same { a [status=active] }');
    await writeFile(join(pipelines, 'two.dot'), 'digraph Same { a [status=failed] }');
    const result = ok(await scanner().scan(makeContext({ now: NOW })));
    expect(Object.keys(stagesOf(result))).toEqual(['anon', 'Same']);
    expect(result.warnings.map((w) => w.code)).toEqual(['PIPELINE_DUPLICATE_NAME']);
  });

  it('never rejects when an injected port throws synchronously', async () => {
    const files: PipelineFiles = {
      list: () => {
        throw new Error('boom');
      },
      read: () => Promise.reject(new Error('unused')),
    };
    expect(await scanner(files).scan(makeContext({ now: NOW }))).toMatchObject({
      status: 'error',
      error: expect.stringContaining('boom') as unknown,
    });
  });

  it('reports a listing failure as an error', async () => {
    await rm(pipelines, { recursive: true });
    await writeFile(pipelines, 'a file where the directory should be');
    // ENOTDIR on the directory itself is "no pipelines", like a missing directory.
    expect((await scanner().scan(makeContext({ now: NOW }))).status).toBe('ok');
    const files: PipelineFiles = { list: () => Promise.reject(new Error('EACCES')), read: () => Promise.reject(new Error('unused')) };
    expect(await scanner(files).scan(makeContext({ now: NOW }))).toMatchObject({
      status: 'error',
      error: expect.stringContaining('EACCES') as unknown,
    });
  });
});

describe('createPipelineScanner with a dashboard command', () => {
  function fakeRunner(
    reply: (request: CommandRequest) => ReturnType<CommandRunner['run']>,
  ): CommandRunner & { requests: CommandRequest[] } {
    const requests: CommandRequest[] = [];
    return {
      requests,
      run: (request) => {
        requests.push(request);
        return reply(request);
      },
    };
  }

  const config = { pipelineDashboardCommand: ['python3', 'dashboard.py'] };

  it('runs `[...prefix, file.dot, --output, json]` per pipeline and uses its JSON', async () => {
    const text = await copyFixture('pipeline-harness-style.dot', 'h.dot');
    const json = JSON.stringify({
      ...harness(text),
      pipeline_stage: 'Implementation',
      nodes: harness(text).nodes.map((n) => ({ ...n, status: n.status === 'active' ? 'impl_complete' : n.status })),
    });
    const runner = fakeRunner(() => okAsync({ exitCode: 0, stdout: `${json}\n`, stderr: '', durationMs: 5 }));
    const result = ok(
      await createPipelineScanner({ cwd: root, files: createNodePipelineFiles(), runner }).scan(makeContext({ now: NOW, config })),
    );
    expect(runner.requests).toEqual([{ file: 'python3', args: ['dashboard.py', join(pipelines, 'h.dot'), '--output', 'json'], cwd: root }]);
    expect(stagesOf(result)).toEqual({ 'PRD-SCANNERS-001': 'Implementation' });
    expect(result.durationMs).toBe(5);
    // The command's rows, not the file, decide the findings.
    expect(result.findings.map((f) => f.category)).toEqual(['PIPELINE_VALIDATION_STALLED', 'PIPELINE_STALLED']);
  });

  it('turns a non-zero exit, bad JSON, a wrong shape or a runner error into per-file warnings', async () => {
    for (const name of ['a.dot', 'b.dot', 'c.dot', 'd.dot', 'e.dot']) await writeFile(join(pipelines, name), 'digraph X { }');
    const good = JSON.stringify(harness(await readFile(join(FIXTURES, 'pipeline-harness-style.dot'), 'utf8')));
    const runner = fakeRunner((request) => {
      const file = request.args[1] ?? '';
      if (file.endsWith('a.dot')) return okAsync({ exitCode: 1, stdout: '', stderr: `Error parsing ${file}: boom\ntrace`, durationMs: 1 });
      if (file.endsWith('b.dot')) return okAsync({ exitCode: 0, stdout: 'Traceback (most recent call last)', stderr: '', durationMs: 1 });
      if (file.endsWith('c.dot')) return okAsync({ exitCode: 0, stdout: '{"graph_name": 3}', stderr: '', durationMs: 1 });
      if (file.endsWith('d.dot')) return errAsync({ kind: 'not-found' as const, file: 'python3', message: 'ENOENT' });
      return okAsync({ exitCode: 0, stdout: good, stderr: '', durationMs: 1 });
    });
    const result = ok(
      await createPipelineScanner({ cwd: root, files: createNodePipelineFiles(), runner }).scan(makeContext({ now: NOW, config })),
    );
    expect(Object.keys(stagesOf(result))).toHaveLength(1);
    expect(result.warnings.map((w) => w.message.split(':')[0])).toEqual(['a.dot', 'b.dot', 'c.dot', 'd.dot']);
    expect(result.warnings[0]?.message).toContain('exited 1');
    expect(result.warnings[0]?.message).not.toContain('trace');
    expect(result.warnings[1]?.message).toContain('not JSON');
    expect(result.warnings[2]?.message).toContain('unexpected shape');
    expect(result.warnings[3]?.message).toContain('not-found');
  });

  it('is an error when a command is configured without a runner', async () => {
    await copyFixture('pipeline-spec-style.dot');
    const result = await createPipelineScanner({ cwd: root, files: createNodePipelineFiles() }).scan(makeContext({ now: NOW, config }));
    expect(result.status).toBe('error');
  });
});
