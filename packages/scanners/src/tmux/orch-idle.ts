import { type Finding, sanitizeForMessage, type ScannerSliceSpec } from '@heartbeat-kit/core';
import { z } from 'zod';
import { createCoBuilderFinding } from '../categories/cobuilder-categories.js';

/** The idle-orchestrators scanner's slice: each orchestrator session's pane hash and since when it is unchanged. */
export const paneSliceSchema = z.object({
  panes: z.record(z.string(), z.object({ hash: z.string(), sinceMs: z.number() })),
});

/** What the idle-orchestrators scanner remembers across cycles. */
export type PaneSlice = z.infer<typeof paneSliceSchema>;

/** The slice spec of the idle-orchestrators scanner (version 1 is state version 2's `panes`, migrated by core). */
export const PANE_SLICE: ScannerSliceSpec<PaneSlice> = {
  version: 1,
  schema: paneSliceSchema,
  initial: () => ({ panes: {} }),
  // ~100 bytes a session: room for hundreds of orchestrators.
  maxBytes: 64 * 1024,
};

/** One orchestrator pane as captured this cycle. */
export interface PaneSeen {
  readonly session: string;
  readonly hash: string;
}

/**
 * Session names are untrusted; the renderer cleans each line but keeps line breaks, so a raw
 * newline would let a name forge a message section.
 */
const safe = (text: string): string => sanitizeForMessage(text, { maxLength: 80 });

const minutes = (ms: number): number => Math.floor(ms / 60_000);

/**
 * ORCH_IDLE from the pane hashes of this cycle and the last: a session whose hash has not changed
 * for MORE than `idleMs`: exactly 30:00 is not idle yet, the same strict bound as GIT_STALE (spec 000). Sessions not
 * seen this cycle are forgotten.
 */
export function derivePaneIdle(
  previous: PaneSlice,
  seen: readonly PaneSeen[],
  nowMs: number,
  idleMs: number,
): { readonly next: PaneSlice; readonly findings: Finding[] } {
  const panes: [string, { hash: string; sinceMs: number }][] = [];
  const findings: Finding[] = [];
  for (const pane of seen) {
    const before = Object.hasOwn(previous.panes, pane.session) ? previous.panes[pane.session] : undefined;
    const sinceMs = before !== undefined && before.hash === pane.hash ? before.sinceMs : nowMs;
    panes.push([pane.session, { hash: pane.hash, sinceMs }]);
    const quietMs = nowMs - sinceMs;
    if (quietMs > idleMs) {
      const session = safe(pane.session);
      findings.push(
        createCoBuilderFinding({
          category: 'ORCH_IDLE',
          subject: pane.session,
          line: `IDLE: ${session} (no pane change for ${minutes(quietMs)} min)`,
          action: `Check ${session}: it may be waiting for input or finished`,
          short: `${session} idle`,
          details: { session: pane.session, quietMinutes: minutes(quietMs), sinceMs },
          // The minutes grow every cycle; a pane that moved and went quiet again is a new idle spell.
          content: { sinceMs },
        }),
      );
    }
  }
  // fromEntries defines keys as own properties: a session named `__proto__` stays data.
  return { next: { panes: Object.fromEntries(panes) }, findings };
}
