/** Commands that run for minutes or days: they keep V8's defaults (young generation grows, TurboFan early). */
const LONG_LIVED = new Set(['loop', 'fleet']);

/**
 * V8 flags the bin sets for a one-shot command (`cycle`, `history`, …) before it loads the command:
 * a young generation that stays at its first size (`--semi-space-growth-factor=1`) and TurboFan
 * held back 15× longer (`--interrupt-budget`), so a process that lives about a second neither grows
 * its heap to 8 MiB nor compiles optimized code it will barely run. Measured on the bench's ×1
 * world (docs/performance.md): peak RSS 65.4 → 56.9 MiB, wall and CPU no worse. Set at run time,
 * not in the shebang: `#!/usr/bin/env -S node …` is not portable, and V8 reads both flags when it
 * decides (each young-generation resize, each new function's budget), so they take effect late.
 */
export function oneShotV8Flags(command: string | undefined): readonly string[] {
  return isOneShotCommand(command) ? ['--semi-space-growth-factor=1', '--interrupt-budget=1000000'] : [];
}

/** Whether the bin tunes `command` for a process that lives about a second (everything but `loop` and `fleet`). */
export function isOneShotCommand(command: string | undefined): boolean {
  return command === undefined || !LONG_LIVED.has(command);
}
