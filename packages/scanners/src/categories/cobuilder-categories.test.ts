import { heartbeatConfigSchema } from '@heartbeat-kit/core';
import { heartbeatConfigSchemaFor } from '@heartbeat-kit/core/host';
import { describe, expect, it } from 'vitest';
import {
  CATEGORY_INFO,
  COBUILDER_CATEGORIES,
  createCoBuilderFinding,
  DEFAULT_CATEGORIES,
  isCoBuilderCategory,
} from './cobuilder-categories.js';

describe('the CoBuilder categories', () => {
  it('the table holds exactly the closed set, and only those are CoBuilder categories', () => {
    expect([...DEFAULT_CATEGORIES.names].sort()).toEqual([...COBUILDER_CATEGORIES].sort());
    expect(COBUILDER_CATEGORIES.every(isCoBuilderCategory)).toBe(true);
    expect(isCoBuilderCategory('QUEUE_RISING')).toBe(false);
  });

  it('a finding of a CoBuilder category takes its priority from the table', () => {
    for (const category of COBUILDER_CATEGORIES) {
      const finding = createCoBuilderFinding({ category, subject: 's', line: 'l', action: 'a', short: 's' });
      expect(finding.priority).toBe(CATEGORY_INFO[category].priority);
    }
  });

  // Core's config schema reserves the categories of the table a host passes (the CLI passes this one).
  it.each([...COBUILDER_CATEGORIES])('core refuses %s as a check category', (category) => {
    const parsed = heartbeatConfigSchemaFor({ categories: DEFAULT_CATEGORIES }).safeParse({
      checks: [{ name: 'disk', run: ['df'], category }],
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.message)).toContain('is a built-in category');
  });

  it('core knows no category by name: without a table a check may take a CoBuilder name', () => {
    expect(heartbeatConfigSchema.safeParse({ checks: [{ name: 'disk', run: ['df'], category: 'WORK_READY' }] }).success).toBe(true);
  });
});
