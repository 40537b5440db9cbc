// A scanner's own section of the configuration: its keys (zod, with defaults and descriptions), the
// HEARTBEAT.md lines that set them and the lines that write them back. Core composes the sections a
// host passes into one schema, one markdown reader and one renderer; it knows none of them by name.
import { z } from 'zod';
import type { SectionDraft } from './heartbeat-setting-draft.js';

export type { SectionDraft } from './heartbeat-setting-draft.js';

/** What is wrong with a value and what to write instead (the end of the error sentence). */
export interface SettingProblem {
  readonly message: string;
  readonly fix: string;
}

/** What a section's setter may touch besides its value. */
export interface SectionSetterContext {
  /** The settings read so far, keyed by config key; the setter writes its key here. */
  readonly draft: SectionDraft;
  /** Adds a warning for this line (`file:line: ` is put in front). */
  readonly warn: (message: string) => void;
  /** The value before markdown marks are trimmed (a trailing `*` can be meaningful). */
  readonly raw: string;
  /** The key as a warning names it: `Section → Key` as written (`Git → Alert if`). */
  readonly key: string;
}

/**
 * Reads one HEARTBEAT.md value into the draft: returns the config key it set (for duplicate warnings
 * and error lines), undefined for a no-op, or the problem with the value (the file's error names line, key and fix).
 */
export type SectionSetter = (value: string, context: SectionSetterContext) => string | SettingProblem | undefined;

/** Where a section's HEARTBEAT.md block is written by `renderHeartbeatMarkdown`. */
export type ConfigSectionSlot = 'scan parameters' | 'tools';

/**
 * A scanner's section of the heartbeat configuration, declared beside the scanner the way its state
 * slice is (`ScannerSliceSpec`). A host passes its sections to `heartbeatConfigSchemaFor`,
 * `parseHeartbeatConfig` and `renderHeartbeatMarkdown`; a scanner reads its values with {@link readConfigSection}.
 */
export interface ConfigSection<S extends z.ZodRawShape = z.ZodRawShape> {
  /** Its keys: each a zod type with its default and a description (they reach the JSON schema). */
  readonly shape: S;
  /**
   * The core key its keys are placed before, so a composed configuration keeps one key order
   * (the committed JSON schema and `--json` outputs list keys in schema order).
   */
  readonly before: string;
  /** HEARTBEAT.md: normalized heading → section id (lower case, single spaces). */
  readonly headings?: Readonly<Record<string, string>>;
  /** HEARTBEAT.md: section id → normalized key → setter; a section id may be one of core's (`root`). */
  readonly keys?: Readonly<Record<string, Readonly<Record<string, SectionSetter>>>>;
  /** Keys of upstream's settings table, read under any heading (after the section's own keys). */
  readonly legacyKeys?: Readonly<Record<string, SectionSetter>>;
  /** Where {@link ConfigSection.render} is written; absent = nowhere. */
  readonly renderAt?: ConfigSectionSlot;
  /** Its HEARTBEAT.md lines for its values, read back by its setters to the same values. */
  render?(values: z.output<z.ZodObject<S>>): string[];
}

const objects = new WeakMap<object, z.ZodObject>();

/**
 * A section's values out of a configuration: its keys, defaults filled in (a configuration built
 * without the section, such as `DEFAULT_HEARTBEAT_CONFIG`, gives the defaults). Throws only when a
 * value does not fit its schema, which a configuration parsed with the section never does.
 */
export function readConfigSection<S extends z.ZodRawShape>(section: ConfigSection<S>, config: object): z.output<z.ZodObject<S>> {
  let schema = objects.get(section);
  if (schema === undefined) {
    schema = z.object(section.shape);
    objects.set(section, schema);
  }
  return schema.parse(config) as z.output<z.ZodObject<S>>;
}

/** The core shape with each section's keys inserted before the core key it names. */
export function composeShape(core: z.ZodRawShape, sections: readonly ConfigSection[]): z.ZodRawShape {
  const shape: Record<string, z.core.$ZodType> = {};
  const place = (keys: z.ZodRawShape, owner: string): void => {
    for (const [key, type] of Object.entries(keys)) {
      // Two owners of one key would make one of them silently win: a host's wiring bug, said at once.
      if (Object.hasOwn(shape, key) || (owner !== 'core' && Object.hasOwn(core, key)))
        throw new Error(`config key ${key} is declared twice (${owner})`);
      shape[key] = type;
    }
  };
  for (const section of sections)
    if (!Object.hasOwn(core, section.before)) throw new Error(`config section placed before unknown key ${section.before}`);
  for (const [key, type] of Object.entries(core)) {
    for (const section of sections) if (section.before === key) place(section.shape, `section before ${key}`);
    place({ [key]: type }, 'core');
  }
  return shape;
}
