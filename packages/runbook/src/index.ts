/**
 * @heartbeat-kit/runbook — spec 003 as pure decisions: the runbook model and date tokens, the
 * tracked-item date check, due items, the prune plan, the checklist tick and its gate, boot triage,
 * the quiet fast path and gate agreement. I/O adapters live in `./node` and `./github`.
 * @module @heartbeat-kit/runbook
 */
export * from './dates/date-tokens.js';
export * from './dates/due-items.js';
export * from './model/effectively-empty.js';
export * from './model/runbook.js';
export * from './validate/validate-runbook.js';
export * from './prune/prune-plan.js';
export type * from './ports/pull-request-states.js';
export type * from './ports/task-store.js';
export * from './status/system-status.js';
export * from './status/failure-reasons.js';
export * from './status/status-views.js';
export * from './status/render-status.js';
export * from './gate/gate.js';
export * from './gate/checklist-env.js';
export * from './gate/gate-state.js';
export * from './gate/rules-gate.js';
export * from './gate/gate-agreement.js';
export * from './tick/checklist-tick.js';
export * from './boot/boot-triage.js';
export * from './quiet/quiet-fast-path.js';
export * from './quiet/script-reports.js';
