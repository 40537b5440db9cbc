/** zod's configuration as zod 4 keeps it on `globalThis`, shared by every copy of zod in the process. */
interface ZodGlobal {
  __zod_globalConfig?: { jitless?: boolean };
}

/**
 * Turns zod's compiled object parsers off for a one-shot command, before the command loads zod:
 * zod 4 builds each object schema's parser with `new Function` on its first parse, which pays in
 * a loop parsing the same state for days and costs a one-shot `cycle` that parses each schema
 * once or twice ≈ 25 ms of CPU (docs/performance.md). zod reads this setting on every parse and
 * keeps it on `globalThis`, so it reaches the copy bundled into the bin; zod-jitless.test.ts pins
 * that contract against zod's own `config()`.
 */
export function preferJitlessZod(): void {
  const holder = globalThis as ZodGlobal;
  holder.__zod_globalConfig ??= {};
  holder.__zod_globalConfig.jitless = true;
}
