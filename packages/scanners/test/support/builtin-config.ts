// The configuration the CLI reads: core's keys plus the built-in scanners' config sections. The
// HEARTBEAT.md tests of the whole file use these in place of core's core-only functions.
import {
  type HeartbeatConfig,
  type HeartbeatConfigError,
  type ParsedHeartbeatConfig,
  parseHeartbeatConfig as parseCore,
} from '@heartbeat-kit/core';
import {
  type ConfigSection,
  heartbeatConfigSchemaFor,
  type ParseHeartbeatConfigOptions,
  renderHeartbeatMarkdown as renderCore,
} from '@heartbeat-kit/core/host';
import type { Result } from 'neverthrow';
import type { z } from 'zod';
import {
  BUILTIN_CONFIG_SECTIONS,
  type BEADS_CONFIG,
  type GCHAT_CONFIG,
  type GIT_CONFIG,
  type IDLE_ORCHESTRATORS_CONFIG,
  type ORCHESTRATORS_CONFIG,
  type PIPELINES_CONFIG,
  type STALE_TASKS_CONFIG,
} from '../../src/builtin-config-sections.js';

type Values<T> = T extends ConfigSection<infer S> ? z.output<z.ZodObject<S>> : never;

/** Core's keys and the built-in sections' keys. */
export type BuiltinHeartbeatConfig = HeartbeatConfig &
  Values<typeof BEADS_CONFIG> &
  Values<typeof ORCHESTRATORS_CONFIG> &
  Values<typeof GIT_CONFIG> &
  Values<typeof STALE_TASKS_CONFIG> &
  Values<typeof IDLE_ORCHESTRATORS_CONFIG> &
  Values<typeof GCHAT_CONFIG> &
  Values<typeof PIPELINES_CONFIG>;

/** A parsed HEARTBEAT.md with the built-in sections' keys. */
export type ParsedBuiltinConfig = Omit<ParsedHeartbeatConfig, 'config'> & { readonly config: BuiltinHeartbeatConfig };

/** The composed schema (core's keys and the built-in sections'), typed with the sections' keys. */
export const heartbeatConfigSchema = heartbeatConfigSchemaFor({ sections: BUILTIN_CONFIG_SECTIONS }) as unknown as z.ZodType<
  BuiltinHeartbeatConfig,
  unknown
>;

/** The defaults of the composed schema. */
export const DEFAULT_HEARTBEAT_CONFIG = heartbeatConfigSchema.parse({});

/** `parseHeartbeatConfig` with the built-in sections. */
export function parseHeartbeatConfig(
  markdown: string | undefined,
  options: ParseHeartbeatConfigOptions = {},
): Result<ParsedBuiltinConfig, HeartbeatConfigError> {
  return parseCore(markdown, { ...options, sections: BUILTIN_CONFIG_SECTIONS }) as Result<ParsedBuiltinConfig, HeartbeatConfigError>;
}

/** `renderHeartbeatMarkdown` with the built-in sections. */
export function renderHeartbeatMarkdown(config?: HeartbeatConfig): string {
  return renderCore(config, { sections: BUILTIN_CONFIG_SECTIONS });
}
