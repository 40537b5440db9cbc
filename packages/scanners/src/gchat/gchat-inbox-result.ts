import { type ScanResult, type ScanWarning, scanOk } from '@heartbeat-kit/core';
import type { OutputSpool, ReplyInbox } from '@heartbeat-kit/core/host';
import type { SpoolVerdict } from './judge-spool.js';

// The GChat scanner's steps after the poll: what the inbox and the spools make of its result.
const NAME = 'gchat';

/**
 * Removes (or sets aside) the spools whose replies the inbox now holds; their warnings. Called only
 * after the inbox write succeeded: until then a spool is the only copy and stays for the next cycle.
 */
export async function settleSpools(spool: OutputSpool, verdicts: readonly SpoolVerdict[]): Promise<ScanWarning[]> {
  const warnings: ScanWarning[] = [];
  for (const verdict of verdicts) {
    if (verdict.then === 'remove') {
      const removed = await spool.remove(verdict.id);
      if (removed.isErr())
        warnings.push({
          code: 'GCHAT_SPOOL_UNWRITABLE',
          message: `${removed.error.message}; its replies are in the inbox and will not be delivered twice`,
          fix: 'make the directory of the state file writable',
        });
      continue;
    }
    // Renamed, never deleted: no later listing picks it up again.
    const aside = await spool.setAside(verdict.id);
    const why = verdict.why ?? 'could not be read';
    warnings.push({
      code: verdict.code ?? 'GCHAT_SPOOL_SET_ASIDE',
      // Named by where it is now: the file the operator opens.
      message: aside.isOk()
        ? `GChat poll output set aside as ${aside.value}: ${why}`
        : `GChat poll output ${verdict.id} could not be set aside (${aside.error.message}): ${why}`,
      fix: aside.isOk()
        ? (verdict.fix ?? 'read that file, act on its replies by hand, then delete it')
        : 'make the directory of the state file writable',
    });
  }
  return warnings;
}

/** `result` with more warnings (an ok result carries them; a skip or an error has its own reason). */
export function withWarnings(result: ScanResult, warnings: readonly ScanWarning[]): ScanResult {
  if (warnings.length === 0) return result;
  if (result.status === 'ok') return { ...result, warnings: [...result.warnings, ...warnings] };
  return scanOk(NAME, {
    warnings: [
      ...warnings,
      {
        code: 'GCHAT_POLL_FAILED',
        message: `GChat poll did not run (${result.status === 'skipped' ? result.reason : result.status === 'error' ? result.error : `timed out after ${result.timeoutMs} ms`})`,
      },
    ],
    durationMs: result.durationMs,
  });
}

/**
 * The poll's result with the inbox's entries as its findings. The inbox is written before this
 * returns, so nothing happens with a reply before it is durable; when it cannot be written the
 * replies just read are still reported (they exist nowhere else) with a warning.
 */
export function withInbox(polled: ScanResult, inbox: Awaited<ReturnType<ReplyInbox['add']>>): ScanResult {
  const received = polled.status === 'ok' ? polled.findings : [];
  if (inbox.isErr()) {
    const warning: ScanWarning = {
      code: 'GCHAT_INBOX_UNWRITABLE',
      message: `${inbox.error.message}; replies read this cycle are reported but would be lost if the cycle died before saving its state`,
      fix: 'make the directory of the state file writable (and give it free space)',
    };
    return polled.status === 'ok' ? { ...polled, warnings: [...polled.warnings, warning] } : polled;
  }
  const findings = inbox.value.entries.map((e) => e.finding);
  const warnings: ScanWarning[] = inbox.value.warnings.map((message) => ({
    code: 'GCHAT_INBOX_SET_ASIDE',
    message,
    fix: 'read the replies in the set-aside file and act on them by hand',
  }));
  if (polled.status === 'ok')
    return { ...polled, findings: findings.length > 0 ? findings : received, warnings: [...polled.warnings, ...warnings] };
  // The poll could not run, but replies read by earlier (killed) cycles still go out.
  if (findings.length === 0 && warnings.length === 0) return polled;
  const why =
    polled.status === 'skipped' ? polled.reason : polled.status === 'error' ? polled.error : `timed out after ${polled.timeoutMs} ms`;
  const fix = polled.status === 'skipped' ? polled.fix : undefined;
  const failed: ScanWarning = {
    code: 'GCHAT_POLL_FAILED',
    message: `GChat poll did not run (${why}); delivering ${findings.length} reply(ies) held in the inbox`,
    ...(fix === undefined ? {} : { fix }),
  };
  return scanOk(NAME, { findings, warnings: [...warnings, failed], durationMs: polled.durationMs });
}
