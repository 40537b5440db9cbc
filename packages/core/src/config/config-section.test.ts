import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readConfigSection, type ConfigSection } from './config-section.js';
import { heartbeatConfigSchema, heartbeatConfigSchemaFor } from './heartbeat-config-schema.js';
import { parseHeartbeatConfig } from './heartbeat-markdown-parser.js';
import { renderHeartbeatMarkdown } from './heartbeat-markdown-renderer.js';
import { duration } from './heartbeat-value-readers.js';

const widgetShape = { widgetMs: z.number().int().positive().default(60_000).describe('How old a widget may get (ms).') };
const widgetAlert = duration('widgetMs', 'm', '5 minutes');

// A section as a scanner package declares one, beside its scanner.
const WIDGET: ConfigSection<typeof widgetShape> = {
  shape: widgetShape,
  before: 'operatorIdleMs',
  headings: { widgets: 'widgets', widget: 'widgets' },
  keys: { widgets: { 'alert if': widgetAlert } },
  legacyKeys: { 'widget minutes': duration('widgetMs', 'm', '5', 'value') },
  renderAt: 'scan parameters',
  render: ({ widgetMs }) => ['### Widgets', `- Alert if: older than ${widgetMs / 60_000} minutes`, ''],
};
const SECTIONS = [WIDGET];

describe('config sections', () => {
  it('puts a section’s keys before the core key it names, and checks them with the rest', () => {
    const schema = heartbeatConfigSchemaFor({ sections: SECTIONS });
    const keys = Object.keys(schema.parse({}));
    expect(keys.indexOf('widgetMs')).toBe(keys.indexOf('operatorIdleMs') - 1);
    expect(keys.filter((key) => key !== 'widgetMs')).toEqual(Object.keys(heartbeatConfigSchema.parse({})));
    expect(schema.safeParse({ widgetMs: -1 }).success).toBe(false);
    expect(heartbeatConfigSchema.safeParse({ widgetMs: 1 }).success).toBe(false); // core alone does not know it
    expect(heartbeatConfigSchemaFor({ sections: SECTIONS })).toBe(schema);
  });

  it('refuses a key declared twice or a placement before an unknown key', () => {
    expect(() => heartbeatConfigSchemaFor({ sections: [WIDGET, { ...WIDGET }] })).toThrow(/widgetMs is declared twice/);
    expect(() => heartbeatConfigSchemaFor({ sections: [{ ...WIDGET, shape: { intervalMs: z.number() } }] })).toThrow(/intervalMs/);
    expect(() => heartbeatConfigSchemaFor({ sections: [{ ...WIDGET, before: 'nope' }] })).toThrow(/unknown key nope/);
  });

  it('reads a section’s headings, keys and legacy keys from HEARTBEAT.md, with located errors', () => {
    const parsed = parseHeartbeatConfig('## Widget\n- Alert if: older than 2 hours\n', { sections: SECTIONS })._unsafeUnwrap();
    expect(parsed.warnings).toEqual([]);
    expect(readConfigSection(WIDGET, parsed.config).widgetMs).toBe(7_200_000);
    const legacy = parseHeartbeatConfig('- Widget minutes: 7\n', { sections: SECTIONS })._unsafeUnwrap();
    expect(readConfigSection(WIDGET, legacy.config).widgetMs).toBe(420_000);
    const error = parseHeartbeatConfig('## Widgets\n- Alert if: soon\n', { sections: SECTIONS })._unsafeUnwrapErr();
    expect(error).toMatchObject({ line: 2, key: 'Widgets → Alert if', value: 'soon' });
    // Without the section its heading is unknown: a warning, never an error.
    expect(parseHeartbeatConfig('## Widgets\n- Alert if: soon\n')._unsafeUnwrap().warnings).toEqual([
      '.claude/HEARTBEAT.md:1: unknown section "Widgets" — its lines are ignored.',
    ]);
  });

  it('renders a section’s lines in its slot, and they read back to the same values', () => {
    const config = heartbeatConfigSchemaFor({ sections: SECTIONS }).parse({ widgetMs: 180_000 });
    const text = renderHeartbeatMarkdown(config, { sections: SECTIONS });
    expect(text).toContain('### Widgets\n- Alert if: older than 3 minutes\n');
    expect(text.indexOf('### Widgets')).toBeLessThan(text.indexOf('## Heartbeat'));
    expect(parseHeartbeatConfig(text, { sections: SECTIONS })._unsafeUnwrap().config).toEqual(config);
    expect(renderHeartbeatMarkdown()).not.toContain('Widgets');
  });

  it('gives a section’s defaults for a configuration built without it', () => {
    expect(readConfigSection(WIDGET, heartbeatConfigSchema.parse({}))).toEqual({ widgetMs: 60_000 });
  });
});
