/**
 * Commands that run for minutes or days: they keep V8's defaults (young generation grows, optimizing
 * tiers on). `mcp` serves an agent over stdio for as long as its session lasts.
 */
const LONG_LIVED = new Set(['loop', 'fleet', 'mcp']);

/**
 * One-shot commands whose own JavaScript is the work, over a file of any size: they keep the compiling
 * tiers. `replay` of 3,000 recorded cycles took 1.4× as long without them (2.7 vs 1.9 s).
 */
const OWN_CPU = new Set(['replay']);

/**
 * V8 flags the bin sets for a one-shot command (`cycle`, `history`, …) before it loads the command:
 * a young generation that stays at its first size (`--semi-space-growth-factor=1`), tier-up held
 * back (`--interrupt-budget`), and neither of V8's compiling tiers (`--no-opt`: TurboFan,
 * `--no-sparkplug`: the baseline compiler), so a process that lives about a second neither grows its
 * heap to 8 MiB nor spends memory and a core on machine code it will barely run: its JavaScript is
 * mostly parsing tool output between the tools' exits. Measured on the bench's ×1 and ×10 worlds
 * (docs/performance.md, bench/compare-builds.mjs): peak RSS 61.9 → 57.6 MiB (×1) and 69.0 → 63.8 MiB
 * (×10), cycle no slower (×0.93, ×0.81). Not `--lite-mode`: it implies `--jitless`, under which
 * V8 aborts the process when `fetch` compiles undici's WebAssembly parser (webhook sinks, pings).
 * Set at run time, not in the shebang: `#!/usr/bin/env -S node …` is not portable, and V8 reads
 * these flags when it decides (each young-generation resize, each function's tier-up).
 */
export function oneShotV8Flags(command: string | undefined): readonly string[] {
  if (!isOneShotCommand(command)) return [];
  const small = ['--semi-space-growth-factor=1', '--interrupt-budget=1000000'];
  return command !== undefined && OWN_CPU.has(command) ? small : [...small, '--no-opt', '--no-sparkplug'];
}

/** Whether the bin tunes `command` for a process that lives about a second (everything but `loop`, `fleet` and `mcp`). */
export function isOneShotCommand(command: string | undefined): boolean {
  return command === undefined || !LONG_LIVED.has(command);
}
