/** Placeholder entry; filled in by its package issue. @packageDocumentation */
export {};
export * from './pipelines/index.js';
