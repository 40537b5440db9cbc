import { afterEach, describe, expect, it } from 'vitest';
import { config, z } from 'zod';
import { preferJitlessZod } from './zod-jitless.js';

describe('preferJitlessZod', () => {
  afterEach(() => {
    config({ jitless: false });
  });

  it("sets zod's own jitless setting (the contract the bin relies on: a zod upgrade that moves it fails here)", () => {
    config({ jitless: false });
    preferJitlessZod();
    expect(config().jitless).toBe(true);
  });

  it('parses without compiling: no Function constructor is called for an object schema', () => {
    preferJitlessZod();
    const schema = z.object({ a: z.string(), b: z.number().optional() });
    const original = globalThis.Function;
    let compiled = 0;
    globalThis.Function = new Proxy(original, {
      construct(target, args: string[]) {
        compiled += 1;
        return Reflect.construct(target, args);
      },
    });
    try {
      expect(schema.parse({ a: 'x', b: 1 })).toEqual({ a: 'x', b: 1 });
      expect(schema.safeParse({ a: 1 }).success).toBe(false);
    } finally {
      globalThis.Function = original;
    }
    expect(compiled).toBe(0);
  });
});
