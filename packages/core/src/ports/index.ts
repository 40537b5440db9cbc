export type * from './clock.js';
export type * from './command-runner.js';
export type * from './state-store.js';
export type * from './lock-store.js';
export type * from './sink.js';
export type * from './scanner.js';
export type * from './operator-activity.js';
export type * from './receipt-store.js';
