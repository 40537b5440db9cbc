#!/usr/bin/env node
// A fake agent CLI for dispatch tests. argv: <mode> <model> [max_turns]. Reads the prompt from
// stdin, records it next to AGENT_LOG (when set), and answers per mode.
import { appendFileSync, readFileSync } from 'node:fs';

const [mode, model] = process.argv.slice(2);
const prompt = readFileSync(0, 'utf8');
if (process.env.AGENT_LOG) appendFileSync(process.env.AGENT_LOG, `${JSON.stringify({ mode, model, promptLength: prompt.length, hasContract: prompt.includes('WOTERCLIP_OUTCOME') })}\n`);
if (mode === 'refuse') {
  process.stderr.write(`error: model override ${model} rejected\n`);
  process.exit(125);
}
if (mode === 'crash') {
  process.stdout.write('started work, committed abc1234\n');
  process.exit(1);
}
if (mode === 'garbage') {
  process.stdout.write('I finished, trust me.\n');
  process.exit(0);
}
process.stdout.write(`Working as ${model}...\nWOTERCLIP_OUTCOME ${JSON.stringify({ status: 'completed', summary: `done on ${model}`, commits: [{ sha: 'a1b2c3d', message: 'feat: thing' }], model_used: model })}\n`);
