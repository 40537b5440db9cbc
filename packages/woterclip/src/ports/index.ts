export type * from './issue-tracker.js';
export type * from './dispatcher.js';
export type * from './workspace.js';
export type * from './beat-log.js';
